-- error at line 9: unknown key 'leese' in the scenario; did you mean 'lease'?
-- A test fixture (tests/test_scenario.c): a misspelt key is reported where it is written.
return {
  name = "typo",
  about = "A lease written as leese.",
  protocol = "distlock",
  clients = { { name = "A" } },
  duration = "10s",
  leese = "10s",
}
