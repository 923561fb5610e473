-- reenter-model-postgresql.lua — reenter-model.lua for the designs that run on postgresql
-- servers (server = "postgresql"): the same model, with M.SERVER naming that kind, which a
-- model must declare and reenter-model.lua cannot take from its options.
local base = require("reenter-model")
local M = {}
for k, v in pairs(base) do M[k] = v end
M.OPTIONS = {}
for k, v in pairs(base.OPTIONS) do M.OPTIONS[k] = v end
M.OPTIONS.key = "integer"
M.SERVER = "postgresql"
return M
