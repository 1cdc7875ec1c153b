/* paths.h: where ngoma finds its data files (templates, seeds) and its drawing module at run time, and how it writes files whole. */
#ifndef NGOMA_PATHS_H
#define NGOMA_PATHS_H

#include <stddef.h>

/* $NGOMA_DATADIR, else the directory compiled in (the source tree for a
 * build, PREFIX/share/ngoma once installed). */
const char *data_dir(void);
/* An owned path to a file of the program's own libraries (the drawing
 * module): the build directory for a build, PREFIX/lib/ngoma once
 * installed. */
char *lib_path(const char *file);
/* An owned path below the data dir, e.g. data_path("seeds", "kalimambo.json"). */
char *data_path(const char *sub, const char *file);
/* An owned path to a game's data file: a bare name is in the seeds/
 * directory, a name with a slash is a path as given (only the host at the
 * shell gives one: engine_options_from checks who). */
char *seed_path(const char *file);
/* Whether name is a file of the seeds folder: letters, digits, '.', '-'
 * and '_', not starting with '.', at most 100 characters (no path, no ..). */
#include <stdbool.h>
bool seed_name_ok(const char *name);

/* Bounds on what is read from a file, by what it is. */
#define FILE_MAX_DATA (1u << 20)      /* a game's data file, a layout */
#define FILE_MAX_TEXT (1u << 18)      /* a template, a stamp */
#define FILE_MAX_RECORD (64u << 20)   /* a public record for verify --file */

/* Reads a whole regular file of at most max bytes; NULL with a reason in
 * err (a struct strbuf *) for anything else: a device, a FIFO or a
 * directory is refused without reading, a longer file after max + 1. */
struct strbuf;
char *file_read(const char *path, size_t max, struct strbuf *err);
/* Creates a directory and its parents (mode 0755); -1 with errno. */
int mkdir_p(const char *path);
/* Writes a whole file so that readers see the old one or the new one:
 * beside it first, synced, renamed over it, the directory synced. -1 with
 * the reason in err. */
int file_write_atomic(const char *path, const void *data, size_t n, struct strbuf *err);

/* The directory templates and catalogues are read from: the one set,
 * else NGOMA_TEMPLATES, else DATADIR/templates. */
const char *template_dir(void);
void template_set_dir(const char *dir);

#endif
