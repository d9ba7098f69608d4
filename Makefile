# qbc - the question bank compiler.
#
#   make            build build/qbc and compile every bank in input/ into output/
#   make check      the fast everyday suites (under a minute): unit, diagnostics,
#                   golden, CLI, with the normal build only
#   make test       the whole suite: unit, golden, diagnostics, CLI, writers,
#                   regeneration, fuzz, shipped banks, real clients, then the
#                   C-level suites again under ASan and UBSan
#   make bench      benchmarks (speed is measured here, never in tests)
#   make fuzz       the reader's libFuzzer target for FUZZ_SECONDS (clang)
#   make install PREFIX=/usr/local,  make clean,  make deps,  make lint
#
# Libraries come from pkg-config; `make deps` installs the Debian packages
# when run as root and otherwise prints the apt-get line.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   := build
PKGS    := libzip zlib libdeflate sqlite3 libxml-2.0 jansson md4c md4c-html nettle libutf8proc libmicrohttpd
DEBS    := build-essential pkg-config libzip-dev zlib1g-dev libdeflate-dev libsqlite3-dev libxml2-dev libjansson-dev \
           libmd4c-dev libmd4c-html0-dev nettle-dev libutf8proc-dev libjs-katex libmicrohttpd-dev libcsv-dev
# Libraries that ship no pkg-config file: a header that shows each is
# installed, and its link flag.
NOPC_HDRS := /usr/include/csv.h
NOPC_LIBS := -lcsv
# What the tests use as real clients.
TEST_DEBS := sqlite3 libxml2-utils unzip zip python3 chromium fonts-dejavu-core inotify-tools util-linux poppler-utils
# Node.js and npm only where no node is installed (a NodeSource node
# ships its own npm, which Debian's npm package would conflict with).
NODE_DEBS := nodejs npm

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wwrite-strings -Wundef -Wvla -Wnull-dereference -Wdouble-promotion \
           -Wimplicit-fallthrough -Werror
CFLAGS  ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(NOPC_LIBS) -pthread
ALL_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -pthread $(WARN) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP
SAN_FLAGS  = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
             -DQB_DEBUG_ARENA

