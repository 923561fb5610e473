# locklab — build, demo, test, bench. `make demo` and `make test` work on a fresh Debian
# machine: the `deps` step installs whatever is missing.

CC ?= cc
NPROC := $(shell nproc 2>/dev/null || echo 2)
PKGS := lua5.4 libxxhash nettle libedit libevent_core
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CFLAGS_STD := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -g $(WARN)
# Every folder on the include path: the tests, the fuzzers and the playground (web/web.mk).
CFLAGS_BASE := $(CFLAGS_STD) -Isim -Isim/redis -Imodel -Ireports -Icli

# The layers, as the compiler enforces them (each folder's README says why): a file sees its
# own folder (a quoted include looks there first) and only what its layer may use, so an
# include across a forbidden layer is "No such file". sim/ sees sim/ alone, never model/,
# reports/ or cli/. model/ sees the engine's public headers (SIM_API, linked into
# build/include/sim/), never its parts (core.h, net.h, node.h, client.h, ...). reports/ sees
# those and model's public headers (MODEL_API); cli/ all of those, reports/ and the fake Redis
# (sim/redis/: `locklab redis` and `serve` run it). A header listed here must include only
# headers listed here.
SIM_API := util clock dict chooser history scenario scenario_vary scenario_matrix world steps kinds \
    server_kind faults scriptlib chunkcache redis_kind guard
MODEL_API := check verdict monitor explore fault_search touch
LAYER_INC_sim := -Isim -Isim/redis
LAYER_INC_model := -Ibuild/include/sim
LAYER_INC_reports := -Ibuild/include/sim -Ibuild/include/model
LAYER_INC_cli := -Ibuild/include/sim -Ibuild/include/model -Ireports -Isim/redis
layer_inc = $(if $(filter tests/%,$1),$(CFLAGS_BASE),$(LAYER_INC_$(firstword $(subst /, ,$1))))
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Lua is compiled from Debian's source package with a fixed string-hash seed (tools/lua.mk);
# its headers are liblua5.4-dev's, the same version.
include tools/lua.mk
PKG_LIBS = $(LUA_LIB) $(shell pkg-config --libs $(filter-out lua5.4,$(PKGS)) 2>/dev/null) -lm
# The optimised binaries link Lua, xxHash and nettle statically (Lua always: tools/lua.mk;
# xxHash and nettle when Debian's archives are there, as they are in the -dev packages): the
# API calls then skip the PLT, which takes about 7% off the cycles of a script execution
# (make bench). Otherwise, the shared ones.
LIBDIR = $(shell pkg-config --variable=libdir lua5.4 2>/dev/null)
STATIC_ARCHIVES = $(foreach l,xxhash nettle,$(LIBDIR)/lib$(l).a)
# libedit (line editing and history for `locklab redis` at a terminal) and libevent (the
# event loop of `locklab serve`) stay shared.
EDIT_LIBS = $(shell pkg-config --libs libedit libevent_core 2>/dev/null)
OPT_LIBS = $(if $(filter 2,$(words $(wildcard $(STATIC_ARCHIVES)))),$(LUA_LIB) $(STATIC_ARCHIVES) $(EDIT_LIBS) -lm,$(PKG_LIBS))
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

OPT_CFLAGS := -O2
SAN_CFLAGS := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

