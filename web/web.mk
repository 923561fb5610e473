# web/web.mk — `make playground`: out/playground/, the lab as a static site (web/README.md).
# Included by the Makefile, which defines LIB_SRC, CFLAGS_BASE and WARN.
#
# The simulator is compiled to WebAssembly by Debian's emscripten from the native binary's
# own sources (LIB_SRC), less what needs a host: `locklab serve` (sockets, libevent) and
# `locklab redis` (a terminal, libedit) are left out; gnuplot is compiled out by
# -DLOCKLAB_NO_HOST (reports/gnuplot.c says so in one line). Lua 5.4, nettle's SHA-1 and
# xxHash are compiled from Debian's source packages, fetched into build/web/src/ by
# tools/web-sources.sh. The lua/ tree, the scenario library with the matrix's cells and the
# model checker's problems (tests/check/) are embedded in the module (--embed-file), and the
# module in one JavaScript file (SINGLE_FILE): the page opens from file:// and fetches nothing.

EMCC ?= emcc
EMXX ?= em++
WEB := build/web
WEB_SRCDIR := $(WEB)/src
WEB_OUT := out/playground

WEB_LOCKLAB_SRC := $(filter-out cli/serve%.c cli/redis.c reports/html_assets.c,$(LIB_SRC)) web/main.c
# Lua as Debian builds its C++ variant, liblua5.4-c++ (src/Makefile: -DLUA_COMPAT_5_3; the
# linux target's POSIX functions; the API extern "C", debian/patches/0003-extern_C.patch),
# less the two programs. As C++, Lua raises its errors and a coroutine's yield from C with
# `throw` (ldo.c, LUAI_THROW) rather than longjmp, which WebAssembly's exception handling
# (-fwasm-exceptions) does natively: emscripten's emulated longjmp goes through JavaScript,
# and took 45% of a Redlock run's time (a client model yields at every step). The string
# hash's seed is the native build's fixed one (LUA_SEED_DEF, defined by tools/lua.mk), so that
# `pairs` walks a table's string keys in the same order on both sides.
WEB_LUA_SRC := lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser \
    lstate lstring ltable ltm lundump lvm lzio lauxlib lbaselib lcorolib ldblib liolib lmathlib \
    loadlib loslib lstrlib ltablib lutf8lib linit
WEB_NETTLE_SRC := sha1 sha1-compress write-be32

WEB_OBJ := $(WEB_LOCKLAB_SRC:%.c=$(WEB)/obj/%.o) $(WEB)/obj/html_assets.o \
    $(WEB_LUA_SRC:%=$(WEB)/obj/lua/%.o) $(WEB_NETTLE_SRC:%=$(WEB)/obj/nettle/%.o) $(WEB)/obj/xxhash/xxhash.o

WEB_CFLAGS := -O2 -fwasm-exceptions -DLOCKLAB_NO_HOST -I$(WEB_SRCDIR)/lua/src -I$(WEB)/include -I$(WEB_SRCDIR)/xxhash
WEB_LDFLAGS := -O2 -fwasm-exceptions -sMODULARIZE=1 -sEXPORT_NAME=createLocklab -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 \
    -sINITIAL_MEMORY=67108864 -sTOTAL_STACK=8388608 -sENVIRONMENT=web,worker \
    -sEXPORTED_FUNCTIONS=_web_command -sEXPORTED_RUNTIME_METHODS=ccall,FS --no-entry
WEB_DATA := lua scenarios tests/check
WEB_EMBED := --embed-file lua@/locklab/lua --embed-file scenarios@/locklab/scenarios \
    --embed-file tests/check@/locklab/tests/check
# The page's own files, and the editor: CodeMirror 5 from Debian's libjs-codemirror.
WEB_PAGE := web/index.html web/playground.css web/engine.js web/worker.js web/editor.js web/scenario_text.js \
    web/jobs.js web/run.js web/tools.js web/live.js web/lessons.js web/app.js
CODEMIRROR := /usr/share/javascript/codemirror

.PHONY: playground
playground: deps
	@command -v $(EMCC) >/dev/null || { echo "playground: emcc is missing (make deps installs Debian's emscripten)" >&2; exit 3; }
	@tools/web-sources.sh
	@$(MAKE) --no-print-directory -j$(NPROC) $(WEB_OUT)/index.html

