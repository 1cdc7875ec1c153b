# Makefile: builds ngoma, runs every test (make check), plays the demo (make demo), installs it.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
# The modules (mail, drawing), once installed.
LIBDIR   ?= $(PREFIX)/lib/ngoma
# What the contrib/ files a host copies name: the database (and the ngoma
# user's home, its folder), and Postfix's queue directory.
DB       ?= /var/lib/ngoma/ngoma.db
NGOMA_HOME ?= $(patsubst %/,%,$(dir $(DB)))
SPOOL    ?= /var/spool/postfix
NGOMA_USER ?= ngoma
CONTRIB_FILES := crontab fetchmailrc forward getmailrc ngoma.service ngoma.timer postfix-master.cf procmailrc \
                 ngoma-serve.service ngoma-serve.socket
CONTRIB_DIR ?= $(BUILD)/contrib
# Where templates/ and seeds/ are read at run time: the source tree for a
# build here; `make install` rebuilds with $(PREFIX)/share/ngoma.
DATADIR  ?= $(CURDIR)
BUILD    ?= build
CC       ?= cc
CFLAGS   ?= -O2 -g
LDFLAGS  ?=

PKGS        := sqlite3 libcjson libcurl
DRAW_PKGS   := cairo freetype2 zlib libcjson
MIME_PKGS   := gmime-3.0
PKG_CFLAGS   = $(shell pkg-config --cflags $(PKGS) $(DRAW_PKGS) $(MIME_PKGS))
# The program links only SQLite and cJSON. libcurl is loaded the first time
# SMTP or IMAP is used (src/mail/curlx.c); GMime, with GLib and the 16
# libraries it brings, is the module ngoma-mime.so (src/mail/mime.c),
# loaded the first time a process reads or writes a mail (mimex.c); cairo
# is the module ngoma-render.so (src/render/ but render.c), loaded the
# first time a process draws. The modules call back into the program,
# which exports its symbols (-rdynamic).
PKG_LIBS     = $(shell pkg-config --libs $(filter-out libcurl,$(PKGS))) -ldl -lm -rdynamic
DRAW_LIBS    = $(shell pkg-config --libs $(DRAW_PKGS)) -lm
MIME_LIBS    = $(shell pkg-config --libs $(MIME_PKGS))
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS   = $(shell pkg-config --libs check)

ALL_CFLAGS = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE -DNGOMA_DATADIR='"$(DATADIR)"' \
             -DNGOMA_LIBDIR='"$(abspath $(BUILD))"' \
             -I src -I $(BUILD)/gen $(PKG_CFLAGS) $(CFLAGS)

