/* imapc.c: the few IMAP commands ngoma needs, spoken over a connection libcurl opens, logs in and secures. */
#include "mail/imapc.h"
#include "lib/util.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IO_TIMEOUT_MS 60000
#define MAX_LITERAL (1ll << 32)

/* The session's end passed: said once, in err. */
static bool past_deadline(struct imapc *im, struct strbuf *err)
{
    if (!im->deadline || time(NULL) < im->deadline)
        return false;
    strbuf_addf(err, "IMAP: the session passed its %ld seconds (imap_session_secs) and is cut; what was taken"
                     " stays, the rest comes at the next fetch",
                im->lim.session_secs);
    return true;
}

/* Waits until the socket can be read (or written), at most a minute and
 * never past the session's end. */
static int wait_socket(struct imapc *im, bool for_read, struct strbuf *err)
{
    curl_socket_t sock;
    struct pollfd p;
    int rc, ms = IO_TIMEOUT_MS;
    if (past_deadline(im, err))
        return -1;
    if (im->deadline && (im->deadline - time(NULL)) * 1000 < ms)
        ms = (int)(im->deadline - time(NULL)) * 1000 + 1;
    if (im->cu->easy_getinfo(im->curl, CURLINFO_ACTIVESOCKET, &sock) != CURLE_OK || sock == CURL_SOCKET_BAD)
        return -1;
    p.fd = sock;
    p.events = for_read ? POLLIN : POLLOUT;
    p.revents = 0;
    while ((rc = poll(&p, 1, ms)) < 0 && errno == EINTR)
        ;
    if (rc <= 0 && !past_deadline(im, err))
        strbuf_addstr(err, for_read ? "IMAP: no answer from the server" : "IMAP: the server stopped reading");
    return rc > 0 ? 0 : -1;
}

static int send_all(struct imapc *im, const char *data, size_t len, struct strbuf *err)
{
    size_t done = 0;
    while (done < len) {
        size_t n = 0;
        CURLcode rc = im->cu->easy_send(im->curl, data + done, len - done, &n);
        if (rc == CURLE_AGAIN) {
            if (wait_socket(im, false, err))
                return -1;
            continue;
        }
        if (rc != CURLE_OK) {
            strbuf_addf(err, "IMAP: send: %s", im->cu->easy_strerror(rc));
            return -1;
        }
        done += n;
    }
    return 0;
}

/* Receives more bytes into im->in. */
static int fill(struct imapc *im, struct strbuf *err)
{
    char buf[16384];
    for (;;) {
        size_t n = 0;
        CURLcode rc;
        /* A server that sends a line a second is cut all the same. */
        if (past_deadline(im, err))
            return -1;
        rc = im->cu->easy_recv(im->curl, buf, sizeof(buf), &n);
        if (rc == CURLE_AGAIN) {
            if (wait_socket(im, true, err))
                return -1;
            continue;
        }
        if (rc != CURLE_OK || n == 0) {
            strbuf_addf(err, "IMAP: the connection closed%s%s", rc != CURLE_OK ? ": " : "",
                        rc != CURLE_OK ? im->cu->easy_strerror(rc) : "");
            return -1;
        }
        /* Drop what was read already before growing. */
        if (im->pos > 0) {
            memmove(im->in.buf, im->in.buf + im->pos, im->in.len - im->pos);
            strbuf_setlen(&im->in, im->in.len - im->pos);
            im->pos = 0;
        }
        strbuf_add(&im->in, buf, n);
        return 0;
    }
}

/* Reads one line without its CRLF into line. */
static int read_line(struct imapc *im, struct strbuf *line, struct strbuf *err)
{
    for (;;) {
        const char *start = im->in.buf + im->pos;
        const char *nl = memchr(start, '\n', im->in.len - im->pos);
        if (nl) {
            size_t len = (size_t)(nl - start);
            strbuf_reset(line);
            strbuf_add(line, start, len && start[len - 1] == '\r' ? len - 1 : len);
            im->pos += len + 1;
            return 0;
        }
        if (im->in.len - im->pos > im->lim.response_bytes) {
            strbuf_addf(err, "IMAP: a line of the server's answer passed %zu bytes (imap_response_bytes): the session"
                             " is cut",
                        im->lim.response_bytes);
            return -1;
        }
        if (fill(im, err))
            return -1;
    }
}

/* Reads n bytes of a literal, keeping at most keep of them in out (may be
 * NULL): the rest is read and dropped, never held. */