$(WEB)/stamp-headers:
	@mkdir -p $(WEB)/include/nettle
	cp $(WEB_SRCDIR)/nettle/sha1.h $(WEB_SRCDIR)/nettle/nettle-types.h $(WEB)/include/nettle/
	@# what debian/rules writes before building liblua5.4 (the module search path's triplet)
	printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "wasm32-emscripten"\n#endif\n' >$(WEB)/include/lua5.4-deb-multiarch.h
	@touch $@

$(WEB)/obj/%.o: %.c $(WEB)/stamp-headers
	@mkdir -p $(dir $@)
	$(EMCC) $(CFLAGS_BASE) $(WEB_CFLAGS) -MMD -MP -c -o $@ $<

$(WEB)/obj/lua/%.o: $(WEB_SRCDIR)/lua/src/%.c $(WEB)/stamp-headers
	@mkdir -p $(dir $@)
	$(EMCC) -x c++ -std=c++11 -O2 -fwasm-exceptions -DLUA_COMPAT_5_3 -DLUA_USE_POSIX $(LUA_SEED_DEF) -I$(WEB)/include -c -o $@ $<

$(WEB)/obj/nettle/%.o: $(WEB_SRCDIR)/nettle/%.c
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -I$(WEB_SRCDIR)/nettle -c -o $@ $<

$(WEB)/obj/xxhash/xxhash.o: $(WEB_SRCDIR)/xxhash/xxhash.c
	@mkdir -p $(dir $@)
	$(EMCC) -O2 -c -o $@ $<

# (NODE_PATH: emscripten's JavaScript optimiser needs Debian's node-acorn, which a node
# that is not Debian's does not look for.)

# The player's script and style sheet as C strings (what reports/html_assets.c's .incbin
# does natively; the WebAssembly assembler has no .incbin).
$(WEB)/html_assets.c: $(HTML_ASSETS) web/assets.py
	@mkdir -p $(dir $@)
	python3 web/assets.py $@ html_player_js $(HTML_JS) -- html_player_css reports/html_player.css

$(WEB)/obj/html_assets.o: $(WEB)/html_assets.c
	$(EMCC) $(CFLAGS_BASE) $(WEB_CFLAGS) -c -o $@ $<

$(WEB)/locklab.js: $(WEB_OBJ) $(shell find $(WEB_DATA) -type f 2>/dev/null)
	NODE_PATH=/usr/share/nodejs $(EMXX) $(WEB_LDFLAGS) $(WEB_EMBED) -o $@ $(WEB_OBJ)

# The course (scenarios/course/lessons.txt, the teacher's file) as a script the page loads:
# from file:// a page may fetch no file.
WEB_COURSE := scenarios/course/lessons.txt

$(WEB_OUT)/index.html: $(WEB)/locklab.js $(WEB_PAGE) $(WEB_COURSE)
	@rm -rf $(WEB_OUT).tmp && mkdir -p $(WEB_OUT).tmp/codemirror
	cp $(WEB_PAGE) $(WEB_OUT).tmp/
	python3 -c 'import json,sys; print("var LOCKLAB_COURSE = " + json.dumps(open(sys.argv[1], encoding="utf-8").read()) + ";")' $(WEB_COURSE) >$(WEB_OUT).tmp/course.js
	@# the module inside a function: the page calls it, and gives its text to the check's worker
	{ echo 'function locklabModuleSource() {'; cat $(WEB)/locklab.js; echo 'return createLocklab;'; echo '}'; } >$(WEB_OUT).tmp/locklab.js
	if [ -f $(CODEMIRROR)/lib/codemirror.js ]; then \
	    cp $(CODEMIRROR)/lib/codemirror.js $(CODEMIRROR)/lib/codemirror.css $(CODEMIRROR)/mode/lua/lua.js $(WEB_OUT).tmp/codemirror/; \
	fi
	@rm -rf $(WEB_OUT) && mv $(WEB_OUT).tmp $(WEB_OUT)
	@echo "playground: $(WEB_OUT)/index.html ($$(du -sk $(WEB_OUT) | cut -f1) kB)"

-include $(shell find $(WEB)/obj -name '*.d' 2>/dev/null)
