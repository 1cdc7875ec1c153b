/* settings.c: the host's settings (addresses, servers, limits), kept in the database and checked on the way in. */
#include "store/settings.h"
#include "store/db.h"
#include "lib/address.h"
#include "lib/catalog.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int check_address(const char *v, struct strbuf *err)
{
    if (address_check(v, "from", err))
        return -1;
    if (strchr(v, '+') || strlen(v) > 200) {
        strbuf_addf(err, "from \"%s\" must be a plain address like ngoma@example.org (no + in it: ngoma adds its own)",
                    v);
        return -1;
    }
    return 0;
}

static int check_admin(const char *v, struct strbuf *err)
{
    return *v ? address_check(v, "admin", err) : 0;
}

static int check_size(const char *v, struct strbuf *err)
{
    long long n;
    if (!parse_int(v, 4096, 1LL << 30, &n)) {
        strbuf_addstr(err, "max_message_size is a number of bytes from 4096 to 1073741824");
        return -1;
    }
    return 0;
}

static int check_bot_steps(const char *v, struct strbuf *err)
{
    long long n;
    if (!parse_int(v, 1, 100000, &n)) {
        strbuf_addstr(err, "bot_steps is a number of steps from 1 to 100000");
        return -1;
    }
    return 0;
}

/* A number of something from lo to hi, for the limits. */
#define NUMBER_SETTING(fn, what, lo, hi)                                                                           \
    static int fn(const char *v, struct strbuf *err)                                                              \
    {                                                                                                              \
        long long n;                                                                                               \
        if (parse_int(v, lo, hi, &n))                                                                              \
            return 0;                                                                                              \
        strbuf_addf(err, "%s is a number from %lld to %lld", what, (long long)(lo), (long long)(hi));             \
        return -1;                                                                                                 \
    }
NUMBER_SETTING(check_order_lines, "max_order_lines", 1, 1000)
NUMBER_SETTING(check_plan_max, "plan_max", 0, 64)
NUMBER_SETTING(check_plan_depth, "plan_depth", 1, 32)
NUMBER_SETTING(check_reply_bytes, "max_reply_bytes", 4096, 16777216)
NUMBER_SETTING(check_subject_bytes, "max_subject_bytes", 16, 4096)
NUMBER_SETTING(check_header_bytes, "max_header_bytes", 1024, 1048576)
NUMBER_SETTING(check_ignored_raw, "ignored_raw_kept", 0, 100000)
NUMBER_SETTING(check_per_hour, "a limit per hour", 1, 10000)
NUMBER_SETTING(check_strong_bots, "a number of strong bots", 0, 10000)
NUMBER_SETTING(check_drop_after, "a number of deadlines (0: never)", 0, 100)
NUMBER_SETTING(check_response_bytes, "a server's answer, in bytes,", 1024, 1LL << 30)
NUMBER_SETTING(check_session_secs, "a session, in seconds,", 5, 86400)
NUMBER_SETTING(check_connections, "lmtp_connections", 1, 1000)
NUMBER_SETTING(check_per_peer, "lmtp_connections_per_peer", 0, 1000)
NUMBER_SETTING(check_idle_secs, "a wait, in seconds,", 1, 3600)
NUMBER_SETTING(check_press_bytes, "press_max_bytes", 256, 65536)
NUMBER_SETTING(check_bot_ms, "bot_ms (milliseconds a strong bot's move may take)", 10, 60000)
NUMBER_SETTING(check_bot_share, "bot_share (percent of one core for all strong bots)", 1, 100)

static int check_bot_level(const char *v, struct strbuf *err)
{
    if (str_eq(v, "easy") || str_eq(v, "strong"))
        return 0;
    strbuf_addf(err, "bot_level is easy (a one-step look-ahead, at once) or strong (a tree search of bot_ms a move),"
                     " not \"%s\"", v);
    return -1;
}

static int check_press_after(const char *v, struct strbuf *err)
{
    if (str_eq(v, "private") || str_eq(v, "public"))
        return 0;
    strbuf_addf(err, "press_after is private (press stays its writers' and readers') or public (the site and the"
                     " export publish a finished game's press), not \"%s\"", v);
    return -1;
}

static int check_duration(const char *v, struct strbuf *err)
{
    long secs;
    if (duration_parse(v, &secs) && secs >= 3600)
        return 0;
    strbuf_addf(err, "\"%s\" is not a time like 90d, 4w or 720h (at least an hour)", v);
    return -1;
}

static int check_yes_no(const char *v, struct strbuf *err)
{
    if (str_eq(v, "yes") || str_eq(v, "no"))
        return 0;
    strbuf_addf(err, "\"%s\" is not yes or no", v);
    return -1;
}

