/* fuzz_template.c: libFuzzer target: any bytes as a template, rendered as text and as HTML against data of every shape. */
#include "lib/strbuf.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>

static cJSON *data;

int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size)
{
    struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
    char *tmpl;
    if (!data)
        data = cJSON_Parse("{\"game\":12,\"title\":\"KuniUmi\",\"player\":\"Ann <&>\",\"yes\":true,\"no\":false,"
                           "\"none\":null,\"list\":[{\"name\":\"a\"},{\"name\":\"b\"}],\"empty\":[],"
                           "\"nested\":{\"deep\":{\"x\":\"y\"}},\"board\":\"line 1\\nline 2\",\"n\":3.5}");
    tmpl = xstrndup((const char *)bytes, size);
    template_render(tmpl, data, "fr", false, &out, &err);
    strbuf_reset(&out);
    strbuf_reset(&err);
    template_render(tmpl, data, NULL, true, &out, &err);
    free(tmpl);
    strbuf_release(&out);
    strbuf_release(&err);
    return 0;
}
