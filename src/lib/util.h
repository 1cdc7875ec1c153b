/* util.h: allocation that never fails, error reporting and small text helpers. */
#ifndef NGOMA_UTIL_H
#define NGOMA_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sysexits.h>
#include <time.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation never returns NULL: on exhaustion the process dies, so callers
 * never check (the Postfix policy). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A copy of n bytes at p. */
void *xmemdup(const void *p, size_t n);

/* error() prints "ngoma: MESSAGE" on stderr and returns -1, so that a
 * recoverable failure reads `return error(...)`; die() does the same and
 * exits with EX_SOFTWARE. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Silences error() output (for tests that provoke errors on purpose). */
void error_set_quiet(bool quiet);
/* Keeps every later error's message, a line each, in buf (at most size
 * bytes; NULL stops), besides printing it: a run records its failures. */
void error_capture(char *buf, size_t size);
/* How many errors came since error_capture. */
int error_captured(void);
/* The first error's message since error_first_reset ("" when none): what
 * a failure is journalled with. */
void error_first_reset(void);
const char *error_first(void);

bool str_ieq(const char *a, const char *b);
bool str_iprefix(const char *s, const char *prefix);
bool str_eq(const char *a, const char *b);
/* strstr ignoring ASCII case. */
const char *str_casestr(const char *haystack, const char *needle);
/* Parses a whole decimal integer in [min, max]; false on any junk. */
bool parse_int(const char *s, long long min, long long max, long long *out);
/* Lower-cases ASCII letters in place and returns s. */
char *str_lower(char *s);
/* Random bytes from the operating system (for secrets, not for games). */
void os_random(void *buf, size_t n);
/* Takes an exclusive lock on the file path (created when missing), without
 * waiting: the open descriptor that holds it (close it to let go), -1 when
 * another process holds it, -2 on failure (errno says why). */
int lock_file(const char *path);
/* The same, waiting up to secs seconds for another holder to let go (-1
 * when it did not). */
int lock_file_wait(const char *path, double secs);
/* A fresh secret of `len` characters from an alphabet without look-alikes. */
char *secret_new(size_t len);
/* The current time: $NGOMA_NOW when set (what `--now TIME` sets, for
 * tests), else the system clock. */
time_t clock_now(void);
/* Milliseconds of the monotonic clock (the same for every process on the
 * host), for durations: never moved by the date or NGOMA_NOW. */
double monotonic_ms(void);
/* The current time as an ISO 8601 UTC string "YYYY-MM-DDTHH:MM:SSZ". */
void utc_now(char out[32]);
void utc_format(time_t t, char out[32]);
/* The UTC date `days` days from now, "YYYY-MM-DD": examples in help texts. */
void date_ahead(int days, char out[16]);
/* Reads "YYYY-MM-DDTHH:MM[:SS]Z" (or a space for T, or no Z: UTC all the
 * same), "@EPOCH", or a bare number of seconds since the epoch. */
bool utc_parse(const char *s, time_t *out);
/* "90m", "48h", "3d", "1w", "1d12h", "45s": seconds; false on anything else. */
bool duration_parse(const char *s, long *secs);
/* "2d 4h" style, for people. */
void duration_format(long secs, char out[32]);
/* True when tz names a zone of the system's zone database ("UTC",
 * "Europe/Berlin"...). */
bool timezone_valid(const char *tz);
/* t as "2026-12-01 18:00 CET" in zone tz. */
void time_format_tz(time_t t, const char *tz, char out[64]);
/* t in zone tz (an unknown one: UTC) as local time, and the zone's
 * abbreviation ("WAT"). */
void time_in_zone(time_t t, const char *tz, struct tm *tm, char zone[16]);

#endif
