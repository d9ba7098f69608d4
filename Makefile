# qbc - the question bank compiler.
#
#   make            build build/qbc and compile every bank in input/ into output/
#   make check      the fast everyday suites (under a minute): unit, diagnostics,
#                   golden, CLI, with the normal build only
#   make test       the whole suite: unit, golden, diagnostics, CLI, writers,
#                   regeneration, fuzz, shipped banks, real clients, and every
#                   shell suite again under ASan and UBSan (TEST_JOBS=2 jobs at
#                   a time; the time it takes: tests/README.md)
#   make bench      benchmarks (speed is measured here, never in tests)
#   make fuzz       the reader's and importers' libFuzzer targets (clang), and a
#                   long run of the stale rules' model-based test (tests/stale)
#   make pot        extract qbc's messages into compiler/po/qbc.pot (xgettext)
#   make install PREFIX=/usr/local,  make clean,  make deps,  make lint
#
# Libraries come from pkg-config; `make deps` installs the Debian packages
# when run as root and otherwise prints the apt-get line.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   := build
PKGS    := libzip zlib libdeflate sqlite3 libxml-2.0 jansson md4c md4c-html nettle libutf8proc libmicrohttpd libexttextcat libmatheval
DEBS    := build-essential pkg-config libzip-dev zlib1g-dev libdeflate-dev libsqlite3-dev libxml2-dev libjansson-dev \
           libmd4c-dev libmd4c-html0-dev nettle-dev libutf8proc-dev libjs-katex libmicrohttpd-dev libcsv-dev \
           gettext libgettextpo-dev blahtexml libexttextcat-dev libexttextcat-data libmatheval-dev
# Tools that ship no pkg-config file either: a program that shows each is
# installed (gettext: msgfmt and xgettext, for qbc's own messages).
NOPC_BINS := msgfmt xgettext
# Libraries that ship no pkg-config file: a header that shows each is
# installed, and its link flag.
NOPC_HDRS := /usr/include/csv.h /usr/include/gettext-po.h
NOPC_LIBS := -lcsv -lgettextpo
# What the tests use as real clients (locales: tests/i18n builds a French
# locale with localedef, to see that numbers keep their '.' under it;
# translate-toolkit: tests/translate's pofilter and po2xliff).
TEST_DEBS := sqlite3 libxml2-utils unzip zip python3 chromium fonts-dejavu-core inotify-tools util-linux \
             locales translate-toolkit poppler-utils
# Node.js and npm only where no node is installed (a NodeSource node
# ships its own npm, which Debian's npm package would conflict with).
NODE_DEBS := nodejs npm

WARN    := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wwrite-strings -Wundef -Wvla -Wnull-dereference -Wdouble-promotion \
           -Wimplicit-fallthrough -Werror
CFLAGS  ?= -O2 -g
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(NOPC_LIBS) -pthread -lm
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

.PHONY: all banks deps print-debs check test bench install clean lint units clang-build fuzz pot locale
.DEFAULT_GOAL := all

all: $(BUILD)/qbc locale banks

# --- dependencies -----------------------------------------------------------
$(BUILD)/.deps-ok:
	@mkdir -p $(BUILD)
	@if ! pkg-config --exists $(PKGS) 2>/dev/null || ! ls $(NOPC_HDRS) >/dev/null 2>&1 || \
	  ! (for b in $(NOPC_BINS); do command -v $$b >/dev/null || exit 1; done); then \
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

