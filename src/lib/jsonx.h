/* jsonx.h: checked readers for untrusted JSON (states, options, data files) over cJSON. */
#ifndef NGOMA_JSONX_H
#define NGOMA_JSONX_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

struct strbuf;

/* Each reader checks presence, type and range, and on failure appends a
 * message naming the key to err and returns -1. */
int jx_int(const cJSON *obj, const char *key, long min, long max, int *out, struct strbuf *err);
int jx_bool(const cJSON *obj, const char *key, bool *out, struct strbuf *err);
/* The same for a key a state stored by an older ngoma may lack: def then. */
int jx_int_opt(const cJSON *obj, const char *key, long min, long max, int def, int *out, struct strbuf *err);
int jx_bool_opt(const cJSON *obj, const char *key, bool def, bool *out, struct strbuf *err);
/* A set of seats (a bitmask of nseats bits), 0 when the key is missing. */
int jx_mask_opt(const cJSON *obj, const char *key, int nseats, unsigned *out, struct strbuf *err);
/* Returns the string itself (owned by obj) or NULL. */
const char *jx_str(const cJSON *obj, const char *key, struct strbuf *err);
/* An array of exactly n integers each in [min, max]. */
int jx_int_array(const cJSON *obj, const char *key, int *out, size_t n, long min, long max,
                 struct strbuf *err);
/* An array whose length is in [min_len, max_len]; returns it or NULL. */
const cJSON *jx_array(const cJSON *obj, const char *key, int min_len, int max_len, struct strbuf *err);
/* An integer value v (not looked up by key) in [min, max]. */
int jx_int_value(const cJSON *v, const char *what, long min, long max, int *out, struct strbuf *err);

cJSON *jx_int_array_new(const int *v, size_t n);
/* Parses text; on failure appends where it failed to err. */
cJSON *jx_parse(const char *text, const char *what, struct strbuf *err);
/* Compact serialisation as an owned string (dies on failure). */
char *jx_print(const cJSON *j);
/* Reads a whole JSON file of at most max bytes (file_read); NULL with a
 * message on failure. */
cJSON *jx_load_file(const char *path, size_t max, struct strbuf *err);

/* The path of the first difference between a and b (e.g. "$.board[3]"),
 * appended to out; returns false when they are equal. */
bool jx_diff(const cJSON *a, const cJSON *b, struct strbuf *out);

#endif