static int check_language(const char *v, struct strbuf *err)
{
    const struct lang *l = lang_find(v);
    if (l && str_eq(l->code, v))
        return 0;
    strbuf_addf(err, "\"%s\" is not a language ngoma speaks; write one of ", v);
    lang_codes(err);
    return -1;
}

static int check_lobby(const char *v, struct strbuf *err)
{
    if (str_eq(v, "off") || str_eq(v, "invite") || str_eq(v, "open"))
        return 0;
    strbuf_addstr(err, "lobby is off (no lobby), invite (only the lobby_creators may open games) or open");
    return -1;
}

/* Addresses (ann@example.org) or whole domains (@example.org), by commas. */
static int check_creators(const char *v, struct strbuf *err)
{
    char *copy = xstrdup(v), *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ", ", &save); t && !rc; t = strtok_r(NULL, ", ", &save))
        if (*t == '@' ? !t[1] || strchr(t + 1, '@') : address_check(t, "lobby_creators", err) != 0) {
            if (!err->len)
                strbuf_addf(err, "lobby_creators lists addresses or @domains by commas, not \"%s\"", t);
            rc = -1;
        }
    free(copy);
    return rc;
}

static int check_method(const char *v, struct strbuf *err)
{
    if (str_eq(v, "dir") || str_eq(v, "smtp") || str_eq(v, "sendmail"))
        return 0;
    strbuf_addstr(err, "send_method is dir, smtp or sendmail");
    return -1;
}

static int check_tls(const char *v, struct strbuf *err)
{
    if (str_eq(v, "none") || str_eq(v, "starttls") || str_eq(v, "required") || str_eq(v, "implicit") ||
        str_eq(v, "try"))
        return 0;
    strbuf_addstr(err, "smtp_tls and imap_tls are none, starttls (when the server offers it), required (STARTTLS "
                       "or fail) or implicit (TLS from the start: smtps, imaps)");
    return -1;
}


static int check_url(const char *v, const char *const *schemes, struct strbuf *err)
{
    if (!*v)
        return 0;
    for (; *schemes; schemes++)
        if (str_iprefix(v, *schemes) && v[strlen(*schemes)])
            return 0;
    strbuf_addf(err, "\"%s\" is not a URL of the right kind", v);
    return -1;
}

static int check_smtp_url(const char *v, struct strbuf *err)
{
    static const char *const s[] = { "smtp://", "smtps://", NULL };
    return check_url(v, s, err);
}

static int check_imap_url(const char *v, struct strbuf *err)
{
    static const char *const s[] = { "imap://", "imaps://", NULL };
    return check_url(v, s, err);
}

static int check_path(const char *v, struct strbuf *err)
{
    if (*v && *v != '/') {
        strbuf_addf(err, "\"%s\" must be an absolute path (or empty)", v);
        return -1;
    }
    return 0;
}

static int check_file(const char *v, struct strbuf *err)
{
    struct stat st;
    if (check_path(v, err))
        return -1;
    if (*v && (stat(v, &st) || !S_ISREG(st.st_mode))) {
        strbuf_addf(err, "\"%s\" is not a file", v);
        return -1;
    }
    return 0;
}

static int check_dir(const char *v, struct strbuf *err)
{
    struct stat st;
    if (check_path(v, err))
        return -1;
    if (*v && (stat(v, &st) || !S_ISDIR(st.st_mode))) {
        strbuf_addf(err, "\"%s\" is not a directory", v);
        return -1;
    }
    return 0;
}

static int check_ack(const char *v, struct strbuf *err)
{
    if (str_eq(v, "kept") || str_eq(v, "taken"))
        return 0;
    strbuf_addf(err, "lmtp_ack is kept or taken, not \"%s\"", v);
    return -1;
}

static int check_text(const char *v, struct strbuf *err)
{
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20) {
            strbuf_addstr(err, "the value may not hold control characters or line breaks");
            return -1;
        }
    return 0;
}

