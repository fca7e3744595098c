# accelbench - one Makefile for the whole project.
#
#   make            build ./accelbench
#   make check      install missing Debian packages, build, run every test tier
#   make demo       install missing packages, build, write the example campaign, its
#                   database, workbook, CSV, report and charts to out/
#   make bench      time ingest on a large generated corpus (MB/s, records/s, peak RSS)
#   make bench-bins build what tests/bench/*.sh need (binary, build/helpers/gen_*)
#   make deps       install the Debian packages the project and its tests need
#   make check-headers   compile every header on its own
#   make fuzz       build the fuzz drivers (clang, libFuzzer)
#   make install    PREFIX=/usr/local
#   V=1 shows commands; SANITIZE=address,undefined builds with sanitizers;
#   BUILD=dir puts objects elsewhere (BIN names the binary).

# sanitizer builds keep their own objects and binary, so switching back and
# forth never links stale objects built with other flags
ifneq ($(SANITIZE),)
BUILD ?= build-sanitize
BIN ?= $(BUILD)/accelbench
else
BUILD ?= build
BIN ?= accelbench
endif
PREFIX ?= /usr/local
CC ?= cc
SHARED ?= ../shared

PKGS := sqlite3 jansson gsl cairo pangocairo xlsxwriter libpq zlib
# what is linked: libpq and cairo/pango/glib are only compiled against and
# dlopen()ed when a command needs them (core/dynlib.h; a test checks that
# the binary does not name them), so other commands do not pay for loading
# ~55 libraries at every start
LINK_PKGS := sqlite3 jansson gsl xlsxwriter zlib
DEB_PKGS := gcc make pkg-config libc6-dev libsqlite3-dev libjansson-dev libgsl-dev \
	libcairo2-dev libpango1.0-dev libxlsxwriter-dev libcmocka-dev sqlite3 \
	poppler-utils python3-openpyxl python3 fonts-dejavu-core time \
	procps hostname libpq-dev zlib1g-dev
# only the tests need these: a throwaway PostgreSQL server (t09xx), the real
# JUBE and a single-node Slurm cluster for `run jube` / `--slurm` (t50xx),
# a spreadsheet application that recalculates the workbook (t4505)
CHECK_DEB_PKGS := postgresql-15 jube slurm-wlm munge libreoffice-calc-nogui

ifeq ($(V),1)
Q :=
else
Q := @
endif

OPT ?= -O2 -g
WARN := -std=c11 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter
DEFS := -D_GNU_SOURCE
ifneq ($(SANITIZE),)
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
# '=' (not ':='): pkg-config runs only when a compile needs it, after deps.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS = $(shell pkg-config --libs $(LINK_PKGS)) -lm -ldl
ALL_CFLAGS = $(OPT) $(WARN) $(DEFS) -I. $(PKG_CFLAGS) $(SANFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

LIB_DIRS := core model ingest views plots reports runners
LIB_SRCS := $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
CLI_SRCS := $(sort $(wildcard cli/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
LIB := $(BUILD)/libaccelbench.a
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)
HEADERS := $(sort $(wildcard $(addsuffix /*.h,$(LIB_DIRS) cli)))

.PHONY: all check check-run demo demo-run bench bench-run bench-bins deps deps-if-missing \
	check-headers fuzz fuzz-bins fuzz-results-db install clean unit-bins

all: $(BIN)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(PKG_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) tests/unit/unit.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  TEST    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(shell pkg-config --cflags cmocka) -o $@ $< $(LIB) \
		$(ALL_LDFLAGS) $(shell pkg-config --libs cmocka) $(PKG_LIBS) $(TEST_LIBS)

# test_plot_render reads the PNGs back with cairo itself
$(BUILD)/tests/test_plot_render: TEST_LIBS = $(shell pkg-config --libs cairo)

$(BUILD)/helpers/%: tests/helpers/%.c tests/helpers/gen_util.h $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HELPER  $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(ALL_LDFLAGS) $(PKG_LIBS)

unit-bins: $(UNIT_BINS) $(HELPER_BINS)

# --- set-up: install only what is missing, then re-enter make ------------
deps:
	@DEB_PKGS="$(DEB_PKGS) $(CHECK_DEB_PKGS)" sh tests/deps.sh install

deps-if-missing:
	@DEB_PKGS="$(DEB_PKGS)" sh tests/deps.sh if-missing

check: deps-if-missing
	@DEB_PKGS="$(CHECK_DEB_PKGS)" sh tests/deps.sh if-missing || \
		echo "note: $(CHECK_DEB_PKGS) could not be installed; the tests that need them will be skipped"
	@$(MAKE) --no-print-directory check-run

check-run: $(BIN) unit-bins
	@AB_BIN="$(abspath $(BIN))" AB_BUILD="$(abspath $(BUILD))" AB_SHARED="$(SHARED)" \
		AB_CC="$(CC)" AB_CFLAGS="$(ALL_CFLAGS)" sh tests/run.sh

demo: deps-if-missing
	@$(MAKE) --no-print-directory demo-run

demo-run: $(BIN)
	@./$(BIN) demo -o out
	@sh runners/demo_outputs.sh ./$(BIN) out

bench: deps-if-missing
	@$(MAKE) --no-print-directory bench-run

# what tests/bench/*.sh run: the binary and the corpus generators (plain `make`
# builds only the binary; the scripts refuse a generator older than the library)
bench-bins: $(BIN) $(HELPER_BINS)

bench-run: bench-bins
	@AB_BIN="$(abspath $(BIN))" AB_BUILD="$(abspath $(BUILD))" sh tests/bench/bench.sh

check-headers:
	@mkdir -p $(BUILD); for h in $(HEADERS); do \
		printf '#include "%s"\n#include "%s"\n' $$h $$h > $(BUILD)/hdr.c; \
		$(CC) $(ALL_CFLAGS) -fsyntax-only $(BUILD)/hdr.c || { echo "header $$h does not compile alone"; exit 1; }; \
	done; echo "all $(words $(HEADERS)) headers compile on their own"

# libFuzzer drivers (clang); run e.g. mkdir -p build/fuzz/corpus && build/fuzz/fuzz_ingest
# -max_total_time=60 build/fuzz/corpus tests/fixtures (new inputs go to the first folder)
fuzz:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/fuzz BIN=$(BUILD)/fuzz/accelbench CC=clang \
		SANITIZE=address,undefined,fuzzer-no-link fuzz-bins

FUZZ_SRCS := $(sort $(wildcard tests/fuzz/*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/%)
fuzz-bins: $(FUZZ_BINS)

# ReFrame results databases, seeded from tests/fixtures/hostile, each input
# bounded by FUZZ_TIMEOUT seconds (a hang is a finding)
FUZZ_TIME ?= 60
FUZZ_TIMEOUT ?= 10
fuzz-results-db: fuzz
	@mkdir -p $(BUILD)/fuzz/corpus-results-db
	@for k in valid view virtual; do /usr/bin/python3 tests/fixtures/hostile/make_results_db.py \
		$$k $(BUILD)/fuzz/corpus-results-db/$$k.db || exit 1; done
	$(BUILD)/fuzz/fuzz_results_db -timeout=$(FUZZ_TIMEOUT) -max_total_time=$(FUZZ_TIME) \
		-rss_limit_mb=1024 $(BUILD)/fuzz/corpus-results-db

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(LIB)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(ALL_LDFLAGS) -fsanitize=fuzzer $(PKG_LIBS)

install: $(BIN)
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/accelbench
	install -D -m 644 docs/accelbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/accelbench.1

clean:
	rm -rf $(BUILD) $(BIN) build build-sanitize accelbench out

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