# --- qbc's own messages in the user's language --------------------------
# compiler/po/<ll>.po (every one there) -> build/locale/<ll>/LC_MESSAGES/qbc.mo,
# where qbc looks for it (see compiler/i18n.h); `make pot` extracts every
# marked message into the template a translator starts from.
PO_FILES := $(wildcard compiler/po/*.po)
MO_FILES := $(PO_FILES:compiler/po/%.po=$(BUILD)/locale/%/LC_MESSAGES/qbc.mo)
POT      ?= compiler/po/qbc.pot
XGETTEXT_FLAGS := --from-code=UTF-8 --language=C --sort-by-file --add-comments=TRANSLATORS: \
  --package-name=qbc --msgid-bugs-address="qbc issue tracker" --no-wrap --add-location=file \
  --keyword=_ --keyword=N_ --keyword=qb_diag_error:2 --keyword=qb_diag_warning:2 \
  --keyword=qb_diag_note:2 --keyword=qb_diag_fatal:1 --keyword=qb_render_error:3 \
  --keyword=qb_imp_skip:4 --keyword=qb_imp_lost:3 --keyword=lost:3 --keyword=qb_drv_usage:2 \
  --keyword=usage_error:2 \
  --flag=qb_diag_error:2:c-format --flag=qb_diag_warning:2:c-format \
  --flag=qb_diag_note:2:c-format --flag=qb_diag_fatal:1:c-format \
  --flag=qb_render_error:3:c-format --flag=qb_imp_skip:4:c-format \
  --flag=qb_imp_lost:3:c-format --flag=qb_drv_usage:2:c-format --flag=usage_error:2:c-format

locale: $(MO_FILES)

$(BUILD)/locale/%/LC_MESSAGES/qbc.mo: compiler/po/%.po
	@mkdir -p $(@D)
	@echo "  MSGFMT  $<"
	@msgfmt --check -o $@ $<

# The template changes only when a message does: a new creation date
# alone leaves the file as it is.
pot:
	@xgettext $(XGETTEXT_FLAGS) -o $(POT).new $(sort $(SRCS) $(wildcard compiler/*.h))
	@if [ -f $(POT) ] && diff -q -I '^"POT-Creation-Date:' $(POT) $(POT).new >/dev/null; then \
	  rm -f $(POT).new; else mv $(POT).new $(POT); echo "  XGETTEXT $(POT)"; fi

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
CHECK_SUITES := unit diag golden cli params

# tests/run.sh runs the suites as TEST_JOBS jobs at a time (each suite
# in its own temporary folder), one per core of a 2-core machine.
TEST_JOBS ?= 2

check: lint $(BUILD)/qbc locale $(UNITS)
	@TEST_JOBS=$(TEST_JOBS) QBC=$(CURDIR)/$(BUILD)/qbc UNIT_DIR=$(CURDIR)/$(BUILD)/unit \
	  sh tests/run.sh $(CHECK_SUITES)

# When clang is installed (and CC is not clang already), `make test` also
# builds the compiler and the unit tests with it, warning-free, into
# build/clang/ and runs the unit tests and the suites of tests/run.sh's
# CLANG_SUITES (diag, golden, cli) with that binary too.
CLANG ?= $(shell command -v clang 2>/dev/null)
ifneq ($(CLANG),)
ifeq ($(findstring clang,$(CC)),)
CLANG_DIR  := $(BUILD)/clang
CLANG_VARS := QBC_CLANG=$(CURDIR)/$(CLANG_DIR)/qbc CLANG_UNIT_DIR=$(CURDIR)/$(CLANG_DIR)/unit
endif
endif

units: $(UNITS)

# Coverage-guided fuzzing with clang's libFuzzer, under ASan and UBSan: the
# reader (tests/fuzz/fuzz_read.c) and each importer (fuzz_import.c, built
# once per format): `make fuzz FUZZ_SECONDS=N` runs each target for N
# seconds (default 60; FUZZ_TARGETS="gift csv" picks some: read, moodlexml,
# gift, aiken, csv); `make test` shares 30 s among them when clang is
# installed.  tests/README.md tells how to reproduce a crash.
# `make fuzz` also gives the stale rules' model-based test (tests/stale)
# a longer run than `make test` does: MODEL_SEEDS sequences of MODEL_STEPS
# events (a seed that finds a difference replays with --seeds N).
MODEL_SEEDS  ?= 1-40
MODEL_STEPS  ?= 500
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= read moodlexml gift aiken csv
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJS    := $(LIB_SRCS:compiler/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_NAMES   := $(if $(filter read,$(FUZZ_TARGETS)),fuzz_read) \
                $(patsubst %,fuzz_import_%,$(filter-out read,$(FUZZ_TARGETS)))
FUZZ_BINS    := $(if $(CLANG),$(FUZZ_NAMES:%=$(FUZZ_DIR)/%))

$(FUZZ_DIR)/obj/%.o: compiler/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	@$(CLANG) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -DQB_DEBUG_ARENA -c -o $@ $<

$(FUZZ_DIR)/fuzz_read: tests/fuzz/fuzz_read.c $(FUZZ_OBJS)
	@echo "  LD      $@"
	@$(CLANG) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -Icompiler -o $@ $< $(FUZZ_OBJS) $(PKG_LIBS)

$(FUZZ_DIR)/fuzz_import_%: tests/fuzz/fuzz_import.c $(FUZZ_OBJS)
	@echo "  LD      $@"
	@$(CLANG) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -Icompiler -DFUZZ_FORMAT='"$*"' \
	  -o $@ $< $(FUZZ_OBJS) $(PKG_LIBS)

-include $(FUZZ_OBJS:.o=.d)

fuzz:
	@$(MAKE) -s --no-print-directory $(BUILD)/qbc
	@QBC=$(CURDIR)/$(BUILD)/qbc MODEL_SEEDS=$(MODEL_SEEDS) MODEL_STEPS=$(MODEL_STEPS) \
	  sh tests/stale/run.sh
	@[ -n "$(CLANG)" ] || { echo "make fuzz: needs clang (sudo apt-get install -y clang)"; exit 2; }
	@$(MAKE) -s --no-print-directory $(BUILD)/qbc $(FUZZ_BINS)
	@QBC=$(CURDIR)/$(BUILD)/qbc sh tests/fuzz/libfuzzer.sh $(FUZZ_SECONDS) $(FUZZ_BINS:%=$(CURDIR)/%)

clang-build:
	@$(if $(CLANG_DIR),$(MAKE) --no-print-directory CC=$(CLANG) BUILD=$(CLANG_DIR) \
	  $(CLANG_DIR)/qbc units)

# The four builds the suite needs (normal, sanitizer, clang, fuzz targets)
# are made TEST_JOBS files at a time, whatever -j make was given.
test: deps lint
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(BUILD)/qbc locale $(BUILD)/asan/qbc \
	  $(UNITS) $(SAN_UNITS) clang-build $(FUZZ_BINS)
	@TEST_JOBS=$(TEST_JOBS) QBC=$(CURDIR)/$(BUILD)/qbc QBC_ASAN=$(CURDIR)/$(BUILD)/asan/qbc \
	  UNIT_DIR=$(CURDIR)/$(BUILD)/unit ASAN_UNIT_DIR=$(CURDIR)/$(BUILD)/asan/unit \
	  $(CLANG_VARS) $(if $(FUZZ_BINS),FUZZ_BINS="$(FUZZ_BINS:%=$(CURDIR)/%)") sh tests/run.sh

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

install: $(BUILD)/qbc locale
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/qbc
	install -m 755 $(BUILD)/qbc $(DESTDIR)$(PREFIX)/bin/qbc
	cp -R templates/. $(DESTDIR)$(PREFIX)/share/qbc/
	$(if $(MO_FILES),install -d $(DESTDIR)$(PREFIX)/share/locale && cp -R $(BUILD)/locale/. $(DESTDIR)$(PREFIX)/share/locale/)

clean:
	rm -rf $(BUILD)
	find output -mindepth 1 ! -name .gitkeep -delete
