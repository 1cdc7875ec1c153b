/* fuzz_mail.c: libFuzzer target: any bytes as an incoming mail, through parsing, the envelope and the whole inbound path against a database with games. */
#include "store/db.h"
#include "core/engine.h"
#include "judge/inbound.h"
#include "mail/mime.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>

static sqlite3 *db;

/* Two games whose seats the corpus's mails address: game 1 KuniUmi
 * (secrets s1, s2), game 2 Kalimambo (secrets k1, k2, k3). */
static void setup(void)
{
    static const char *const names[] = { "Ann", "Bob", "Cleo" };
    static const char *const emails[] = { "ann@example.org", "bob@example.org", "cleo@example.org" };
    struct strbuf err = STRBUF_INIT;
    cJSON *opts = cJSON_CreateObject();
    int64_t id;
    db = db_open(":memory:");
    if (!db || db_begin(db) || engine_new(db, game_find("kuniumi"), 2, names, emails, opts, 1, true, &id, &err) ||
        engine_new(db, game_find("kalimambo"), 3, names, emails, opts, 2, true, &id, &err) ||
        db_do(db, "UPDATE seats SET secret = CASE WHEN game_id = 1 THEN 's' ELSE 'k' END || seat", NULL) ||
        db_commit(db))
        abort();
    cJSON_Delete(opts);
    strbuf_release(&err);
}

/* The mail module is loaded before fuzzing starts, so that libFuzzer
 * counts its coverage with the program's. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    struct strbuf err = STRBUF_INIT;
    (void)argc;
    (void)argv;
    if (!mime_api(&err))
        abort();
    strbuf_release(&err);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct rawmsg raw;
    struct inbound_result r;
    if (!db)
        setup();
    rawmsg_from_memory((const char *)data, size, 65536, &raw);
    /* Each input in a transaction rolled back: every one meets the same games. */
    if (db_begin(db))
        abort();
    inbound_process(db, &raw, "fuzz", &r);
    db_rollback(db);
    rawmsg_release(&raw);
    return 0;
}