const struct setting_def setting_defs[] = {
    { "from", "ngoma@localhost", "the address ngoma mails from; replies come to its +tagged forms", false,
      check_address },
    { "from_name", "ngoma", "the name shown with that address", false, check_text },
    { "admin", "", "the host's own address: one alert a day when mail fails or runs meet errors (empty: none)", false,
      check_admin },
    { "max_message_size", "2097152", "incoming mails larger than this many bytes are refused with a reply", false,
      check_size },
    { "send_method", "dir", "how `ngoma send` delivers: dir (.eml files), smtp, or sendmail", false, check_method },
    { "send_on_receive", "yes", "receive and fetch send their answers at once, after the commit (yes or no)", false,
      check_yes_no },
    { "outbox_dir", "", "where the dir method writes (default: outbox/ beside the database)", false, check_path },
    { "smtp_url", "smtp://localhost:25", "smtp://host:port (STARTTLS per smtp_tls) or smtps://host:port", false,
      check_smtp_url },
    { "smtp_user", "", "SMTP AUTH user name (empty: no AUTH)", false, check_text },
    { "smtp_password", "", "SMTP AUTH password", true, check_text },
    { "smtp_tls", "starttls", "none, starttls (when offered), required (STARTTLS or fail), implicit (smtps)", false,
      check_tls },
    { "sendmail", "/usr/sbin/sendmail", "the sendmail program for the sendmail method (run without a shell)", false,
      check_path },
    { "maildir", "", "a Maildir `ngoma fetch` reads new mail from", false, check_dir },
    { "imap_url", "", "an IMAP mailbox `ngoma fetch` reads unseen mail from: imap://host:port/INBOX or imaps://",
      false, check_imap_url },
    { "imap_user", "", "IMAP user name", false, check_text },
    { "imap_password", "", "IMAP password", true, check_text },
    { "imap_tls", "starttls", "none, starttls (when offered), required (STARTTLS or fail), implicit (imaps)", false,
      check_tls },
    { "imap_response_bytes", "1048576",
      "bytes one IMAP answer may carry besides the mail it brings; a server sending more is cut off", false,
      check_response_bytes },
    { "imap_session_secs", "300", "seconds one fetch may talk to the IMAP server; the rest waits for the next",
      false, check_session_secs },
    { "smtp_session_secs", "300", "seconds one send may talk to the SMTP server; the rest waits for the next",
      false, check_session_secs },
    { "lmtp_connections", "32", "LMTP connections ngoma serve takes at once; when full, the one idle longest between"
                                " mails makes room, and if none may, one more is told to come back (421)",
      false, check_connections },
    { "lmtp_connections_per_peer", "16", "LMTP connections one peer (a uid on a unix socket, an address on TCP) may"
                                         " hold at once with ngoma serve; 0: no limit",
      false, check_per_peer },
    { "lmtp_ack", "kept", "when ngoma serve says 250: kept (the mail is in the inbox, read at once after) or taken (read"
                          " and committed; a mail it cannot take then gets 451, and the MTA keeps it)", false,
      check_ack },
    { "lmtp_idle_secs", "300", "seconds ngoma serve waits for an LMTP client to say something before it hangs up",
      false, check_idle_secs },
    { "lmtp_session_secs", "3600", "seconds one LMTP connection to ngoma serve may last", false,
      check_session_secs },
    { "tls_verify", "yes", "check the servers' certificates (no: for a self-signed server on this machine only)",
      false, check_yes_no },
    { "tls_ca_file", "", "a file of CA certificates to trust (for a self-signed server, its own certificate)",
      false, check_file },
    { "templates_dir", "", "a directory of templates to use instead of the installed ones", false, check_dir },
    { "max_order_lines", "40", "order lines taken from one mail; a mail with more is answered with this limit", false,
      check_order_lines },
    { "max_reply_bytes", "262144", "bytes of the answer to one mail; a longer one is replaced by a short note", false,
      check_reply_bytes },
    { "max_subject_bytes", "200", "bytes of an incoming subject kept in the journal", false, check_subject_bytes },
    { "max_header_bytes", "32768", "bytes of an incoming header block read and kept; the rest is not read", false,
      check_header_bytes },
    { "ignored_raw_kept", "0", "whole copies kept of the newest ignored mails (their headers are always kept)", false,
      check_ignored_raw },
    { "refusals_per_hour", "4", "refusal mails at most per seat and per sender an hour (and one per seat a step)",
      false, check_per_hour },
    { "help_per_hour", "12", "answers to mails that only ask (HELP, LEGAL...) per seat an hour", false,
      check_per_hour },
    { "retention", "90d", "ngoma run prunes sent mail, raw copies and journal rows older than this", false,
      check_duration },
    { "plan_max", "16", "plans (IF ... THEN ... lines, each a path of her tree) a seat may keep at most; 0: no plans",
      false, check_plan_max },
    { "plan_depth", "8", "answers one plan may go deep at most (IF ... THEN ... IF ... THEN ... is two)", false,
      check_plan_depth },
    { "bot_steps", "64", "bot steps one command plays in a game at most; `ngoma run` plays on from there", false,
      check_bot_steps },
    { "bot_level", "strong", "the level of a bot named plain \"bot\" (--player NAME=bot, KICK, NMR, START): easy or strong",
      false, check_bot_level },
    { "bot_ms", "200", "milliseconds of CPU time a strong bot searches a move (10 to 60000)", false, check_bot_ms },
    { "bot_share", "50", "the share of one core (percent, 1 to 100) all strong bots of this ngoma search at most: a pass"
                         " of the clock, a command or a mail plays them that many hundredths of a second, round robin"
                         " from the game that waits longest, and the next pass comes a second later",
      false, check_bot_share },
    { "site_dir", "", "ngoma run refreshes the static site of the public record here (empty: no site)", false,
      check_path },
    { "language", "en", "the language of a player who chose none (LANGUAGE fr by mail chooses hers): en, fr, pt"
                        " or sw", false, check_language },
    { "images", "yes", "every mail with a board also shows it as a picture in its HTML part (yes or no)", false,
      check_yes_no },
    { "lobby", "off", "the bare address answers the lobby's commands: off, invite (only lobby_creators open games)"
                      " or open", false, check_lobby },
    { "lobby_creators", "", "with lobby=invite, who may open games: addresses or @domains, by commas", false,
      check_creators },
    { "lobby_per_hour", "10", "lobby answers to one confirmed address an hour (then one note, then silence)", false,
      check_per_hour },
    { "lobby_strong_bots", "6",
      "strong bots one address's lobby games may seat: at most this many in her unfinished games, and as many"
      " started an hour (bot_share bounds them all)", false, check_strong_bots },
    { "drop_after", "3",
      "deadlines in a row a bot may play for a player (--nmr bot) before her seat passes to the bot for good and is"
      " offered in the lobby to a new player (0: never; a game with takeover=no keeps her)", false,
      check_drop_after },
    { "invites_per_hour", "5",
      "mails to others one address's lobby mails may cause an hour: INVITEs, REMATCH's invitations, notices", false,
      check_per_hour },
    { "ratings", "yes", "finished games count for the players' ratings (yes or no; a game's option rated=no"
                        " leaves it out)", false, check_yes_no },
    { "press_max_bytes", "4000", "bytes of one press message; a longer one is refused with this limit", false,
      check_press_bytes },
    { "press_per_hour", "30", "press messages one seat may send an hour", false, check_per_hour },
    { "press_after", "private", "a finished game's press: private (never published) or public (on the site and in"
                                " the export)", false, check_press_after },
    { NULL, NULL, NULL, false, NULL },
};