# src/ holds one folder a layer (docs/architecture.md); the program is cli/main.c.
DRAW_SRC  := $(filter-out src/render/render.c,$(wildcard src/render/*.c))
MIME_SRC  := src/mail/mime.c
SRC       := $(filter-out src/cli/main.c $(DRAW_SRC) $(MIME_SRC),$(wildcard src/*/*.c src/*/*/*.c))
LIB_OBJS  := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/migrations.o
DRAW_OBJS := $(DRAW_SRC:%.c=$(BUILD)/%.o)
MIME_OBJS := $(MIME_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ  := $(BUILD)/src/cli/main.o
TEST_SRC  := $(wildcard tests/check_*.c tests/playout.c tests/planner.c tests/games/*.c)
TEST_OBJS := $(TEST_SRC:%.c=$(BUILD)/%.o)

NGOMA := $(BUILD)/ngoma
DRAW  := $(BUILD)/ngoma-render.so
MIME  := $(BUILD)/ngoma-mime.so
MODS  := $(DRAW) $(MIME)
CHECK := $(BUILD)/check_ngoma
BENCH := $(BUILD)/bench_ngoma

# The sanitizer build: clang with AddressSanitizer and UndefinedBehaviorSanitizer,
# and libFuzzer's coverage: the same objects make the program, the suites
# and one fuzz program per target.
SAN_FLAGS    := -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_LDFLAGS  := -fsanitize=address,undefined,fuzzer-no-link
FUZZ_TARGETS := mail orders state template seeds lmtp press plans
FUZZ_SECONDS ?= 600
FUZZ_CHECK_SECONDS ?= 2

.PHONY: all deps check check-run build build-san check-unit check-unit-san check-suites check-scripts-cli check-scripts-mail \
	check-scripts-play check-play \
	check-cli check-mail check-site check-postfix check-bench check-reliability check-fuzz soak soak-run \
	fuzz fuzz-run fuzz-programs demo demo-run bench bench-run bench-strength install contrib-files clean

all: $(NGOMA) $(MODS)

# Every program is built with the modules it loads.
$(NGOMA): $(MAIN_OBJ) $(LIB_OBJS) | $(MODS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(DRAW): $(DRAW_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(DRAW_LIBS)

$(MIME): $(MIME_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $^ $(MIME_LIBS)

$(DRAW_OBJS) $(MIME_OBJS): ALL_CFLAGS += -fPIC

# The tests decode pictures with cairo and read mail with GMime: they link both themselves.
$(CHECK): $(TEST_OBJS) $(LIB_OBJS) | $(MODS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(PKG_LIBS) $(DRAW_LIBS) $(MIME_LIBS)

$(BENCH): $(BUILD)/bench/bench_ngoma.o $(BUILD)/bench/hostile_mail.o $(BUILD)/bench/pictures.o \
		$(BUILD)/bench/lmtp_client.o $(BUILD)/bench/strength.o $(BUILD)/bench/plans.o $(BUILD)/tests/planner.o \
		$(LIB_OBJS) | $(MODS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(ALL_CFLAGS) -I bench -MMD -MP -c -o $@ $<

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -I tests -MMD -MP -c -o $@ $<

$(BUILD)/gen/migrations.c: src/store/embed-migrations.sh migrations $(wildcard migrations/*.sql)
	@mkdir -p $(dir $@)
	sh src/store/embed-migrations.sh migrations > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/migrations.o: $(BUILD)/gen/migrations.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

deps:
	@sh contrib/install-deps

# make check: install what is missing, then build with gcc and with clang
# (the sanitizers and the fuzz targets, one build), then test. A sub-make
# reads pkg-config only after the packages are in.
check: deps
	@$(MAKE) --no-print-directory check-run

# tests/steps.sh runs the targets on two workers, one a core, each taking
# the next whose build is done, and prints the time of each: the two
# builds (gcc, and clang with the sanitizers and the fuzz targets), the
# suites of both builds (the sanitizers' on samples, gcc's in full), every
# script once (against the sanitizer build but the browser's), what needs
# the gcc build (the private Postfix installs it as the guide says;
# reliability and soak kill and time it), the benchmarks small (their
# gates hold on a loaded machine) and the fuzzing. Longest first.
check-run:
	@sh tests/steps.sh build-san build check-scripts-mail:build-san check-unit-san:build-san \
		check-scripts-play:build-san check-scripts-cli:build-san check-site:build check-reliability:build \
		check-unit:build check-bench:build check-postfix:build check-fuzz:build-san
	@echo "make check: all tests passed"

build: $(NGOMA) $(MODS) $(CHECK) $(BENCH)

# The sanitizer build: clang with ASan and UBSan, and the coverage the
# fuzz targets need, which are built from the same objects.
build-san:
	@$(MAKE) --no-print-directory $(SAN_MAKE) build/san/ngoma build/san/check_ngoma fuzz-programs

# Every Check suite (termination plays 6,000 games to their end).
check-unit: $(CHECK) $(NGOMA)
	CK_DEFAULT_TIMEOUT=240 $(CHECK)

# The same under the sanitizers, the long loops on a sample (t_sample):
# memory there, the counts and bounds in the gcc run. A suite a process,
# its tests unforked (tests/suites.sh says why), each suite bounded.
check-unit-san:
	@$(MAKE) --no-print-directory $(SAN_MAKE) NGOMA_TEST_SAMPLE=5 check-suites

check-suites: $(CHECK) $(NGOMA)
	sh tests/suites.sh $(CHECK)

# The scripts against the sanitizer build: the CLI's and the mail's. The
# site's and the phone's (check-site) measure pages in Chromium and run
# against the gcc build: under ASan each answer's picture takes four times
# as long, and check_render draws every picture under ASan already.
check-scripts-cli:
	@$(MAKE) --no-print-directory $(SAN_MAKE) check-cli
check-scripts-play:
	@$(MAKE) --no-print-directory $(SAN_MAKE) check-play
check-scripts-mail:
	@$(MAKE) --no-print-directory $(SAN_MAKE) check-mail

check-cli: $(NGOMA)
	sh tests/layers.sh
	sh tests/cli.sh $(NGOMA)
	sh tests/trust.sh $(NGOMA)
	sh tests/schedule.sh $(NGOMA)
	sh tests/contrib.sh $(NGOMA)

# Seasons and press played through the CLI and by mail: ratings checked
# against their own computation, press against every output.
check-play: $(NGOMA)
	sh tests/standing.sh $(NGOMA)
	sh tests/press.sh $(NGOMA)

# Whole games by mail through real SMTP (aiosmtpd) and IMAP (Dovecot) servers on
# loopback; then hostile ones (tests/peers.py) that stream, stall and refuse;
# then ngoma serve as an MTA meets it, killed with -9 while mail comes.
check-mail: $(NGOMA)
	sh tests/mail.sh $(NGOMA)
	sh tests/lobby.sh $(NGOMA)
	sh tests/tls.sh $(NGOMA)
	sh tests/peers.sh $(NGOMA)
	sh tests/serve.sh $(NGOMA)

# The static site and every kind of mail in headless Chromium at a phone's
# width, the games played by tapping the mails' links; screenshots kept in
# build/test-output/site/ and build/test-output/phone/.
check-site: $(NGOMA)
	sh tests/site.sh $(NGOMA)
	sh tests/phone.sh $(NGOMA)
	sh tests/languages.sh $(NGOMA)

# A private Postfix wired as docs/hosting.md says, every sh block of it run
# (gcc build only: it installs ngoma as the guide does): a game by LMTP to
# ngoma serve, then the answers' time by LMTP and by the pipe.
check-postfix: $(NGOMA)
	sh tests/postfix.sh $(NGOMA)

# make fuzz: every fuzz target for FUZZ_SECONDS (default 600) each; make
# check runs them for 2 seconds each, from their seeds.
fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: build-san
	sh tests/fuzz/run.sh build/san $(FUZZ_SECONDS)

# make check's: one target at a time (the other core runs a lane of its own).
check-fuzz: build-san
	FUZZ_JOBS=1 sh tests/fuzz/run.sh build/san $(FUZZ_CHECK_SECONDS)

fuzz-programs: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)
# Their objects are kept, or every later make would link them again.
.SECONDARY: $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o)

$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIB_OBJS) | $(MODS)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# kill -9 during fetch and send, receives and backups beside runs, hostile
# mails beside normal play (gcc build only: time). make check: 60 fetches
# killed in 100 games' mails, 60 games' mails by 8 receives at once, 500
# hostile mails; make soak, the longer run of its own: 200 games' mails,
# 240 games, 1,000 hostile mails.
check-reliability: $(NGOMA) $(BENCH)
	sh tests/reliability.sh $(NGOMA) $(BENCH) 60 60 100
	sh tests/soak.sh $(NGOMA) $(BENCH) 500

soak: deps
	@$(MAKE) --no-print-directory soak-run

soak-run: $(NGOMA) $(BENCH)
	sh tests/reliability.sh $(NGOMA) $(BENCH) 60 240 200
	sh tests/soak.sh $(NGOMA) $(BENCH)

# The benchmarks, small: they still run and check what they measure.
check-bench: $(NGOMA) $(BENCH)
	sh bench/run.sh $(NGOMA) $(BENCH) quick >/dev/null

# intercept_tls_get_addr=0: clang 14's runtime misreads a dynamic TLS block
# of GLib (loaded with ngoma-mime.so) on glibc 2.36 as the range
# 0x1bf..0x4000012c1, and LeakSanitizer's tracer dies scanning it
# ("Tracer caught signal 11", by heap layout). Without the interceptor no
# dynamic TLS is a root: a leak can only be reported more, never hidden.
# quarantine_size_mb=64 (256 by default): freed memory waits behind the
# last 64 MB freed before it is used again, still far longer than any
# stale pointer of ours lives, and a long suite faults in fewer new
# pages (the bots' suite 29 -> 24 s).
SAN_MAKE = BUILD=build/san CC=clang CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_LDFLAGS)" \
	ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0:quarantine_size_mb=64

# make bench: every benchmark of bench/, each against a baseline measured
# in the same run (docs/benchmarks.md holds a run's tables).
bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: $(NGOMA) $(BENCH)
	sh bench/run.sh $(NGOMA) $(BENCH)

# The strength table alone, with games enough (STRENGTH_GAMES, 400 unless
# set) for 95% intervals narrower than 0.1: hours on two cores.
bench-strength: deps
	@$(MAKE) --no-print-directory $(BENCH)
	sh bench/strength.sh $(BENCH) $${STRENGTH_GAMES:-400} $${STRENGTH_MS:-200}

demo: deps
	@$(MAKE) --no-print-directory demo-run

demo-run: $(NGOMA)
	sh contrib/demo.sh $(NGOMA)

# Only lib/paths.c knows where the data is: the installed program is the
# build's objects with that one file compiled again for $(PREFIX).
install: $(MAIN_OBJ) $(LIB_OBJS) $(MODS)
	@mkdir -p build/install
	$(CC) $(filter-out -DNGOMA_DATADIR=% -DNGOMA_LIBDIR=%,$(ALL_CFLAGS)) -DNGOMA_DATADIR='"$(PREFIX)/share/ngoma"' \
		-DNGOMA_LIBDIR='"$(LIBDIR)"' -c -o build/install/paths.o src/lib/paths.c
	$(CC) $(CFLAGS) $(LDFLAGS) -o build/install/ngoma $(MAIN_OBJ) \
		$(filter-out $(BUILD)/src/lib/paths.o,$(LIB_OBJS)) build/install/paths.o $(PKG_LIBS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PREFIX)/share/ngoma $(DESTDIR)$(LIBDIR)
	install -m 755 build/install/ngoma $(DESTDIR)$(BINDIR)/ngoma
	install -m 644 $(DRAW) $(MIME) $(DESTDIR)$(LIBDIR)/
	cp -R templates seeds $(DESTDIR)$(PREFIX)/share/ngoma/
	@$(MAKE) --no-print-directory contrib-files CONTRIB_DIR=$(DESTDIR)$(PREFIX)/share/ngoma/contrib

# The contrib/ files with this installation's paths: the program in
# $(BINDIR), the database $(DB), the user $(NGOMA_USER) (make install writes them to
# $(PREFIX)/share/ngoma/contrib/).
contrib-files:
	@mkdir -p $(CONTRIB_DIR)
	@for f in $(CONTRIB_FILES); do \
		sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DB@|$(DB)|g' -e 's|@HOME@|$(NGOMA_HOME)|g' -e 's|@SPOOL@|$(SPOOL)|g' \
			-e 's|@USER@|$(NGOMA_USER)|g' \
			contrib/$$f >$(CONTRIB_DIR)/$$f; \
	done
	@echo "  contrib files for $(BINDIR)/ngoma and $(DB) in $(CONTRIB_DIR)/"

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