static int read_bytes(struct imapc *im, size_t n, struct strbuf *out, size_t keep, struct strbuf *err)
{
    while (n) {
        size_t have = im->in.len - im->pos, take;
        if (!have) {
            if (fill(im, err))
                return -1;
            continue;
        }
        take = have < n ? have : n;
        if (out && out->len < keep)
            strbuf_add(out, im->in.buf + im->pos, take < keep - out->len ? take : keep - out->len);
        im->pos += take;
        n -= take;
    }
    return 0;
}

/* The literal size when the line ends with {N}, else -1. */
static long long literal_size(const struct strbuf *line)
{
    const char *close, *open;
    long long n;
    if (line->len < 3 || line->buf[line->len - 1] != '}')
        return -1;
    close = line->buf + line->len - 1;
    open = close;
    while (open > line->buf && open[-1] != '{')
        open--;
    if (open == line->buf)
        return -1;
    char *digits = xstrndup(open, (size_t)(close - open));
    bool ok = parse_int(digits, 0, MAX_LITERAL, &n);
    free(digits);
    return ok ? n : -1;
}

int imapc_command(struct imapc *im, const char *cmd, struct strbuf *lines, struct strbuf *literal,
                  struct strbuf *err)
{
    struct strbuf out = STRBUF_INIT, line = STRBUF_INIT;
    char tag[16];
    bool got_literal = false;
    size_t got = 0; /* bytes of the answer besides the literal kept */
    int rc = -1;

    if (im->broken) {
        strbuf_addstr(err, "IMAP: the connection was cut");
        return -1;
    }
    snprintf(tag, sizeof(tag), "N%d", ++im->tag);
    strbuf_addf(&out, "%s %s\r\n", tag, cmd);
    if (send_all(im, out.buf, out.len, err))
        goto done;
    for (;;) {
        long long lit;
        if (read_line(im, &line, err))
            goto done;
        /* A line may carry literals; the line goes on after each. */
        while ((lit = literal_size(&line)) >= 0) {
            bool kept = literal && !got_literal;
            got += line.len + 2 + (kept ? 0 : (size_t)lit);
            if (got > im->lim.response_bytes)
                goto too_long;
            if (lines) {
                strbuf_add(lines, line.buf, line.len);
                strbuf_addch(lines, ' ');
            }
            if (read_bytes(im, (size_t)lit, kept ? literal : NULL, im->lim.literal_keep, err))
                goto done;
            if (kept)
                im->literal_total = (size_t)lit;
            got_literal = true;
            if (read_line(im, &line, err))
                goto done;
        }
        got += line.len + 2;
        if (got > im->lim.response_bytes)
            goto too_long;
        if (strncmp(line.buf, tag, strlen(tag)) == 0 && line.buf[strlen(tag)] == ' ') {
            const char *status = line.buf + strlen(tag) + 1;
            if (strncmp(status, "OK", 2) == 0) {
                rc = 0;
            } else {
                strbuf_addf(err, "IMAP %s: %s", cmd, status);
            }
            goto done;
        }
        if (lines) {
            strbuf_add(lines, line.buf, line.len);
            strbuf_addch(lines, '\n');
        }
    }
    /* The loop ends at the tagged line (done), or here: */
too_long:
    strbuf_addf(err, "IMAP: the server's answer to %.40s passed %zu bytes (imap_response_bytes) and the session is cut",
                cmd, im->lim.response_bytes);
done:
    /* After a failure the connection is in no known state: nothing more is
     * said on it, not even LOGOUT. */
    im->broken |= rc != 0;
    strbuf_release(&out);
    strbuf_release(&line);
    return rc;
}

/* Splits imap[s]://host[:port]/MAILBOX into the server URL and the mailbox. */
static int split_url(const char *url, char **server, char **mailbox)
{
    const char *p = strstr(url, "://"), *slash;
    struct strbuf box = STRBUF_INIT;
    if (!p)
        return -1;
    slash = strchr(p + 3, '/');
    *server = slash ? xstrndup(url, (size_t)(slash - url) + 1) : xstrdup(url);
    if (!slash || !slash[1]) {
        *mailbox = xstrdup("INBOX");
        return 0;
    }
    for (const char *s = slash + 1; *s && *s != ';' && *s != '?'; s++) {
        if (*s == '%' && s[1] && s[2]) {
            char hex[3] = { s[1], s[2], 0 };
            strbuf_addch(&box, (char)strtol(hex, NULL, 16));
            s += 2;
        } else {
            strbuf_addch(&box, *s);
        }
    }
    *mailbox = strbuf_detach(&box);
    return 0;
}