LIB_SRC := $(sort $(wildcard sim/*.c sim/*/*.c model/*.c reports/*.c) $(filter-out cli/main.c,$(wildcard cli/*.c)))
MAIN_SRC := cli/main.c
TEST_SRC := $(sort $(wildcard tests/test_*.c))
BENCH_SRC := $(sort $(wildcard tests/bench_*.c))

OBJ := $(LIB_SRC:%.c=build/opt/%.o)
SAN_OBJ := $(LIB_SRC:%.c=build/san/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=build/san/tests/%)
BENCH_BIN := $(BENCH_SRC:tests/%.c=build/opt/tests/%)

.PHONY: all deps demo test unit bench clean gallery fuzz soundness lists
all: locklab

deps:
	@tools/deps.sh

locklab: $(OBJ) build/opt/cli/main.o $(LUA_LIB)
	$(CC) -o $@ $(filter %.o,$^) $(OPT_LIBS)

build/san/locklab: $(SAN_OBJ) build/san/cli/main.o $(LUA_LIB)
	$(CC) -fsanitize=address,undefined -o $@ $(filter %.o,$^) $(PKG_LIBS)

build/opt/%.o: %.c | build/include/.api
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(call layer_inc,$<) $(OPT_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

build/san/%.o: %.c | build/include/.api
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_STD) $(call layer_inc,$<) $(SAN_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

# The public headers of sim/ and model/, linked where the layers above look for them.
build/include/.api: Makefile
	@rm -rf build/include && mkdir -p build/include/sim build/include/model
	@for h in $(SIM_API); do ln -s ../../../sim/$$h.h build/include/sim/$$h.h; done
	@for h in $(MODEL_API); do ln -s ../../../model/$$h.h build/include/model/$$h.h; done
	@touch $@

build/san/tests/%: build/san/tests/%.o $(SAN_OBJ) $(LUA_LIB)
	$(CC) -fsanitize=address,undefined -o $@ $(filter %.o,$^) $(PKG_LIBS) $(CMOCKA_LIBS)

build/opt/tests/%: build/opt/tests/%.o $(OBJ) $(LUA_LIB)
	$(CC) -o $@ $(filter %.o,$^) $(OPT_LIBS)

# The player page's script and style sheet are assembled into html_assets.o (.incbin).
HTML_JS := reports/html_model.js reports/html_view.js reports/html_story.js reports/html_timeline.js \
    reports/html_world.js reports/html_start.js
HTML_ASSETS := $(HTML_JS) reports/html_player.css
build/opt/reports/html_assets.o build/san/reports/html_assets.o build/fuzz/obj/reports/html_assets.o: $(HTML_ASSETS)

# The unit tests run under AddressSanitizer and UndefinedBehaviorSanitizer; any report fails.
export ASAN_OPTIONS := halt_on_error=1:detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS := halt_on_error=1:print_stacktrace=1

unit: deps
	@$(MAKE) --no-print-directory -j$(NPROC) $(TEST_BIN)
	@tools/run-unit.sh $(TEST_BIN)

test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) locklab build/san/locklab $(TEST_BIN) build/opt/tests/soundness build/opt/tests/orders $(FUZZ_SAN_BIN)
	@# the playground too, before its two suites run side by side (tools/run-tests.sh); when it
	@# cannot be built, they say why (each runs make playground)
	@tools/web-sources.sh && command -v $(EMCC) >/dev/null && $(MAKE) --no-print-directory -j$(NPROC) $(WEB_OUT)/index.html || true
	@tools/run-tests.sh

# The checker's soundness harness at length (a nightly job, minutes): thousands of generated
# problems, each searched for up to SOUNDNESS_TIME seconds and run SOUNDNESS_RUNS times at
# random; every class counts (no known contradictions), and each contradiction is printed with
# the problem and the run that shows it. `make test` runs 300 of them, 0.3 s and 60 runs each.
SOUNDNESS_PROBLEMS ?= 2000
SOUNDNESS_RUNS ?= 100
SOUNDNESS_FIRST ?= 1
# and tests/orders.c: the search against every value of the windows of small problems
ORDERS_PROBLEMS ?= 400
soundness: deps
	@$(MAKE) --no-print-directory -j$(NPROC) build/opt/tests/soundness build/opt/tests/orders
	@SOUNDNESS_KNOWN= SOUNDNESS_TIME=$${SOUNDNESS_TIME:-1} build/opt/tests/soundness $(SOUNDNESS_PROBLEMS) $(SOUNDNESS_RUNS) $(SOUNDNESS_FIRST)
	@ORDERS_TIME=$${ORDERS_TIME:-20} build/opt/tests/orders $(ORDERS_PROBLEMS) $(SOUNDNESS_FIRST)

demo: deps
	@$(MAKE) --no-print-directory locklab
	@tools/demo.sh

# The lists of server kinds, faults and properties in the README, the playground's header and
# docs/ (committed), rewritten from their tables as the binary prints them (tools/lists.py);
# `make test` fails while one differs (tests/cli/test_cli.sh).
lists: locklab
	@LOCKLAB=./locklab tools/lists.py

# The pictures in docs/ (committed): regenerated from the scenario library, never by hand.
GALLERY := gc-pause-single failover-async-replication redlock-clock-jump gc-pause-fencing
gallery: deps
	@$(MAKE) --no-print-directory locklab
	@for s in $(GALLERY); do \
	    ./locklab run $$s -q --plot docs/timeline-$$s.png >/dev/null; \
	    rc=$$?; [ $$rc -le 1 ] || exit $$rc; echo "gallery: docs/timeline-$$s.png"; \
	done

bench: deps
	@$(MAKE) --no-print-directory -j$(NPROC) locklab $(BENCH_BIN)
	@tools/bench.sh
	@tools/serve-bench.sh

# The fuzz targets (tests/fuzz/fuzz_*.c: the parsers that take arbitrary bytes, the script
# libraries, scenario files with their models), two ways:
# - in `make test`, each linked with tests/fuzz/driver.c under ASan + UBSan (build/san/fuzz/):
#   its seed corpus (tests/fuzz/corpus/<name>/) replayed, then a fixed number of mutations
#   from a fixed seed (tools/fuzz.sh says how many): deterministic, a few seconds each;
# - `make fuzz`, the long runs: libFuzzer (clang), coverage-guided, FUZZ_SECONDS (default 60)
#   each, growing build/fuzz/<name>.corpus from the seeds; a crash is kept as build/fuzz/crash-*
#   (replay: build/fuzz/fuzz_X build/fuzz/crash-...). The library is compiled once for all
#   targets (build/fuzz/obj/), not once a target. `make fuzz FUZZ_MUTATIONS=N` instead runs the
#   deterministic driver with N mutations a target (no clang needed).
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
FUZZ_SAN_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/san/fuzz/%)
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -O1 -g
FUZZ_OBJ := $(LIB_SRC:%.c=build/fuzz/obj/%.o)
# kept between runs (make would take them for intermediate files and delete them)
.SECONDARY: $(FUZZ_OBJ)

build/san/fuzz/%: build/san/tests/fuzz/%.o build/san/tests/fuzz/driver.o $(SAN_OBJ) $(LUA_LIB)
	@mkdir -p $(dir $@)
	$(CC) -fsanitize=address,undefined -o $@ $(filter %.o,$^) $(PKG_LIBS)

build/fuzz/obj/%.o: %.c | build/include/.api
	@mkdir -p $(dir $@)
	clang $(CFLAGS_STD) $(call layer_inc,$<) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_script.h $(FUZZ_OBJ) $(LUA_LIB)
	@mkdir -p $(dir $@)
	clang $(CFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -o $@ $(filter %.c %.o,$^) $(PKG_LIBS)

fuzz: deps
ifdef FUZZ_MUTATIONS
	@$(MAKE) --no-print-directory -j$(NPROC) $(FUZZ_SAN_BIN)
	@tools/fuzz.sh --mutations $(FUZZ_MUTATIONS) $(FUZZ_SAN_BIN)
else
	@command -v clang >/dev/null || { echo "fuzz: clang is needed (apt-get install clang), or make fuzz FUZZ_MUTATIONS=N"; exit 3; }
	@$(MAKE) --no-print-directory -j$(NPROC) $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
	    mkdir -p $$f.corpus; echo "fuzz: $$f for $(FUZZ_SECONDS) s"; \
	    seeds=$$(n=$$(basename $$f); d=tests/fuzz/corpus/$${n#fuzz_}; [ -d $$d ] && echo ../../$$d); \
	    (cd build/fuzz && ./$$(basename $$f) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        $$(basename $$f).corpus $$seeds) >$$f.log 2>&1; rc=$$?; tail -n 6 $$f.log; \
	    [ $$rc -eq 0 ] || { echo "fuzz: $$f failed (exit $$rc): see $$f.log and build/fuzz/crash-*"; exit 1; }; \
	done
endif

clean:
	rm -rf build locklab

# The lab in a browser: `make playground` writes out/playground/ (web/README.md).
include web/web.mk

-include $(shell find build -name '*.d' 2>/dev/null)
