/* tlsconf.h: how ngoma speaks TLS to its mail servers (none, STARTTLS when offered or required, implicit), with certificates checked, and what to set when it fails. */
#ifndef NGOMA_TLSCONF_H
#define NGOMA_TLSCONF_H

#include <sqlite3.h>
#include <stdbool.h>

#include "mail/curlx.h"

struct tls_conf {
    const char *mode_key; /* smtp_tls or imap_tls */
    char mode[16];        /* none, starttls, required, implicit */
    bool verify;          /* tls_verify */
    char *ca_file;        /* tls_ca_file, "" for the system's */
    char errbuf[CURL_ERROR_SIZE];
};

/* Reads the mode (mode_key), tls_verify and tls_ca_file. */
int tls_conf_read(sqlite3 *db, const char *mode_key, struct tls_conf *t);
void tls_conf_release(struct tls_conf *t);
/* The URL to connect to: implicit TLS turns smtp:// into smtps:// and
 * imap:// into imaps:// (owned). */
char *tls_url(const struct tls_conf *t, const char *url);
/* Sets the TLS options of a connection. */
void tls_apply(const struct curl_api *cu, CURL *c, struct tls_conf *t);
/* Appends why a connection failed, with the setting that fixes it when
 * TLS is the cause. */
void tls_explain(const struct tls_conf *t, const struct curl_api *cu, CURLcode res, struct strbuf *why);

#endif