static void quote(struct strbuf *sb, const char *s)
{
    strbuf_addch(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            strbuf_addch(sb, '\\');
        if ((unsigned char)*s >= 0x20)
            strbuf_addch(sb, *s);
    }
    strbuf_addch(sb, '"');
}

int imapc_open(struct imapc *im, const char *url, const char *user, const char *password, struct tls_conf *tls,
               const struct imapc_limits *lim, struct strbuf *err)
{
    char *server = NULL, *connect_url = tls_url(tls, url);
    struct strbuf cmd = STRBUF_INIT;
    CURLcode res;
    int rc = -1;

    memset(im, 0, sizeof(*im));
    strbuf_init(&im->in);
    im->lim = *lim;
    im->deadline = time(NULL) + lim->session_secs;
    if (split_url(connect_url, &server, &im->mailbox)) {
        strbuf_addf(err, "\"%s\" is not an IMAP URL", url);
        return -1;
    }
    if (!(im->cu = curl_api(err)))
        goto out;
    im->curl = im->cu->easy_init();
    if (!im->curl) {
        strbuf_addstr(err, "cannot start libcurl");
        goto out;
    }
    im->cu->easy_setopt(im->curl, CURLOPT_URL, server);
    im->cu->easy_setopt(im->curl, CURLOPT_USERNAME, user);
    im->cu->easy_setopt(im->curl, CURLOPT_PASSWORD, password);
    im->cu->easy_setopt(im->curl, CURLOPT_CONNECT_ONLY, 1L);
    im->cu->easy_setopt(im->curl, CURLOPT_CONNECTTIMEOUT, 20L);
    /* libcurl's own part (greeting, TLS, login) within the session's time. */
    im->cu->easy_setopt(im->curl, CURLOPT_TIMEOUT, lim->session_secs);
    im->cu->easy_setopt(im->curl, CURLOPT_NOSIGNAL, 1L);
    tls_apply(im->cu, im->curl, tls);
    res = im->cu->easy_perform(im->curl);
    if (res != CURLE_OK) {
        strbuf_addf(err, "IMAP %s: ", server);
        tls_explain(tls, im->cu, res, err);
        goto out;
    }
    strbuf_addstr(&cmd, "SELECT ");
    quote(&cmd, im->mailbox);
    rc = imapc_command(im, cmd.buf, NULL, NULL, err);
out:
    free(server);
    free(connect_url);
    strbuf_release(&cmd);
    return rc;
}

int imapc_unseen(struct imapc *im, uint32_t **uids, size_t *n, struct strbuf *err)
{
    struct strbuf lines = STRBUF_INIT;
    size_t alloc = 0;
    *uids = NULL;
    *n = 0;
    if (imapc_command(im, "UID SEARCH UNSEEN", &lines, NULL, err)) {
        strbuf_release(&lines);
        return -1;
    }
    for (char *line = strtok(lines.buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "* SEARCH", 8) != 0)
            continue;
        for (char *tok = strtok(line + 8, " "); tok; tok = strtok(NULL, " ")) {
            long long v;
            if (!parse_int(tok, 1, UINT32_MAX, &v))
                continue;
            if (*n == alloc) {
                alloc = alloc ? alloc * 2 : 64;
                *uids = xrealloc(*uids, alloc * sizeof(**uids));
            }
            (*uids)[(*n)++] = (uint32_t)v;
        }
        break; /* strtok state now belongs to the inner loop */
    }
    strbuf_release(&lines);
    return 0;
}

int imapc_fetch(struct imapc *im, uint32_t uid, struct strbuf *message, size_t *total, struct strbuf *err)
{
    char cmd[64];
    int rc;
    snprintf(cmd, sizeof(cmd), "UID FETCH %u BODY.PEEK[]", uid);
    im->literal_total = 0;
    rc = imapc_command(im, cmd, NULL, message, err);
    *total = im->literal_total > message->len ? im->literal_total : message->len;
    return rc;
}

int imapc_mark_seen(struct imapc *im, uint32_t uid, struct strbuf *err)
{
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "UID STORE %u +FLAGS.SILENT (\\Seen)", uid);
    return imapc_command(im, cmd, NULL, NULL, err);
}

void imapc_close(struct imapc *im)
{
    if (im->curl) {
        struct strbuf err = STRBUF_INIT;
        if (!im->broken)
            imapc_command(im, "LOGOUT", NULL, NULL, &err);
        strbuf_release(&err);
        im->cu->easy_cleanup(im->curl);
    }
    strbuf_release(&im->in);
    free(im->mailbox);
    memset(im, 0, sizeof(*im));
}
