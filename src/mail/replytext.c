/* replytext.c: the sender's own words in a reply: where the common clients, in the languages players write, start quoting the mail answered. */
#include "mail/replytext.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

struct line {
    const char *p; /* its first character that is not white space */
    size_t n;      /* its length from there, trailing white space cut */
};

static struct line line_at(const char *p, const char *nl)
{
    struct line l;
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    while (n && (*p == ' ' || *p == '\t' || *p == '*' || *p == '\r')) {
        p++;
        n--;
    }
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '*'))
        n--;
    l.p = p;
    l.n = n;
    return l;
}

static bool starts_i(const struct line *l, const char *prefix)
{
    size_t n = strlen(prefix);
    return l->n >= n && strncasecmp(l->p, prefix, n) == 0;
}

/* Whether the line holds the word (any case) anywhere. */
static bool holds_i(const struct line *l, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= l->n; i++)
        if (strncasecmp(l->p + i, word, n) == 0)
            return true;
    return false;
}

/* "-------- Original Message --------" and its kin; a line of
 * underscores (Outlook) or of dashes alone. */
static bool separator(const struct line *l)
{
    static const char *const words[] = { "original", "origine", "urspr\xc3\xbcngliche", "forward",
                                         "weitergeleitet", "transf\xc3\xa9r\xc3\xa9", "reenviado", "encaminhad",
                                         "inoltrato", "doorgestuurd", "oorspronkelijk", "videresendt",
                                         "vidarebefordrat", "alkuper\xc3\xa4inen" };
    size_t marks = 0;
    bool only = true;
    for (size_t i = 0; i < l->n; i++) {
        if (l->p[i] == '-' || l->p[i] == '_' || l->p[i] == '=')
            marks++;
        else
            only = false;
    }
    if (l->n < 2 || !(l->p[0] == '-' || l->p[0] == '_' || l->p[0] == '='))
        return false;
    if (only)
        return marks >= 5;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (marks >= 4 && holds_i(l, words[i]))
            return true;
    return false;
}

/* "Key:" at the line's start, one of keys (French puts a space before
 * the colon). */
static bool header_key(const struct line *l, const char *const *keys)
{
    for (; *keys; keys++) {
        size_t n = strlen(*keys);
        if (l->n > n && strncasecmp(l->p, *keys, n) == 0) {
            const char *q = l->p + n;
            while (q < l->p + l->n && *q == ' ')
                q++;
            if (q < l->p + l->n && *q == ':')
                return true;
        }
    }
    return false;
}

static const char *const from_keys[] = { "From", "De", "Von", "Da", "Van", "Fr\xc3\xa5n", "Fra", "Od", "L\xc3\xa4hett\xc3\xa4j\xc3\xa4", NULL };
static const char *const next_keys[] = { "Sent", "Date", "To", "Cc", "Subject", "Envoy\xc3\xa9", "\xc3\x80", "A", "Objet",
                                         "Gesendet", "Datum", "An", "Betreff", "Enviado", "Enviada em", "Fecha",
                                         "Para", "Asunto", "Assunto", "Data", "Inviato", "Oggetto", "Verzonden",
                                         "Aan", "Onderwerp", "Skickat", "Till", "\xc3\x84mne", "Sendt", "Til", "Emne",
                                         "Wys\xc5\x82\141no", "Do", "Temat", NULL };

/* Outlook's block of the original's headers: From: and, within the next
 * few lines, Sent:, To: or Subject:. */
static bool header_block(const char *p)
{
    const char *nl = strchr(p, '\n');
    struct line l = line_at(p, nl);
    if (!header_key(&l, from_keys))
        return false;
    for (int k = 0; k < 4 && nl; k++) {
        const char *q = nl + 1;
        nl = strchr(q, '\n');
        l = line_at(q, nl);
        if (header_key(&l, next_keys))
            return true;
    }
    return false;
}

static bool ends_with(const struct line *l, const char *suffix)
{
    size_t n = strlen(suffix);
    return l->n >= n && strncasecmp(l->p + l->n - n, suffix, n) == 0;
}

/* How clients begin an attribution, and the verb it ends with. */
static bool attribution_start(const struct line *l)
{
    static const char *const starts[] = { "On ", "Le ", "Am ", "El ", "Em ", "Il ", "Op ", "Den ", "Dnia ", "W dniu ",
                                          "Le lun", "Quoting ", "Citando ", "Zitat von ",
                                          "No dia ", "Mnamo ", "Tarehe " };
    for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
        if (starts_i(l, starts[i]))
            return true;
    return false;
}

static bool attribution_end(const struct line *l)
{
    static const char *const verbs[] = { "wrote", "a \xc3\xa9\x63rit", "schrieb", "escribi\xc3\xb3", "escreveu",
                                         "ha scritto", "schreef", "skrev", "napisa\xc5\x82", "kirjoitti", "writes",
                                         "aliandika", "ameandika" };
    if (!ends_with(l, ":"))
        return false;
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
        if (holds_i(l, verbs[i]))
            return true;
    return false;
}

char *mail_own_text(const char *text)
{
    struct strbuf out = STRBUF_INIT;
    const char *p = text;
    size_t prev_start = 0;
    bool prev_on = false;

    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t raw = nl ? (size_t)(nl - p) : strlen(p);
        struct line l = line_at(p, nl);
        /* Where clients start copying the previous message. */
        if (separator(&l) || header_block(p) || starts_i(&l, "Sent from my ") || starts_i(&l, "Get Outlook for ") ||
            starts_i(&l, "Envoy\xc3\xa9 de mon ") || starts_i(&l, "Von meinem ") || starts_i(&l, "Enviado desde mi ") ||
            starts_i(&l, "Enviado do meu ") || starts_i(&l, "Imetumwa kutoka ") ||
            starts_i(&l, "Begin forwarded message:") ||
            starts_i(&l, "D\xc3\xa9\142ut du message r\xc3\xa9\145xp\xc3\xa9\144i\xc3\xa9"))
            break;
        if (attribution_end(&l) && (attribution_start(&l) || prev_on)) {
            /* The attribution line, and its first half when wrapped; the
             * quote below it is skipped line by line ('>'), so that an
             * answer written under the quote still counts. */
            if (prev_on && !attribution_start(&l))
                strbuf_setlen(&out, prev_start);
            prev_on = false;
            p += raw + (nl ? 1 : 0);
            continue;
        }
        prev_start = out.len;
        prev_on = attribution_start(&l) && !ends_with(&l, ":");
        strbuf_add(&out, p, raw);
        strbuf_addch(&out, '\n');
        p += raw + (nl ? 1 : 0);
    }
    return strbuf_detach(&out);
}
