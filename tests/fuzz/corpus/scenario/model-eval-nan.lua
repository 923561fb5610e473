return {
  name = "seed", about = "a seed of the fuzz corpus", protocol = "./m.lua", nodes = 1, lease = "10s", wait = "5s",
  clients = { { name = "A" }, { name = "B", start = "10ms" } },
  duration = "30s",
}
--model--
local M = {}
function M.new(ctx, cfg)
  local node = ctx:nodes()[1]
  return { acquire = function() ctx:eval(node, "distlock/release", {"k"}, {"v"}, 0/0) return true end, release = function() return true end }
end
return M
