/* conffile.h: the system's ngoma configuration file (/etc/ngoma.conf, or $NGOMA_CONFIG): "key = value" lines. */
#ifndef NGOMA_CONFFILE_H
#define NGOMA_CONFFILE_H

struct strbuf;

/* The value of key in the configuration file (owned), NULL when the file
 * or the key is not there; a line that is no "key = value" is an error
 * (-1 in *bad with the file and line in err). */
char *conffile_get(const char *key, int *bad, struct strbuf *err);
/* The file read: $NGOMA_CONFIG, else /etc/ngoma.conf. */
const char *conffile_path(void);

#endif
