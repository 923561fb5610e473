local t = {}
for i = 1, 40 do t["key" .. i] = i end
local order = {}
for k in pairs(t) do order[#order + 1] = k end
return table.concat(order, ",")
