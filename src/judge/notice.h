/* notice.h: what the host's acts and the seats' changes tell every seat (a notice), said in each reader's language from the catalogues' phrases. */
#ifndef NGOMA_NOTICE_H
#define NGOMA_NOTICE_H

#include <cjson/cJSON.h>

#include "core/gamerec.h"
#include "lib/strbuf.h"

#define NOTICE_SAYS 6

/*
 * A notice: its headline and sentences, each a catalogue phrase (key)
 * over the same values; a value named "when" is where the game stands as
 * game_when_text writes it (English), told in each reader's words. What
 * the host wrote (an END's reason) is a value, shown as written.
 */
struct notice {
    const char *head;                /* phrase key of the headline */
    const char *says[NOTICE_SAYS];   /* phrase keys of its sentences, in order */
    int n;
    cJSON *values;                   /* strings the phrases name */
};

void notice_init(struct notice *n, const char *head);
/* Adds a sentence (a phrase key; past NOTICE_SAYS it is dropped). */
void notice_say(struct notice *n, const char *key);
/* Sets a value the sentences name. */
void notice_set(struct notice *n, const char *name, const char *value);
void notice_set_int(struct notice *n, const char *name, long long value);
/* The sentences in lang (NULL: English), one paragraph wrapped at 72
 * columns; and the headline. */
void notice_text(const struct notice *n, const char *lang, struct strbuf *out);
/* The sentences in lang, unwrapped (for a text that wraps them itself). */
void notice_prose(const struct notice *n, const char *lang, struct strbuf *out);
void notice_headline(const struct notice *n, const char *lang, struct strbuf *out);
void notice_release(struct notice *n);

#endif
