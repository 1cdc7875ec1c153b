/* util.c: allocation that never fails, error reporting and small text helpers. */
#include "lib/util.h"

#include <ctype.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static bool quiet_errors;

static _Noreturn void out_of_memory(size_t n)
{
    fprintf(stderr, "ngoma: out of memory allocating %zu bytes\n", n);
    exit(EX_OSERR);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

void *xmemdup(const void *p, size_t n)
{
    void *q = xmalloc(n ? n : 1);
    memcpy(q, p, n);
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void error_set_quiet(bool quiet)
{
    quiet_errors = quiet;
}

static char *capture_buf;
static size_t capture_size, capture_len;
static int capture_count;

void error_capture(char *buf, size_t size)
{
    capture_buf = buf;
    capture_size = size;
    capture_len = 0;
    capture_count = 0;
    if (buf && size)
        buf[0] = '\0';
}

int error_captured(void)
{
    return capture_count;
}

/* The first error since error_first_reset, kept whatever else captures. */
static char first_error[400];
static bool first_taken;

void error_first_reset(void)
{
    first_error[0] = '\0';
    first_taken = false;
}

const char *error_first(void)
{
    return first_error;
}

static void vreport(const char *fmt, va_list ap)
{
    if (!first_taken) {
        va_list copy;
        va_copy(copy, ap);
        vsnprintf(first_error, sizeof(first_error), fmt, copy);
        va_end(copy);
        first_taken = true;
    }
    if (capture_buf && capture_len + 1 < capture_size) {
        va_list copy;
        int n;
        va_copy(copy, ap);
        n = vsnprintf(capture_buf + capture_len, capture_size - capture_len - 1, fmt, copy);
        va_end(copy);
        if (n > 0) {
            capture_len += (size_t)n < capture_size - capture_len - 1 ? (size_t)n : capture_size - capture_len - 2;
            capture_buf[capture_len++] = '\n';
            capture_buf[capture_len] = '\0';
        }
    }
    if (capture_buf)
        capture_count++;
    if (quiet_errors)
        return;
    fputs("ngoma: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return -1;
}

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    quiet_errors = false;
    vreport(fmt, ap);
    va_end(ap);
    exit(EX_SOFTWARE);
}

bool str_eq(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

bool str_ieq(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

bool str_iprefix(const char *s, const char *prefix)
{
    return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

const char *str_casestr(const char *haystack, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = haystack; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return p;
    return n ? NULL : haystack;
}

bool parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    long long v;

    if (!s || !*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

char *str_lower(char *s)
{
    for (char *p = s; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return s;
}

void os_random(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t got = 0;

    if (fd < 0)
        die("cannot open /dev/urandom: %s", strerror(errno));
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            die("cannot read /dev/urandom");
        }
        got += (size_t)r;
    }
    close(fd);
}

char *secret_new(size_t len)
{
    /* 31 symbols (about 4.95 bits each), without 0/o and 1/l/i so that a
     * secret survives being read aloud or retyped. */
    static const char alphabet[] = "abcdefghjkmnpqrstuvwxyz23456789";
    const unsigned n = sizeof(alphabet) - 1;
    const unsigned limit = 256 - 256 % n; /* rejection keeps it unbiased */
    char *s = xmalloc(len + 1);
    size_t i = 0;

    while (i < len) {
        unsigned char raw[32];
        os_random(raw, sizeof(raw));
        for (size_t k = 0; k < sizeof(raw) && i < len; k++)
            if (raw[k] < limit)
                s[i++] = alphabet[raw[k] % n];
    }
    s[len] = '\0';
    return s;
}

bool utc_parse(const char *s, time_t *out)
{
    struct tm tm;
    long long epoch;
    const char *end;

    if (!s || !*s)
        return false;
    if (*s == '@')
        s++;
    if (parse_int(s, 0, 253402300799LL, &epoch)) {
        *out = (time_t)epoch;
        return true;
    }
    memset(&tm, 0, sizeof(tm));
    end = strptime(s, "%Y-%m-%d", &tm);
    if (!end)
        return false;
    if (*end == 'T' || *end == ' ') {
        const char *e2 = strptime(end + 1, "%H:%M:%S", &tm);
        if (!e2)
            e2 = strptime(end + 1, "%H:%M", &tm);
        if (!e2)
            return false;
        end = e2;
    }
    if (*end == 'Z')
        end++;
    if (*end)
        return false;
    *out = timegm(&tm);
    return *out != (time_t)-1;
}

time_t clock_now(void)
{
    const char *env = getenv("NGOMA_NOW");
    time_t t;
    if (env && *env && utc_parse(env, &t))
        return t;
    return time(NULL);
}

double monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void utc_format(time_t t, char out[32])
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int lock_file(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -2;
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        int e = errno;
        close(fd);
        errno = e;
        return e == EWOULDBLOCK ? -1 : -2;
    }
    return fd;
}

int lock_file_wait(const char *path, double secs)
{
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    for (double waited = 0;; waited += 0.01) {
        int fd = lock_file(path);
        if (fd != -1 || waited >= secs)
            return fd;
        nanosleep(&pause, NULL);
    }
}

void date_ahead(int days, char out[16])
{
    time_t t = clock_now() + (time_t)days * 86400;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 16, "%Y-%m-%d", &tm);
}

void utc_now(char out[32])
{
    utc_format(clock_now(), out);
}

bool duration_parse(const char *s, long *secs)
{
    long total = 0;
    bool any = false;
    if (!s || !*s)
        return false;
    while (*s) {
        long n = 0;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s)) {
            n = n * 10 + (*s++ - '0');
            if (n > 100000000)
                return false;
        }
        switch (tolower((unsigned char)*s)) {
        case 's': break;
        case 'm': n *= 60; break;
        case 'h': n *= 3600; break;
        case 'd': n *= 86400; break;
        case 'w': n *= 7 * 86400; break;
        default: return false;
        }
        s++;
        total += n;
        any = true;
        if (total > 366L * 86400)
            return false;
    }
    *secs = total;
    return any;
}

void duration_format(long secs, char out[32])
{
    long d = secs / 86400, h = secs % 86400 / 3600, m = secs % 3600 / 60;
    if (d && h)
        snprintf(out, 32, "%ldd %ldh", d, h);
    else if (d)
        snprintf(out, 32, "%ldd", d);
    else if (h && m)
        snprintf(out, 32, "%ldh %ldm", h, m);
    else if (h)
        snprintf(out, 32, "%ldh", h);
    else
        snprintf(out, 32, "%ldm", m);
}

bool timezone_valid(const char *tz)
{
    struct stat st;
    char path[256];
    if (!tz || !*tz || strlen(tz) > 64 || strstr(tz, "..") || tz[0] == '/')
        return false;
    for (const char *p = tz; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("/_+-", *p))
            return false;
    if (str_eq(tz, "UTC"))
        return true;
    snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", tz);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

void time_in_zone(time_t t, const char *tz, struct tm *tm, char zone[16])
{
    char *old = getenv("TZ") ? xstrdup(getenv("TZ")) : NULL;
    setenv("TZ", timezone_valid(tz) ? tz : "UTC", 1);
    tzset();
    localtime_r(&t, tm);
    strftime(zone, 16, "%Z", tm);
    if (old) {
        setenv("TZ", old, 1);
        free(old);
    } else {
        unsetenv("TZ");
    }
    tzset();
}

void time_format_tz(time_t t, const char *tz, char out[64])
{
    struct tm tm;
    char zone[16];
    time_in_zone(t, tz, &tm, zone);
    strftime(out, 48, "%Y-%m-%d %H:%M ", &tm);
    snprintf(out + strlen(out), 16, "%s", zone);
}
