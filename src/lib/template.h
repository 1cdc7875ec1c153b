/* template.h: a small logic-less template engine over cJSON data for every mail and reply ngoma writes. */
#ifndef NGOMA_TEMPLATE_H
#define NGOMA_TEMPLATE_H

#include <stdbool.h>
#include <cjson/cJSON.h>

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
 * A section or comment tag alone on its line takes its line with it.
 * Nothing is executed; unknown names render as nothing.
 */
int template_render(const char *tmpl, const cJSON *data, bool html, struct strbuf *out, struct strbuf *err);

/* Renders the template file `name` (e.g. "reply.txt") from the templates
 * directory (NGOMA_TEMPLATES, else DATADIR/templates). */
int template_render_file(const char *name, const cJSON *data, struct strbuf *out, struct strbuf *err);
/* The directory templates are read from. */
const char *template_dir(void);
void template_set_dir(const char *dir);

#endif
