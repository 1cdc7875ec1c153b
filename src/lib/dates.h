/* dates.h: a date and time as its reader reads it: in her zone, with her language's names and order (the catalogue's date.* phrases). */
#ifndef NGOMA_DATES_H
#define NGOMA_DATES_H

#include <time.h>

/* t in zone tz (an unknown one: UTC) and lang: English keeps ngoma's
 * "2026-12-10 14:00 WAT"; French reads "jeudi 10 décembre 2026 à 14:00
 * (WAT)". Fits 96 bytes. */
#define DATE_TEXT_MAX 96
void date_text_in(time_t t, const char *tz, const char *lang, char out[DATE_TEXT_MAX]);

#endif
