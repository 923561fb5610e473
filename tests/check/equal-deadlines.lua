-- Two keys' deadlines on the same millisecond, set by different requests: the one expiry
-- event the node schedules is caused by the first; a late end of the second request's delay
-- moves its key's deadline alone, past another client's GET.
return {
  name = "check: two keys' deadlines falling together",
  about = [[X sets kb (PX 1000) and holds the lock for 3 s; Y sets ka (PX 990) 10 ms later;
Z enters without the lock if ka is still there at 1005 ms. The search must find the one path
where Y's SET arrives late.]],
  protocol = "./models/equal-deadlines.lua", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = { "1ms", "20ms" } },
  clients = { { name = "X", work = "3s" }, { name = "Y", start = "10ms" }, { name = "Z", start = "1005ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