SRCS     := $(wildcard compiler/*.c)
LIB_SRCS := $(filter-out compiler/main.c,$(SRCS))
OBJS     := $(SRCS:compiler/%.c=$(BUILD)/obj/%.o)
SAN_OBJS := $(SRCS:compiler/%.c=$(BUILD)/asan/obj/%.o)
LIB_OBJS := $(LIB_SRCS:compiler/%.c=$(BUILD)/obj/%.o)
SAN_LIB_OBJS := $(LIB_SRCS:compiler/%.c=$(BUILD)/asan/obj/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS     := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%)
SAN_UNITS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/asan/unit/%)

BANKS     := $(wildcard input/*.qb)
TEMPLATES := $(shell find templates -type f 2>/dev/null)

.PHONY: all banks deps print-debs check test bench install clean lint units clang-build fuzz
.DEFAULT_GOAL := all

all: $(BUILD)/qbc banks

# --- dependencies -----------------------------------------------------------
$(BUILD)/.deps-ok:
	@mkdir -p $(BUILD)
	@if ! pkg-config --exists $(PKGS) 2>/dev/null || ! ls $(NOPC_HDRS) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing build dependencies with apt-get"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEBS) >/dev/null || exit 3; \
	  else \
	    echo "make: missing build dependencies; run:"; \
	    echo "  sudo apt-get install -y $(DEBS)"; exit 3; \
	  fi; \
	fi
	@touch $@

print-debs:
	@echo $(DEBS) $(TEST_DEBS) $$(command -v node >/dev/null 2>&1 || echo $(NODE_DEBS))

deps: $(BUILD)/.deps-ok
	@missing=""; for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v node >/dev/null 2>&1 || missing="$$missing $(NODE_DEBS)"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing test dependencies:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 3; \
	  else \
	    echo "make: missing test dependencies; run:"; echo "  sudo apt-get install -y$$missing"; exit 3; \
	  fi; \
	fi

# --- the compiler -----------------------------------------------------------
$(BUILD)/qbc: $(OBJS)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -o $@ $(OBJS) $(PKG_LIBS)

$(BUILD)/obj/%.o: compiler/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/asan/qbc: $(SAN_OBJS)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $(SAN_OBJS) $(PKG_LIBS)

$(BUILD)/asan/obj/%.o: compiler/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	@echo "  CC      $< (asan)"
	@$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(BUILD)/unit/%: tests/unit/%.c $(LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -Icompiler -o $@ $< $(LIB_OBJS) $(PKG_LIBS)

$(BUILD)/asan/unit/%: tests/unit/%.c $(SAN_LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  CC      $< (asan)"
	@$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -Icompiler -o $@ $< $(SAN_LIB_OBJS) $(PKG_LIBS)

-include $(OBJS:.o=.d) $(SAN_OBJS:.o=.d)

# --- the banks --------------------------------------------------------------
# One stamp per bank: a bank is rebuilt only when its source, its revision
# record, the media under input/ it may show, the templates or the
# compiler changed.  The formats are the registry's (`--format make`,
# see `qbc build --help`).
# With nothing changed, make has nothing to do and says so ("Nothing to
# be done for 'all'").
STAMPS := $(BANKS:input/%.qb=$(BUILD)/stamps/%.stamp)
MEDIA  := $(shell find input -type f ! -name '*.qb' ! -name '*.lock' ! -name '*.md' 2>/dev/null)

banks: $(STAMPS)

.SECONDEXPANSION:
$(BUILD)/stamps/%.stamp: input/%.qb $(BUILD)/qbc $(TEMPLATES) $(MEDIA) $$(wildcard input/$$*.lock)
	@mkdir -p $(@D) output
	$(BUILD)/qbc build -o output --format make $<
	@touch $@

# --- tests ------------------------------------------------------------------
# The suite names after tests/run.sh are filters (see tests/README.md).
CHECK_SUITES := unit diag golden cli

check: lint $(BUILD)/qbc $(UNITS)
	@QBC=$(CURDIR)/$(BUILD)/qbc UNIT_DIR=$(CURDIR)/$(BUILD)/unit \
	  sh tests/run.sh $(CHECK_SUITES)

# When clang is installed (and CC is not clang already), `make test` also
# builds the compiler and the unit tests with it, warning-free, into
# build/clang/ and runs the unit tests and the C-level suites with that
# binary too.
CLANG ?= $(shell command -v clang 2>/dev/null)
ifneq ($(CLANG),)
ifeq ($(findstring clang,$(CC)),)
CLANG_DIR  := $(BUILD)/clang
CLANG_VARS := QBC_CLANG=$(CURDIR)/$(CLANG_DIR)/qbc CLANG_UNIT_DIR=$(CURDIR)/$(CLANG_DIR)/unit
endif
endif

units: $(UNITS)

# Coverage-guided fuzzing of the reader with clang's libFuzzer, under ASan
# and UBSan (tests/fuzz/fuzz_read.c): `make fuzz FUZZ_SECONDS=N` runs it
# for N seconds (default 60); `make test` runs it for 30 s when clang is
# installed.  tests/README.md tells how to reproduce a crash.
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJS    := $(LIB_SRCS:compiler/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BIN     := $(if $(CLANG),$(FUZZ_DIR)/fuzz_read)

$(FUZZ_DIR)/obj/%.o: compiler/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	@$(CLANG) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -DQB_DEBUG_ARENA -c -o $@ $<

$(FUZZ_DIR)/fuzz_read: tests/fuzz/fuzz_read.c $(FUZZ_OBJS)
	@echo "  LD      $@"
	@$(CLANG) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -Icompiler -o $@ $< $(FUZZ_OBJS) $(PKG_LIBS)

-include $(FUZZ_OBJS:.o=.d)

fuzz:
	@[ -n "$(CLANG)" ] || { echo "make fuzz: needs clang (sudo apt-get install -y clang)"; exit 2; }
	@$(MAKE) --no-print-directory $(FUZZ_DIR)/fuzz_read
	@sh tests/fuzz/libfuzzer.sh $(CURDIR)/$(FUZZ_DIR)/fuzz_read $(FUZZ_SECONDS)

clang-build:
	@$(if $(CLANG_DIR),$(MAKE) --no-print-directory CC=$(CLANG) BUILD=$(CLANG_DIR) \
	  $(CLANG_DIR)/qbc units)

test: deps lint $(BUILD)/qbc $(BUILD)/asan/qbc $(UNITS) $(SAN_UNITS) clang-build $(FUZZ_BIN)
	@QBC=$(CURDIR)/$(BUILD)/qbc QBC_ASAN=$(CURDIR)/$(BUILD)/asan/qbc \
	  UNIT_DIR=$(CURDIR)/$(BUILD)/unit ASAN_UNIT_DIR=$(CURDIR)/$(BUILD)/asan/unit \
	  $(CLANG_VARS) $(if $(FUZZ_BIN),FUZZ_BIN=$(CURDIR)/$(FUZZ_BIN)) sh tests/run.sh

# The floor program (tests/bench/floor.c): SQLite and the zip layer alone
# on an Anki package's own rows, the cost floor of the Anki writer.
$(BUILD)/bench/floor: tests/bench/floor.c $(LIB_OBJS)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -Icompiler -o $@ $< $(LIB_OBJS) $(PKG_LIBS)

# genanki's Python dependencies, for the comparison (only if the peer tool is there).
BENCH_DEBS := time python3-cached-property python3-frozendict python3-yaml

bench: $(BUILD)/qbc $(BUILD)/bench/floor
	@missing=""; for p in $(BENCH_DEBS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ] && [ -d ../shared/tools/peer-genanki ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get install -y -qq $$missing >/dev/null || true; \
	  else echo "make bench: for the genanki comparison run: sudo apt-get install -y$$missing"; fi; \
	fi
	@sh tests/bench/bench.sh $(CURDIR)/$(BUILD)/qbc $(CURDIR)/$(BUILD)/bench/floor

lint:
	@! grep -nE '\b(malloc|calloc|realloc|strdup|strndup|sprintf|strtok|atoi)\(' \
	  $(filter-out compiler/alloc.c compiler/arena.c,$(SRCS)) || \
	  { echo "lint: use the qb_x* wrappers"; exit 1; }

install: $(BUILD)/qbc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/qbc
	install -m 755 $(BUILD)/qbc $(DESTDIR)$(PREFIX)/bin/qbc
	cp -R templates/. $(DESTDIR)$(PREFIX)/share/qbc/

clean:
	rm -rf $(BUILD)
	find output -mindepth 1 ! -name .gitkeep -delete
