/* alert.h: the host's daily alert: mail that will not go out, a queue that stalls, runs that fail. */
#ifndef NGOMA_ALERT_H
#define NGOMA_ALERT_H

#include <sqlite3.h>
#include <stdbool.h>

/* When something needs the host (mail failed for good or deferred again
 * and again, mail waiting over an hour, runs with errors, all in the last
 * day) and the admin setting names an address, queues one alert mail to
 * it, at most one a day. *sent says whether it did. */
int alert_host(sqlite3 *db, bool *sent);

#endif
