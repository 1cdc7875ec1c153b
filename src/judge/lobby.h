/* lobby.h: the bare address's command language: confirmed addresses, games opened and filled by mail, invitations, watchers, rematches. */
#ifndef NGOMA_LOBBY_H
#define NGOMA_LOBBY_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "judge/inbound_mail.h"
#include "judge/notify.h"

/* Whether text begins with one of the lobby's commands (HELP, LIST, JOIN...), in
 * any language's words (AIDE, LISTE, REJOINDRE...). */
bool lobby_command_word(const char *text);

/*
 * Answers a mail to the bare address (or a watcher's reply), inside the
 * caller's transaction; the mail is journalled already (origin). The
 * sender is its From address: a command that creates or joins anything
 * waits until the address has answered a confirmation mail; an address
 * that has not gets one mail a month at most, and a confirmed one
 * lobby_per_hour answers. The caller checks the setting lobby is on. *answered says whether a mail went back; why
 * (size n) what was done, for the journal. -1 on a database failure.
 */
int lobby_mail(sqlite3 *db, const struct inbound_mail *in, const struct mail_origin *origin, bool *answered,
               char *why, size_t n);

#endif
