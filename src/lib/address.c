/* address.c: the one check of a mail address, wherever one comes in (a player, a host, the from setting, the lobby). */
#include "lib/address.h"
#include "lib/strbuf.h"

#include <ctype.h>
#include <string.h>

static bool local_char(unsigned char c)
{
    return isalnum(c) || (c && strchr(".!#$%&'*+-=?^_`{|}~", c));
}

int address_check(const char *addr, const char *what, struct strbuf *err)
{
    const char *at = strrchr(addr, '@'), *p;
    size_t len = strlen(addr);

    if (len > 254 || !at || at == addr || !at[1] || at - addr > 64 || strchr(addr, '@') != at) {
        strbuf_addf(err, "%s \"%.80s\" is not a mail address like ann@example.org", what, addr);
        return -1;
    }
    for (p = addr; p < at; p++)
        if (!local_char((unsigned char)*p) || (*p == '.' && (p == addr || p + 1 == at || p[1] == '.'))) {
            strbuf_addf(err, "%s \"%.80s\": the part before the @ may hold letters, digits and . - _ + (no dot at "
                             "its ends or twice)",
                        what, addr);
            return -1;
        }
    for (p = at + 1; *p; p++) {
        unsigned char c = (unsigned char)*p;
        bool label_start = p == at + 1 || p[-1] == '.', label_end = !p[1] || p[1] == '.';
        if (c == '.' ? label_start || !p[1] : !isalnum(c) && !(c == '-' && !label_start && !label_end)) {
            strbuf_addf(err, "%s \"%.80s\": the domain after the @ is made of letters, digits, inner hyphens and "
                             "dots, like example.org",
                        what, addr);
            return -1;
        }
    }
    return 0;
}
