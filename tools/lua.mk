# tools/lua.mk — Lua 5.4 as the binaries link it. Included by the Makefile.
#
# Debian's source package lua5.4 (the same version, with Debian's patches, as liblua5.4),
# fetched once into build/web/src/ by tools/web-sources.sh (the playground compiles the same
# files) and compiled here as Debian's `linux` target does, with one change: the seed of Lua's
# string hashing is fixed. Lua makes it at each start from the time and three addresses
# (lstate.c, luai_makeseed), so the order in which `pairs` walks a table's string keys —
# in a client model, in a script the fake Redis runs — differed between two runs of one
# scenario and seed: a run was not a pure function of its inputs (tests/cli/test_nondet.sh
# runs one twice). The value is arbitrary; the playground uses the same (web/web.mk).
LUA_SEED_DEF := '-Dluai_makeseed(L)=((unsigned int)0x4c4f434bu)'
LUA_SRCDIR := build/web/src/lua/src
LUA_NAMES := lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser \
    lstate lstring ltable ltm lundump lvm lzio lauxlib lbaselib lcorolib ldblib liolib lmathlib \
    loadlib loslib lstrlib ltablib lutf8lib linit
LUA_LIB := build/lua/liblua.a
LUA_OBJ := $(LUA_NAMES:%=build/lua/%.o)

$(LUA_SRCDIR)/lstate.c:
	@tools/web-sources.sh

build/lua/lua5.4-deb-multiarch.h:
	@mkdir -p $(dir $@)
	@# what debian/rules writes before building liblua5.4 (the module search path's triplet)
	printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
	    "$$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)" >$@

$(LUA_SRCDIR)/%.c: $(LUA_SRCDIR)/lstate.c ;
# the fetched sources are kept (make would take them for intermediate files and delete them)
.PRECIOUS: $(LUA_SRCDIR)/%.c

build/lua/%.o: $(LUA_SRCDIR)/%.c build/lua/lua5.4-deb-multiarch.h
	$(CC) -O2 -g -DLUA_COMPAT_5_3 -DLUA_USE_LINUX $(LUA_SEED_DEF) -Ibuild/lua -c -o $@ $<

$(LUA_LIB): $(LUA_OBJ)
	rm -f $@
	ar rcs $@ $^
