/* hostile_mail.c: the worst mails one can build at a size (HTML nesting, entities, quoting, MIME nesting, header folding...), and a child's time and peak memory, for bench/hostile.sh. */
#include "bench.h"

#include "lib/strbuf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Appends unit until sb holds about `size` bytes more. */
static void fill(struct strbuf *sb, const char *unit, size_t size)
{
    size_t n = strlen(unit), end = sb->len + size;
    while (sb->len + n <= end)
        strbuf_addstr(sb, unit);
}

struct shape {
    const char *name;
    const char *headers; /* after From, To, Subject, Message-ID, Date */
    const char *unit;    /* the body, repeated to the size */
    const char *tail;    /* after the body */
    bool in_headers;     /* the unit fills a header instead of the body */
};

/* Each is what the parser, the HTML reader, the quote and signature cutter
 * or the order reader would do most work per byte on. */
static const struct shape shapes[] = {
    { "plain", "Content-Type: text/plain\n", "> an old line of a long quoted mail, as a reply carries it\n", "", false },
    { "html-blockquote", "Content-Type: text/html\n", "<blockquote>x<br>", "", false },
    { "html-quote-div", "Content-Type: text/html\n", "<div class=\"gmail_quote\">x<br>", "", false },
    { "html-ampersands", "Content-Type: text/html\n", "&", ";", false },
    { "html-entities", "Content-Type: text/html\n", "&#99999999;&nbsp;", "", false },
    { "html-open-tags", "Content-Type: text/html\n", "<", ">", false },
    { "html-comments", "Content-Type: text/html\n", "<!--", "", false },
    { "html-styles", "Content-Type: text/html\n", "<style>", "", false },
    { "html-tags", "Content-Type: text/html\n", "<p>", "", false },
    { "quote-markers", "Content-Type: text/plain\n", ">\n", "", false },
    { "attributions", "Content-Type: text/plain\n", "On Tue someone wrote:\n", "", false },
    { "one-long-line", "Content-Type: text/plain\n", "a", "\n", false },
    { "flowed", "Content-Type: text/plain; format=flowed; delsp=yes\n", "a \n", "", false },
    { "quoted-printable", "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n", "=\n", "", false },
    { "base64", "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n", "SEVMUAo=\n", "", false },
    { "carriage-returns", "Content-Type: text/plain\n", "\r", "", false },
    { "order-lines", "Content-Type: text/plain\n", "HELP\n", "", false },
    { "mime-flat", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=zz\n",
      "--zz\nContent-Type: text/plain\n\nx\n", "--zz--\n", false },
    { "mime-nested", "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b0\n", NULL, "", false },
    { "header-fold", "X-Long: a\n", " b\n", "", true },
    { "many-headers", "", "X-H: v\n", "", true },
    { "references", "References: ", "<a@b.example> ", "\n", true },
    { "recipients", "Cc: ", "a@b.example, ", "\n", true },
};

static void write_one(const char *dir, const struct shape *sh, const char *who, const char *label, size_t size,
                      const char *to, int n)
{
    struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
    FILE *f;
    strbuf_addf(&sb,
                "From: %s\nTo: %s\nSubject: Re: [ngoma] hostile\nMessage-ID: <hostile-%s-%s-%d@example.org>\n"
                "Date: Tue, 01 Dec 2026 10:00:00 +0000\n",
                who, to, sh->name, who, n);
    if (sh->in_headers) {
        strbuf_addstr(&sb, sh->headers);
        fill(&sb, sh->unit, size > sb.len + 200 ? size - sb.len - 200 : 0);
        strbuf_addstr(&sb, sh->tail);
        strbuf_addstr(&sb, "\nMOVE a1\n");
    } else if (!sh->unit) {
        /* Multiparts inside multiparts, each with its own boundary. */
        strbuf_addstr(&sb, sh->headers);
        strbuf_addstr(&sb, "\n");
        for (int depth = 0; sb.len + 120 < size; depth++)
            strbuf_addf(&sb, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n", depth, depth + 1);
        strbuf_addstr(&sb, "Content-Type: text/plain\n\nMOVE a1\n");
    } else {
        strbuf_addstr(&sb, sh->headers);
        strbuf_addstr(&sb, "\nMOVE a1\n");
        fill(&sb, sh->unit, size > sb.len + 16 ? size - sb.len - 16 : 0);
        strbuf_addstr(&sb, sh->tail);
    }
    if (n)
        strbuf_addf(&path, "%s/%s-%s-%zu-%d.eml", dir, sh->name, label, size, n);
    else
        strbuf_addf(&path, "%s/%s-%s.eml", dir, sh->name, label);
    f = fopen(path.buf, "w");
    if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f))
        die("cannot write %s: %s", path.buf, strerror(errno));
    strbuf_release(&sb);
    strbuf_release(&path);
}

int bench_hostile_write(const char *dir, size_t size, const char *seat_address, int copies)
{
    for (int n = copies > 1 ? 1 : 0; n <= (copies > 1 ? copies : 0); n++)
        for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
            write_one(dir, &shapes[i], "stranger@evil.example", "stranger", size, "ngoma@localhost", n);
            write_one(dir, &shapes[i], "ann@example.org", "seat", size, seat_address, n);
        }
    return 0;
}

int bench_rusage(int argc, char **argv)
{
    struct timespec t0, t1;
    struct rusage ru;
    int status;
    pid_t pid;
    if (argc < 1)
        return 64;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) < 0)
        die("wait4: %s", strerror(errno));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.6f %ld %d\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
