-- An etcd lease whose expiry falls on the lessor's tick: moving the grant later moves it to
-- the next tick or not at all, never by the same amount.
return {
  name = "check: a lease expired on the lessor's tick",
  about = [[Y grants a 2 s lease at about 490-510 ms and puts ka under it; the lessor revokes
it at the 2.5 s tick, or at the 3 s one if the grant came after 500 ms; Z enters without the
lock if ka is still there at 2.6 s. The search must find the path where Y wakes late.]],
  protocol = "./models/lease-tick.lua", server = "etcd", nodes = 1, lease = "10s", wait = "30s",
  network = { delay = "1ms" },
  clients = { { name = "X", work = "4s" }, { name = "Y", start = "485ms" }, { name = "Z", start = "2600ms" } },
  duration = "5s",
  expect = { mutual_exclusion = "holds" },
  explore = { max_faults = 0 },
}
