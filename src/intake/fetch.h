/* fetch.h: reading new mail from a Maildir or an IMAP mailbox, committing in groups, acknowledging only what is committed. */
#ifndef NGOMA_FETCH_H
#define NGOMA_FETCH_H

#include <sqlite3.h>
#include <stdbool.h>

#include "intake/intake.h"


/* Every message in DIR/new is processed and then moved to DIR/cur with the
 * seen flag; -1 on a failure that leaves the rest for the next run
 * (*temporary tells whether trying again later may help). */
int fetch_maildir(sqlite3 *db, const char *dir, struct intake_stats *st, bool *temporary);
/* Every unseen message of the IMAP mailbox of the settings. */
int fetch_imap(sqlite3 *db, struct intake_stats *st, bool *temporary);
/* Every message of an mbox file (a recovered spool, a mailbox an MTA
 * wrote), read with GMime's mbox parser; the file is left as it is, and a
 * message taken before is recognised and skipped. */
int fetch_mbox(sqlite3 *db, const char *path, struct intake_stats *st, bool *temporary);

#endif
