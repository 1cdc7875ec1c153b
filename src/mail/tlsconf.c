/* tlsconf.c: how ngoma speaks TLS to its mail servers (none, STARTTLS when offered or required, implicit), with certificates checked, and what to set when it fails. */
#include "mail/tlsconf.h"
#include "store/settings.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tls_conf_read(sqlite3 *db, const char *mode_key, struct tls_conf *t)
{
    char *mode = setting_get(db, mode_key), *verify = setting_get(db, "tls_verify");
    memset(t, 0, sizeof(*t));
    t->mode_key = mode_key;
    t->ca_file = setting_get(db, "tls_ca_file");
    if (!mode || !verify || !t->ca_file) {
        free(mode);
        free(verify);
        return -1;
    }
    /* "try", from before there were four modes, is STARTTLS when offered. */
    snprintf(t->mode, sizeof(t->mode), "%s", str_eq(mode, "try") ? "starttls" : mode);
    t->verify = !str_eq(verify, "no");
    free(mode);
    free(verify);
    return 0;
}

void tls_conf_release(struct tls_conf *t)
{
    free(t->ca_file);
    t->ca_file = NULL;
}

char *tls_url(const struct tls_conf *t, const char *url)
{
    struct strbuf sb = STRBUF_INIT;
    if (str_eq(t->mode, "implicit") && str_iprefix(url, "smtp://"))
        strbuf_addf(&sb, "smtps://%s", url + 7);
    else if (str_eq(t->mode, "implicit") && str_iprefix(url, "imap://"))
        strbuf_addf(&sb, "imaps://%s", url + 7);
    else
        strbuf_addstr(&sb, url);
    return strbuf_detach(&sb);
}

void tls_apply(const struct curl_api *cu, CURL *c, struct tls_conf *t)
{
    long use = str_eq(t->mode, "none") ? (long)CURLUSESSL_NONE
             : str_eq(t->mode, "starttls") ? (long)CURLUSESSL_TRY
                                           : (long)CURLUSESSL_ALL;
    t->errbuf[0] = '\0';
    cu->easy_setopt(c, CURLOPT_ERRORBUFFER, t->errbuf);
    cu->easy_setopt(c, CURLOPT_USE_SSL, use);
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYPEER, t->verify ? 1L : 0L);
    cu->easy_setopt(c, CURLOPT_SSL_VERIFYHOST, t->verify ? 2L : 0L);
    if (*t->ca_file)
        cu->easy_setopt(c, CURLOPT_CAINFO, t->ca_file);
}

void tls_explain(const struct tls_conf *t, const struct curl_api *cu, CURLcode res, struct strbuf *why)
{
    strbuf_addstr(why, cu->easy_strerror(res));
    if (t->errbuf[0])
        strbuf_addf(why, " (%s)", t->errbuf);
    switch (res) {
    case CURLE_PEER_FAILED_VERIFICATION:
        if (strstr(t->errbuf, "expired"))
            strbuf_addstr(why, ": the server's certificate has expired; renew it on the server, or set tls_verify no "
                               "to accept it for now");
        else
            strbuf_addf(why, ": the server's certificate is not trusted; set tls_ca_file to the certificate of the CA "
                             "that signed it (for a self-signed one, the certificate itself, such as "
                             "/etc/ssl/certs/ssl-cert-snakeoil.pem on this machine), or tls_verify no, or %s none for "
                             "a server on this machine",
                        t->mode_key);
        break;
    case CURLE_SSL_CACERT_BADFILE:
        strbuf_addf(why, ": tls_ca_file \"%s\" cannot be read as certificates", t->ca_file);
        break;
    case CURLE_USE_SSL_FAILED:
        strbuf_addf(why, ": the server offers no STARTTLS; set %s starttls (TLS when offered), %s none, or %s "
                         "implicit if the port speaks TLS from the start",
                    t->mode_key, t->mode_key, t->mode_key);
        break;
    case CURLE_OPERATION_TIMEDOUT:
        if (!strstr(t->errbuf, "0 bytes received"))
            break;
        /* A TLS port waits for the client to speak first: as below. */
        __attribute__((fallthrough));
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_WEIRD_SERVER_REPLY:
        if (str_eq(t->mode, "implicit"))
            strbuf_addf(why, ": %s is implicit (TLS from the start); if this port speaks plain text first (25, 587, "
                             "143), set %s starttls or required",
                        t->mode_key, t->mode_key);
        else
            strbuf_addf(why, ": if this port speaks TLS from the start (465, 993), set %s implicit", t->mode_key);
        break;
    default:
        break;
    }
}
