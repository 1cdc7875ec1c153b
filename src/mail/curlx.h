/* curlx.h: libcurl, loaded on first use, so that a mail piped in by the MTA does not pay for its libraries. */
#ifndef NGOMA_CURLX_H
#define NGOMA_CURLX_H

#include <curl/curl.h>

#include "lib/strbuf.h"

/* The libcurl functions ngoma calls. */
struct curl_api {
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
    CURLcode (*easy_perform)(CURL *c);
    CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    CURLcode (*easy_send)(CURL *c, const void *buf, size_t len, size_t *n);
    CURLcode (*easy_recv)(CURL *c, void *buf, size_t len, size_t *n);
    void (*easy_cleanup)(CURL *c);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
};

/* libcurl's functions, loading the library the first time; NULL (and why,
 * in err) when it cannot be loaded. */
const struct curl_api *curl_api(struct strbuf *err);

#endif
