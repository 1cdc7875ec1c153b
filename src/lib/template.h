/* template.h: a small logic-less template engine over cJSON data for every mail and reply ngoma writes. */
#ifndef NGOMA_TEMPLATE_H
#define NGOMA_TEMPLATE_H

#include <stdarg.h>

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "lib/paths.h" /* template_dir */

struct strbuf;

/*
 * The syntax, a subset of Mustache:
 *   {{name}} {{a.b}} {{.}}   a value (HTML-escaped when html is true)
 *   {{{name}}} {{&name}}     a value, never escaped
 *   {{#name}}..{{/name}}     repeated for each item of a list, entered for an
 *                            object, shown once for any other true value
 *   {{^name}}..{{/name}}     shown when the value is missing, false, null, 0, "" or []
 *   {{! comment}}            dropped
 *   {{>name}}                another template of the same directory
 *   {{%key}} {{%key count}}  the phrase key of the reader's catalogue
 *                            (lib/catalog.h), a template itself over the
 *                            same data; with plural forms, the one for the
 *                            number count names (n when none is named)
 * A section or comment tag alone on its line takes its line with it.
 * Nothing is executed; unknown names render as nothing.
 */
int template_render(const char *tmpl, const cJSON *data, const char *lang, bool html, struct strbuf *out,
                    struct strbuf *err);

/* Renders the template file `name` (e.g. "reply.txt") from the templates
 * directory (NGOMA_TEMPLATES, else DATADIR/templates), its phrases in lang
 * (a code of lib/catalog.h; NULL or unknown: English). */
int template_render_file(const char *name, const cJSON *data, const char *lang, struct strbuf *out,
                         struct strbuf *err);
/* Adds the phrase key of lang's catalogue to out, rendered over data (may
 * be NULL). -1 with why in err (may be NULL: said on stderr) when no
 * catalogue has it or it does not render. */
int template_phrase(const char *key, const cJSON *data, const char *lang, struct strbuf *out, struct strbuf *err);
/* The same over the values of pairs of strings, name then value, ended by
 * NULL: phrase_add(out, lang, "language.set", "language", "Français",
 * NULL). The value named n picks a plural form. */
int phrase_add(struct strbuf *out, const char *lang, const char *key, ...) __attribute__((sentinel));
/* The same over a va_list of such pairs. */
int phrase_addv(struct strbuf *out, const char *lang, const char *key, va_list ap);
/* items as a list in lang: "Ama", "Ama and Bo", "Ama, Bo and Cida" (the
 * catalogue's list.and between the last two). */
struct strlist;
void phrase_list_and(struct strbuf *out, const char *lang, const struct strlist *items);

#endif
