/* paths.h: where ngoma finds its data files (templates, seeds) at run time, and how it writes files whole. */
#ifndef NGOMA_PATHS_H
#define NGOMA_PATHS_H

#include <stddef.h>

/* $NGOMA_DATADIR, else the directory compiled in (the source tree for a
 * build, PREFIX/share/ngoma once installed). */
const char *data_dir(void);
/* An owned path below the data dir, e.g. data_path("seeds", "kalimambo.json"). */
char *data_path(const char *sub, const char *file);
/* An owned path to a game's data file: a bare name is in the seeds/
 * directory, a name with a slash is a path as given. */
char *seed_path(const char *file);
/* Reads a whole text file; NULL with a reason in err (a struct strbuf *). */
struct strbuf;
char *file_read(const char *path, struct strbuf *err);
/* Creates a directory and its parents (mode 0755); -1 with errno. */
int mkdir_p(const char *path);
/* Writes a whole file so that readers see the old one or the new one:
 * beside it first, synced, renamed over it, the directory synced. -1 with
 * the reason in err. */
int file_write_atomic(const char *path, const void *data, size_t n, struct strbuf *err);

#endif
