/* jsonx.c: checked readers for untrusted JSON (states, options, data files) over cJSON. */
#include "lib/jsonx.h"
#include "lib/paths.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int jx_int_value(const cJSON *v, const char *what, long min, long max, int *out, struct strbuf *err)
{
    double d;
    if (!cJSON_IsNumber(v)) {
        strbuf_addf(err, "%s must be a number", what);
        return -1;
    }
    d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || d < (double)min || d > (double)max) {
        strbuf_addf(err, "%s must be a whole number from %ld to %ld", what, min, max);
        return -1;
    }
    *out = (int)d;
    return 0;
}

int jx_int(const cJSON *obj, const char *key, long min, long max, int *out, struct strbuf *err)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!v) {
        strbuf_addf(err, "\"%s\" is missing", key);
        return -1;
    }
    char what[96];
    snprintf(what, sizeof(what), "\"%s\"", key);
    return jx_int_value(v, what, min, max, out, err);
}

int jx_bool(const cJSON *obj, const char *key, bool *out, struct strbuf *err)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!cJSON_IsBool(v)) {
        strbuf_addf(err, "\"%s\" must be true or false", key);
        return -1;
    }
    *out = cJSON_IsTrue(v);
    return 0;
}

int jx_int_opt(const cJSON *obj, const char *key, long min, long max, int def, int *out, struct strbuf *err)
{
    if (!cJSON_IsObject(obj) || !cJSON_GetObjectItemCaseSensitive(obj, key)) {
        *out = def;
        return 0;
    }
    return jx_int(obj, key, min, max, out, err);
}

int jx_bool_opt(const cJSON *obj, const char *key, bool def, bool *out, struct strbuf *err)
{
    if (!cJSON_IsObject(obj) || !cJSON_GetObjectItemCaseSensitive(obj, key)) {
        *out = def;
        return 0;
    }
    return jx_bool(obj, key, out, err);
}

const char *jx_str(const cJSON *obj, const char *key, struct strbuf *err)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    if (!cJSON_IsString(v) || !v->valuestring) {
        strbuf_addf(err, "\"%s\" must be a string", key);
        return NULL;
    }
    return v->valuestring;
}

const cJSON *jx_array(const cJSON *obj, const char *key, int min_len, int max_len, struct strbuf *err)
{
    const cJSON *v = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
    int n;
    if (!cJSON_IsArray(v)) {
        strbuf_addf(err, "\"%s\" must be an array", key);
        return NULL;
    }
    n = cJSON_GetArraySize(v);
    if (n < min_len || n > max_len) {
        if (min_len == max_len)
            strbuf_addf(err, "\"%s\" must have %d entries, not %d", key, min_len, n);
        else
            strbuf_addf(err, "\"%s\" must have %d to %d entries, not %d", key, min_len, max_len, n);
        return NULL;
    }
    return v;
}

int jx_int_array(const cJSON *obj, const char *key, int *out, size_t n, long min, long max,
                 struct strbuf *err)
{
    const cJSON *a = jx_array(obj, key, (int)n, (int)n, err);
    const cJSON *v;
    size_t i = 0;
    if (!a)
        return -1;
    cJSON_ArrayForEach(v, a) {
        char what[96];
        snprintf(what, sizeof(what), "\"%s\"[%zu]", key, i);
        if (jx_int_value(v, what, min, max, &out[i], err))
            return -1;
        i++;
    }
    return 0;
}

cJSON *jx_int_array_new(const int *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

cJSON *jx_parse(const char *text, const char *what, struct strbuf *err)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithOpts(text, &end, 1);
    if (!j) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        strbuf_addf(err, "%s is not valid JSON (near byte %zu)", what, at);
    }
    return j;
}

char *jx_print(const cJSON *j)
{
    char *s = cJSON_PrintUnformatted(j);
    if (!s)
        die("cannot serialise JSON");
    return s;
}

cJSON *jx_load_file(const char *path, size_t max, struct strbuf *err)
{
    char *text = file_read(path, max, err);
    cJSON *j;
    if (!text)
        return NULL;
    j = jx_parse(text, path, err);
    free(text);
    return j;
}

static bool diff_at(const cJSON *a, const cJSON *b, struct strbuf *path)
{
    if (!a || !b)
        return a != b;
    if ((a->type & 0xFF) != (b->type & 0xFF))
        return true;
    if (cJSON_IsArray(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (int i = 0; x || y; i++, x = x ? x->next : NULL, y = y ? y->next : NULL) {
            size_t len = path->len;
            strbuf_addf(path, "[%d]", i);
            if (!x || !y || diff_at(x, y, path))
                return true;
            strbuf_setlen(path, len);
        }
        return false;
    }
    if (cJSON_IsObject(a)) {
        const cJSON *x;
        cJSON_ArrayForEach(x, a) {
            size_t len = path->len;
            strbuf_addf(path, ".%s", x->string);
            if (diff_at(x, cJSON_GetObjectItemCaseSensitive(b, x->string), path))
                return true;
            strbuf_setlen(path, len);
        }
        cJSON_ArrayForEach(x, b) {
            if (!cJSON_GetObjectItemCaseSensitive(a, x->string)) {
                strbuf_addf(path, ".%s", x->string);
                return true;
            }
        }
        return false;
    }
    return !cJSON_Compare(a, b, 1);
}

bool jx_diff(const cJSON *a, const cJSON *b, struct strbuf *out)
{
    struct strbuf path = STRBUF_INIT;
    bool differ;
    strbuf_addch(&path, '$');
    differ = diff_at(a, b, &path);
    if (differ)
        strbuf_addstr(out, path.buf);
    strbuf_release(&path);
    return differ;
}

int jx_mask_opt(const cJSON *obj, const char *key, int nseats, unsigned *out, struct strbuf *err)
{
    int v;
    if (nseats < 1 || nseats > 16 ||
        jx_int_opt(obj, key, 0, (1L << nseats) - 1, 0, &v, err))
        return -1;
    *out = (unsigned)v;
    return 0;
}
