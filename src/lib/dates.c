/* dates.c: a date and time as its reader reads it: in her zone, with her language's names and order (the catalogue's date.* phrases). */
#include "lib/dates.h"
#include "lib/strbuf.h"
#include "lib/template.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>

void date_text_in(time_t t, const char *tz, const char *lang, char out[DATE_TEXT_MAX])
{
    char year[16], mm[16], dd[16], day[16], hm[32], zone[16], wkey[32], mkey[32];
    struct strbuf sb = STRBUF_INIT, weekday = STRBUF_INIT, month = STRBUF_INIT;
    struct tm tm;
    time_in_zone(t, tz, &tm, zone);
    snprintf(year, sizeof(year), "%d", tm.tm_year + 1900);
    snprintf(mm, sizeof(mm), "%02d", tm.tm_mon + 1);
    snprintf(dd, sizeof(dd), "%02d", tm.tm_mday);
    snprintf(day, sizeof(day), "%d", tm.tm_mday);
    snprintf(hm, sizeof(hm), "%02d:%02d", tm.tm_hour, tm.tm_min);
    snprintf(wkey, sizeof(wkey), "date.weekday.%d", tm.tm_wday);
    snprintf(mkey, sizeof(mkey), "date.month.%d", tm.tm_mon + 1);
    phrase_add(&weekday, lang, wkey, NULL);
    phrase_add(&month, lang, mkey, NULL);
    phrase_add(&sb, lang, "date.format", "year", year, "mm", mm, "dd", dd, "day", day, "time", hm, "zone", zone,
               "weekday", weekday.buf, "month", month.buf, NULL);
    snprintf(out, DATE_TEXT_MAX, "%s", sb.buf);
    strbuf_release(&sb);
    strbuf_release(&weekday);
    strbuf_release(&month);
}
