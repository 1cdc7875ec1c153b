/* order_text.c: cutting the text a player sent into order lines. */
#include "lib/order_text.h"
#include "lib/catalog.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

bool order_line_is_signature(const char *line, size_t len)
{
    /* "-- " is the standard separator; many clients strip the space. */
    while (len && (line[len - 1] == '\r'))
        len--;
    return (len == 3 && memcmp(line, "-- ", 3) == 0) || (len == 2 && memcmp(line, "--", 2) == 0);
}

void order_lines(const char *text, struct strlist *out)
{
    const char *p = text;

    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        struct strbuf line = STRBUF_INIT;
        bool space = false;

        if (order_line_is_signature(p, len))
            break;
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)p[i];
            if (isspace(c) || c == 0) {
                space = line.len > 0;
                continue;
            }
            if (line.len >= ORDER_LINE_MAX)
                break;
            if (space)
                strbuf_addch(&line, ' ');
            space = false;
            strbuf_addch(&line, (char)c);
        }
        if (line.len && line.buf[0] != '>')
            strlist_push(out, line.buf);
        strbuf_release(&line);
        p += len;
        if (*p == '\n')
            p++;
    }
}

/* Words that open or close a mail; matched whole, as the first words. */
static const char *const greetings[] = {
    "hi", "hello", "hey", "hiya", "dear", "thanks", "thank you", "thanks a lot", "many thanks", "thx", "ty", "cheers",
    "regards", "best", "best regards", "kind regards", "warm regards", "all the best", "bye", "ciao", "see you",
    "cu", "yours", "love", "greetings", "good luck", "gl", "hf", "gg", "good game", "well played", "ok", "okay",
    "merci", "merci beaucoup", "bonjour", "salut", "cordialement", "amities", "amiti\xc3\xa9s", "bises", "a+",
    "danke", "danke sch\xc3\xb6n", "vielen dank", "hallo", "gr\xc3\xbc\xc3\x9f\145", "gruesse", "viele gr\xc3\xbc\xc3\x9f\145",
    "liebe gr\xc3\xbc\xc3\x9f\145", "lg", "vg", "mfg", "tsch\xc3\xbcss", "gracias", "muchas gracias", "hola", "saludos",
    "un saludo", "obrigado", "obrigada", "ol\xc3\xa1", "abra\xc3\xa7o", "abra\xc3\xa7os", "beijos", "grazie", "ciao ciao",
    "saluti", "tack", "hej", "dank je", "bedankt", "groeten", "bonne journ\xc3\xa9\145", "bonne soir\xc3\xa9\145",
    "bonne chance", "\xc3\xa0 bient\xc3\xb4t", "a bientot", "have a nice day", "have a good one", "take care",
    "talk soon", "sch\xc3\xb6nen tag", "bis bald", "buen d\xc3\xad\141", "hasta luego", "bom dia", "boa tarde",
    "at\xc3\xa9 logo", "buona giornata", "a presto", "good morning", "good evening", "good night", "morning",
    /* French, Portuguese and Swahili as the catalogues' readers write them. */
    "bonsoir", "bien \xc3\xa0 vous", "\xc3\xa0 plus", "a plus", "merci \xc3\xa0 tous", "bonne partie", "bon jeu",
    "cumprimentos", "atenciosamente", "um abra\xc3\xa7o", "boa noite", "sauda\xc3\xa7\xc3\xb5\x65s", "at\xc3\xa9 breve",
    "bom jogo", "oi", "habari", "habari yako", "habari zenu", "jambo", "hujambo", "sijambo", "shikamoo", "salaam",
    "salamu", "asante", "asante sana", "ahsante", "shukrani", "nashukuru", "kwaheri", "tutaonana", "karibu",
    "siku njema", "usiku mwema", "bahati njema", "mchezo mwema",
};

/* A word that may be a name: letters (any script), ' and -, capitalised. */
static bool name_word(const char *w, size_t n)
{
    bool lower = false;
    if (!n || n > 24 || !(isupper((unsigned char)w[0]) || (unsigned char)w[0] >= 0x80))
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!(isalpha((unsigned char)w[i]) || (unsigned char)w[i] >= 0x80 || w[i] == '\'' || w[i] == '-' ||
              w[i] == '.'))
            return false;
        lower |= islower((unsigned char)w[i]) != 0;
    }
    /* "MOVE" is an order's word written loud, not a name. */
    return lower || n == 1;
}

/* Words that follow a greeting as a name does ("hi there", "thanks all"). */
static bool filler_word(const char *w, size_t n)
{
    static const char *const words[] = { "there", "all", "everyone", "everybody", "folks", "guys", "team",
                                         "ngoma", "again", "so", "much", "a", "lot", "you", "and", "tous",
                                         "alle", "todos", "tutti", "y", "et", "und", "e", "wote", "nyote", "sana",
                                         "rafiki", "marafiki", "amigos", "amis" };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
            return true;
    return false;
}

/* Whether text (to its end) is at most three name words (after a
 * greeting, words like "there" and "all" too). */
static bool names_only(const char *p, bool after_greeting)
{
    int words = 0;
    while (*p) {
        size_t n;
        while (*p == ' ' || *p == ',')
            p++;
        n = strcspn(p, " ,");
        if (!n)
            break;
        if (!(name_word(p, n) || (after_greeting && filler_word(p, n))) || ++words > 3)
            return false;
        p += n;
    }
    return words > 0;
}

