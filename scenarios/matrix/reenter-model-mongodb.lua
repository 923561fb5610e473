-- reenter-model-mongodb.lua — reenter-model.lua for the designs that run on mongodb servers
-- (server = "mongodb"): the same model, with M.SERVER naming that kind, which a model must
-- declare and reenter-model.lua cannot take from its options.
local base = require("reenter-model")
local M = {}
for k, v in pairs(base) do M[k] = v end
M.OPTIONS = {}
for k, v in pairs(base.OPTIONS) do M.OPTIONS[k] = v end
M.SERVER = "mongodb"
M.OPTIONS.expiry = "boolean"   -- mongo-findandmodify's: the lock document expires (a TTL index)
M.OPTIONS.write_concern = { "default", "w:majority", "w:1" }  -- mongo-findandmodify's
return M
