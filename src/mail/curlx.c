/* curlx.c: libcurl, loaded on first use, so that a mail piped in by the MTA does not pay for its libraries. */
#include "mail/curlx.h"

#include <dlfcn.h>
#include <stddef.h>

/* The soname libcurl4-openssl-dev links against; the gnutls build next. */
static const char *const libraries[] = { "libcurl.so.4", "libcurl-gnutls.so.4" };

static const struct {
    const char *name;
    size_t offset;
} symbols[] = {
    { "curl_easy_init", offsetof(struct curl_api, easy_init) },
    { "curl_easy_setopt", offsetof(struct curl_api, easy_setopt) },
    { "curl_easy_perform", offsetof(struct curl_api, easy_perform) },
    { "curl_easy_getinfo", offsetof(struct curl_api, easy_getinfo) },
    { "curl_easy_send", offsetof(struct curl_api, easy_send) },
    { "curl_easy_recv", offsetof(struct curl_api, easy_recv) },
    { "curl_easy_cleanup", offsetof(struct curl_api, easy_cleanup) },
    { "curl_easy_strerror", offsetof(struct curl_api, easy_strerror) },
    { "curl_slist_append", offsetof(struct curl_api, slist_append) },
    { "curl_slist_free_all", offsetof(struct curl_api, slist_free_all) },
};

const struct curl_api *curl_api(struct strbuf *err)
{
    static struct curl_api api;
    static int loaded; /* 1 loaded, -1 failed */
    void *lib = NULL;

    if (loaded > 0)
        return &api;
    for (size_t i = 0; i < sizeof(libraries) / sizeof(libraries[0]) && !lib; i++)
        lib = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        strbuf_addf(err, "cannot load libcurl (install the Debian package libcurl4): %s", dlerror());
        loaded = -1;
        return NULL;
    }
    for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
        void *f = dlsym(lib, symbols[i].name);
        if (!f) {
            strbuf_addf(err, "libcurl lacks %s", symbols[i].name);
            dlclose(lib);
            loaded = -1;
            return NULL;
        }
        /* POSIX guarantees a function pointer survives the round trip through void *. */
        *(void **)((char *)&api + symbols[i].offset) = f;
    }
    loaded = 1;
    return &api;
}