bool order_line_is_greeting(const char *line, const struct strlist *verbs)
{
    struct strbuf sb = STRBUF_INIT;
    const char *p = line;
    bool yes = false;
    size_t first;
    /* A dash before a name, and the punctuation people end them with. */
    while (*p == '-' || *p == ' ' || (unsigned char)*p == 0xe2)
        p += (unsigned char)*p == 0xe2 && p[1] && p[2] ? 3 : 1;
    strbuf_addstr(&sb, p);
    while (sb.len && strchr(" .,!:;)(=^-~*", sb.buf[sb.len - 1]))
        strbuf_setlen(&sb, sb.len - 1);
    if (!sb.len || sb.len > 48) {
        strbuf_release(&sb);
        return false;
    }
    first = strcspn(sb.buf, " ,!");
    for (size_t i = 0; verbs && i < verbs->n; i++)
        if (strlen(verbs->v[i]) == first && strncasecmp(sb.buf, verbs->v[i], first) == 0) {
            strbuf_release(&sb);
            return false;
        }
    for (size_t i = 0; i < sizeof(greetings) / sizeof(greetings[0]) && !yes; i++) {
        size_t n = strlen(greetings[i]);
        if (strncasecmp(sb.buf, greetings[i], n) == 0 && (!sb.buf[n] || strchr(" ,!", sb.buf[n]))) {
            /* What follows the word is a name, or nothing ("thanks, Ann"). */
            const char *rest = sb.buf + n;
            while (*rest == ' ' || *rest == ',' || *rest == '!')
                rest++;
            yes = !*rest || names_only(rest, true);
        }
    }
    /* A bare name: "Ann", "Ann Lee". */
    yes = yes || names_only(sb.buf, false);
    strbuf_release(&sb);
    return yes;
}

int order_nearest_word(const char *word, const char *const *words, size_t n)
{
    size_t len = strlen(word), best = 3;
    int found = -1;
    for (size_t i = 0; i < n; i++) {
        size_t d = order_distance(word, words[i], 2);
        if (d < best && d <= (len >= 4 ? 2u : 1u)) {
            best = d;
            found = (int)i;
        }
    }
    return found;
}

size_t order_distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b), row[ORDER_LINE_MAX + 1];
    if (la > ORDER_LINE_MAX || lb > ORDER_LINE_MAX)
        return limit + 1;
    if ((la > lb ? la - lb : lb - la) > limit)
        return limit + 1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], best;
        row[0] = i;
        best = row[0];
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = diag + cost;
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            diag = up;
            row[j] = v;
            if (v < best)
                best = v;
        }
        if (best > limit)
            return limit + 1;
    }
    return row[lb] <= limit ? row[lb] : limit + 1;
}

/* Yes in the languages players write in, alone on the line. */
static const char *const yeses[] = {
    "yes", "y", "yes please", "yep", "yeah", "sure", "oui", "ouais", "sim", "ndiyo", "ndio", "ja", "si",
    "s\xc3\xad", "da", "do it", "go", "go ahead",
};

bool order_line_is_yes(const char *line)
{
    struct strbuf sb = STRBUF_INIT;
    bool yes = false;
    strbuf_addstr(&sb, line);
    while (sb.len && strchr(" .,!:;)(=^-~*", sb.buf[sb.len - 1]))
        strbuf_setlen(&sb, sb.len - 1);
    for (size_t i = 0; i < sizeof(yeses) / sizeof(yeses[0]) && !yes; i++)
        yes = strcasecmp(sb.buf, yeses[i]) == 0;
    strbuf_release(&sb);
    return yes;
}

char *order_text_offered(const char *text)
{
    struct strbuf quoted = STRBUF_INIT;
    const char *p = text, *at = NULL, *end;
    char *offered = NULL;
    /* The quoted lines, their marks gone, as one text (an offer may be
     * wrapped over two lines). */
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (*p == '>') {
            size_t k = 0;
            while (k < len && (p[k] == '>' || p[k] == ' '))
                k++;
            if (quoted.len)
                strbuf_addch(&quoted, ' ');
            strbuf_add(&quoted, p + k, len - k);
        }
        p += len + (nl != NULL);
    }
    /* "Did you mean X?" in any of the languages: the last one quoted. */
    for (size_t l = 0; lang_at(l); l++) {
        const char *opener = catalog_text(lang_at(l)->code, "near.opener", 0);
        size_t n = opener ? strlen(opener) : 0;
        const char *q = quoted.buf;
        for (; n && (q = strstr(q, opener)) != NULL; q++)
            if (q[n] == ' ' && (!at || q + n + 1 > at))
                at = q + n + 1;
    }
    if (at && (end = strchr(at, '?')) != NULL && end > at && end - at < ORDER_LINE_MAX) {
        struct strbuf one = STRBUF_INIT;
        strbuf_add(&one, at, (size_t)(end - at));
        strbuf_trim(&one); /* French writes " ?" */
        /* Several offered ("PLAY 3 or PLAY 5"): a yes chooses none. */
        if (strstr(one.buf, ", ") || strstr(one.buf, " or ") || strstr(one.buf, " ou ") || strstr(one.buf, " au "))
            strbuf_release(&one);
        else
            offered = strbuf_detach(&one);
    }
    strbuf_release(&quoted);
    return offered;
}