const struct setting_def *setting_find(const char *key)
{
    for (const struct setting_def *d = setting_defs; d->key; d++)
        if (str_eq(d->key, key))
            return d;
    return NULL;
}

char *setting_get(sqlite3 *db, const char *key)
{
    const struct setting_def *d = setting_find(key);
    char *v = NULL;
    int rc;
    if (!d)
        die("setting_get: unknown setting %s", key);
    rc = db_get_text(db, &v, "SELECT value FROM settings WHERE key = ?", "s", key);
    if (rc < 0)
        return NULL;
    return rc ? v : xstrdup(d->def);
}

bool setting_is_yes(sqlite3 *db, const char *key)
{
    char *v = setting_get(db, key);
    bool yes = v && str_eq(v, "yes");
    free(v);
    return yes;
}

long long setting_get_int(sqlite3 *db, const char *key, long long fallback)
{
    char *v = setting_get(db, key);
    long long n;
    if (!v || !parse_int(v, 0, INT64_MAX, &n))
        n = fallback;
    free(v);
    return n;
}

int setting_set(sqlite3 *db, const char *key, const char *value, struct strbuf *err)
{
    const struct setting_def *d = setting_find(key);
    if (!d) {
        strbuf_addf(err, "there is no setting \"%s\" (ngoma config lists them)", key);
        return -1;
    }
    if (d->check(value, err))
        return -1;
    return db_do(db, "INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 "ss", key, value);
}

int setting_unset(sqlite3 *db, const char *key)
{
    return db_do(db, "DELETE FROM settings WHERE key = ?", "s", key);
}

char *setting_outbox_dir(sqlite3 *db, const char *db_path)
{
    char *dir = setting_get(db, "outbox_dir");
    if (dir && !*dir) {
        const char *slash = strrchr(db_path, '/');
        struct strbuf sb = STRBUF_INIT;
        free(dir);
        if (slash)
            strbuf_add(&sb, db_path, (size_t)(slash - db_path) + 1);
        strbuf_addstr(&sb, "outbox");
        dir = strbuf_detach(&sb);
    }
    return dir;
}
