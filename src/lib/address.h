/* address.h: the one check of a mail address, wherever one comes in (a player, a host, the from setting, the lobby). */
#ifndef NGOMA_ADDRESS_H
#define NGOMA_ADDRESS_H

#include <stdbool.h>

struct strbuf;

/*
 * A plain address local@domain: at most 254 bytes, a local part of at
 * most 64 of letters, digits and . ! # $ % & ' * + - = ? ^ _ ` { | } ~
 * (no dot first, last or twice), a domain of dot-separated labels of
 * letters, digits and inner hyphens. No names, brackets, quotes, spaces or
 * control characters: nothing a header or a file name could be bent by.
 * -1 with what is wrong (naming what says the address) in err.
 */
int address_check(const char *addr, const char *what, struct strbuf *err);

#endif
