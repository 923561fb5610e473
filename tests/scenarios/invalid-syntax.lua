-- error at line 6: '}' expected (to close '{' at line 3) near 'about'
-- A test fixture (tests/test_scenario.c): Lua's own errors keep their line.
return {
  name = [[a long
name]]
  about = "a missing comma above",
}
