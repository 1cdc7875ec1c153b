/* notice.c: what the host's acts and the seats' changes tell every seat (a notice), said in each reader's language from the catalogues' phrases. */
#include "judge/notice.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

void notice_init(struct notice *n, const char *head)
{
    memset(n, 0, sizeof(*n));
    n->head = head;
    n->values = cJSON_CreateObject();
}

void notice_say(struct notice *n, const char *key)
{
    if (n->n < NOTICE_SAYS)
        n->says[n->n++] = key;
}

void notice_set(struct notice *n, const char *name, const char *value)
{
    cJSON_DeleteItemFromObjectCaseSensitive(n->values, name);
    cJSON_AddStringToObject(n->values, name, value ? value : "");
}

void notice_set_int(struct notice *n, const char *name, long long value)
{
    char v[24];
    snprintf(v, sizeof(v), "%lld", value);
    notice_set(n, name, v);
}

/* The values in lang: where the game stands in her words. */
static cJSON *values_in(const struct notice *n, const char *lang)
{
    cJSON *v = cJSON_Duplicate(n->values, 1);
    const char *when = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "when"));
    if (when) {
        char local[128];
        game_when_text_in(when, lang, local);
        cJSON_ReplaceItemInObjectCaseSensitive(v, "when", cJSON_CreateString(local));
    }
    return v;
}

void notice_prose(const struct notice *n, const char *lang, struct strbuf *out)
{
    cJSON *v = values_in(n, lang);
    for (int i = 0; i < n->n; i++) {
        if (i)
            strbuf_addch(out, ' ');
        template_phrase(n->says[i], v, lang, out, NULL);
    }
    cJSON_Delete(v);
}

void notice_text(const struct notice *n, const char *lang, struct strbuf *out)
{
    struct strbuf para = STRBUF_INIT;
    notice_prose(n, lang, &para);
    strbuf_add_flowed(out, para.buf, 0, 72);
    strbuf_trim(out);
    strbuf_release(&para);
}

void notice_headline(const struct notice *n, const char *lang, struct strbuf *out)
{
    cJSON *v = values_in(n, lang);
    template_phrase(n->head, v, lang, out, NULL);
    cJSON_Delete(v);
}

void notice_release(struct notice *n)
{
    cJSON_Delete(n->values);
    memset(n, 0, sizeof(*n));
}
