/* mimex.c: the GMime module, loaded the first time a process reads or writes a mail, so that a process that does neither maps none of GMime's 18 libraries. */
#include "mail/mime.h"
#include "lib/paths.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

const struct mime_api *mime_api(struct strbuf *err)
{
    static const struct mime_api *api;
    static char why[400];
    mime_module_fn *module;
    char *path;
    void *lib;
    int abi = 0;

    if (api || *why) {
        if (!api)
            strbuf_addstr(err, why);
        return api;
    }
    path = lib_path("ngoma-mime.so");
    lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, sizeof(why), "cannot load the mail module (make install puts it there): %s", dlerror());
    } else {
        /* POSIX guarantees a function pointer survives the round trip through void *. */
        *(void **)&module = dlsym(lib, "ngoma_mime_module");
        if (module)
            api = module(&abi);
        if (!api || abi != MIME_ABI_CHECK) {
            snprintf(why, sizeof(why), "%s is from another build of ngoma: install them together", path);
            api = NULL;
            dlclose(lib);
        }
    }
    free(path);
    if (!api)
        strbuf_addstr(err, why);
    return api;
}
