/* check_lobby.c: the lobby at the bare address through the inbound path: a game opened, joined, started, watched, played, rematched and verified; and every abuse case, each a test. */
#include "test_support.h"

#include "core/verify.h"
#include "judge/gamespec.h"
#include "judge/inbound.h"
#include "judge/notify.h"
#include "judge/schedule.h"
#include "lib/rng.h"
#include "lib/util.h"
#include "store/db.h"
#include "store/settings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lobby reads people as a game does: greetings and names around
 * commands are no commands, a command a letter off is offered ("Did you
 * mean JOIN 1?") and a yes does it, a game is named by its title or its
 * first letters, RATINGS alone answers, and a thanks alone is not
 * answered. */
START_TEST(the_lobby_reads_people)
{
    sqlite3 *db = t_lobby_db("open");
    long long before;
    char *text;
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "Hi!\nNEW African Empires SEATS 4 AS Ann\nCheers, Ann");
    text = t_last_text(db, "ann@example.org", "lobby");
    ck_assert_msg(strstr(text, "Game 1 (African Empires, 4 seats) is open") && !strstr(text, "not a lobby command"),
                  "%s", text);
    free(text);
    t_lobby(db, "bob@example.org", "hello", "Hello, I would like to play a game with you all");
    text = t_last_text(db, "bob@example.org", "lobby");
    ck_assert_msg(!strstr(text, "Did you mean"), "%s", text);
    free(text);
    t_lobby(db, "bob@example.org", "join", "JION 1\nBob");
    text = t_last_text(db, "bob@example.org", "lobby");
    ck_assert_msg(strstr(text, "Did you mean JOIN 1? Reply yes"), "%s", text);
    free(text);
    t_lobby(db, "bob@example.org", "Re: lobby", "yes\n\n> JION 1\n> this is not a lobby command. Did you mean JOIN\n"
                                                "> 1? Reply yes to do it\n");
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM lobby_players WHERE table_id = 1 AND email ="
                                      " 'bob@example.org'"),
                     1);
    /* A yes to what only reads or seats her, never to another command. */
    t_lobby(db, "bob@example.org", "Re: lobby", "yes\n\n> Did you mean LEAVE 1? Reply yes\n");
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM lobby_players WHERE table_id = 1 AND email ="
                                      " 'bob@example.org'"),
                     1);
    t_lobby(db, "bob@example.org", "new", "NEW kali SEATS 3");
    ck_assert(t_last_has(db, "bob@example.org", "(Kalimambo, 3 seats) is open"));
    /* Its answer offers what comes next, a tap each. */
    {
        char *mail = NULL;
        ck_assert_int_eq(db_get_text(db, &mail, "SELECT mail FROM outbox WHERE rcpt = 'bob@example.org' ORDER BY id"
                                                " DESC LIMIT 1", NULL),
                         1);
        ck_assert_msg(strstr(mail, "body=3DSTART%202") && strstr(mail, "body=3DMYGAMES"), "%s", mail);
        free(mail);
    }
    /* Options after AS are options, not the name. */
    t_confirmed(db, "cy@example.org");
    t_lobby(db, "cy@example.org", "new", "NEW kalimambo SEATS 3 AS Cy Lee MINRATING 400 DEADLINE 48h");
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM lobby_tables WHERE host_email = 'cy@example.org' AND min_rating"
                                      " = 400 AND deadline_secs = 172800"),
                     1);
    ck_assert_int_eq((int)t_count(db, "SELECT count(*) FROM lobby_players WHERE email = 'cy@example.org' AND name ="
                                      " 'Cy Lee'"),
                     1);
    t_lobby(db, "bob@example.org", "ratings", "ratings");
    text = t_last_text(db, "bob@example.org", "lobby");
    ck_assert_msg(strstr(text, "Kalimambo: nobody is rated yet. RATINGS kalimambo shows its table."), "%s", text);
    free(text);
    before = t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'bob@example.org'");
    t_lobby(db, "bob@example.org", "Re: lobby", "Thanks, Ann!\n");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE rcpt = 'bob@example.org'"), before);
    db_close(db);
}
END_TEST

START_TEST(a_game_is_opened_joined_started_watched_played_rematched_and_verified)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    struct strbuf report = STRBUF_INIT;
    char *t, subject[96];
    int64_t id;

    /* HELP from a stranger: the commands, and the way to confirm. */
    t_lobby(db, "ann@example.org", "How do I join?", "HELP");
    ck_assert(t_last_has(db, "ann@example.org", "JOIN 12 [AS YourName]"));
    ck_assert(t_last_has(db, "ann@example.org", "Lobby: confirm "));
    /* Ann opens a game: it waits for her confirmation. */
    t = t_token_of(db, "ann@example.org", "confirm");
    snprintf(subject, sizeof(subject), "Re: [ngoma] Lobby: confirm %s", t);
    free(t);
    t_lobby(db, "ann@example.org", subject, "NEW kalimambo SEATS 3 AS Ann SALT blue moon\n\n> HELP\n");
    ck_assert(t_last_has(db, "ann@example.org", "is open, and you sit in seat 1 as Ann"));
    ck_assert(t_last_has(db, "ann@example.org", "Seed commitment (SHA-256)"));
    ck_assert_int_eq(db_get_int64(db, &id, "SELECT id FROM lobby_tables", NULL), 1);
    /* LIST shows it to anyone. */
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "bob@example.org", "list", "LIST");
    ck_assert(t_last_has(db, "bob@example.org", "Game 1: Kalimambo, 1 of 3 seats taken (Ann); no deadline; the usual options"));
    /* Bob joins; Ann invites Cleo, who joins from the invitation. */
    t_lobby(db, "bob@example.org", "join", "JOIN 1 AS Bob SALT 42 elephants");
    ck_assert(t_last_has(db, "bob@example.org", "in seat 2 of 3"));
    t_lobby(db, "ann@example.org", "invite", "INVITE 1 cleo@example.org");
    ck_assert_int_eq(t_mails_to(db, "cleo@example.org", "invite"), 1);
    ck_assert(t_last_has(db, "cleo@example.org", "Ann (ann@example.org) invites you to"));
    /* An observer watches from the start. */
    t_confirmed(db, "walt@example.org");
    t_lobby(db, "walt@example.org", "watch", "WATCH 1");
    ck_assert(t_last_has(db, "walt@example.org", "You watch game 1"));
    t = t_token_of(db, "cleo@example.org", "join");
    snprintf(subject, sizeof(subject), "Re: [ngoma] Invitation to Kalimambo game 1 (join %s)", t);
    free(t);
    t_lobby(db, "cleo@example.org", subject, "JOIN 1 AS Cleo");
    ck_assert(t_last_has(db, "cleo@example.org", "the last one. Game 1 starts with 3 players"));
    /* Every seat has its welcome, with its own secret and the commitment. */
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_str_eq(g.names[0], "Ann");
    ck_assert_str_eq(g.names[2], "Cleo");
    ck_assert_int_eq(cJSON_GetArraySize(g.salts), 3); /* one a seat: Cleo gave none */
    ck_assert_str_eq(cJSON_GetArrayItem(g.salts, 2)->valuestring, "");
    ck_assert_str_eq(g.sched.host_email, "ann@example.org");
    t_want_kind = "welcome";
    for (int s = 0; s < 3; s++) {
        ck_assert_int_eq(t_mails_to(db, g.seats[s].email, "welcome"), 1);
        ck_assert(t_last_has(db, g.seats[s].email, g.seats[s].secret));
        ck_assert(t_last_has(db, g.seats[s].email, g.commitment));
        ck_assert(t_last_has(db, g.seats[s].email, "Salts mixed into the deal: Ann \"blue moon\", Bob \"42 elephants\""));
    }
    t_want_kind = NULL;
    /* The watcher never sees a secret. */
    game_unload(&g);
    /* Play to the end by mail: each answers her latest mail. */
    for (int round = 0; round < 12; round++) {
        ck_assert_int_eq(game_load(db, 1, &g), 0);
        unsigned w = g.ops->waiting_for(g.st);
        if (!w) {
            game_unload(&g);
            break;
        }
        for (int s = 0; s < 3; s++) {
            struct strlist legal = STRLIST_INIT;
            char to[128];
            if (!(w & (1u << s)))
                continue;
            g.ops->legal(g.st, s, &g.table, &legal);
            snprintf(to, sizeof(to), "ngoma+1-%d-%s@localhost", s + 1, g.seats[s].secret);
            t_mail_to(db, g.seats[s].email, to, "Re: [ngoma 1] Kalimambo", legal.v[0], NULL);
            strlist_clear(&legal);
        }
        game_unload(&g);
    }
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_str_eq(g.status, "finished");
    /* The end mails reveal the seed; the host hears the result. */
    ck_assert(t_last_has(db, "walt@example.org", "is over"));
    ck_assert_int_ge(t_mails_to(db, "walt@example.org", "watch"), 6);
    {
        char *watch = NULL;
        ck_assert_int_eq(db_get_text(db, &watch, "SELECT group_concat(mail, '') FROM outbox WHERE rcpt ="
                                                 " 'walt@example.org'", NULL), 1);
        for (int s = 0; s < 3; s++)
            ck_assert_msg(strstr(watch, g.seats[s].secret) == NULL, "the watcher saw %s's secret", g.names[s]);
        free(watch);
    }
    /* Ann hosts and plays: her own game-over mail has the result. */
    ck_assert_int_eq(t_mails_to(db, "ann@example.org", "host-gameover"), 0);
    ck_assert_int_eq(t_mails_to(db, "ann@example.org", "gameover"), 1);
    {
        char seed[32];
        snprintf(seed, sizeof(seed), "Seed: %lld", (long long)g.base_seed);
        ck_assert(t_last_has(db, "bob@example.org", seed));
    }
    /* verify: the commitment, the salts, every step. */
    ck_assert_int_eq(verify_game(db, &g, &report), 0);
    ck_assert_msg(strstr(report.buf, "With one salt a seat (2 given) it deals from"), "%s", report.buf);
    ck_assert_msg(strstr(report.buf, "Seed drawn by ngoma."), "%s", report.buf);
    ck_assert_msg(strstr(report.buf, "The game is over: "), "%s", report.buf);
    game_unload(&g);
    /* Bob asks for a rematch: Ann and Cleo are invited, keep their names. */
    t_lobby(db, "bob@example.org", "rematch", "REMATCH 1");
    ck_assert(t_last_has(db, "bob@example.org", "The rematch of game 1 is game 2"));
    ck_assert(t_last_has(db, "cleo@example.org", "you play as Cleo again"));
    t_lobby(db, "ann@example.org", "join", "JOIN 2");
    t = t_token_of(db, "cleo@example.org", "join");
    snprintf(subject, sizeof(subject), "Re: Invitation (join %s)", t);
    free(t);
    t_lobby(db, "cleo@example.org", subject, "JOIN 2");
    ck_assert_int_eq(game_load(db, 2, &g), 0);
    ck_assert_str_eq(g.names[0], "Bob");
    ck_assert_str_eq(g.names[1], "Ann");
    ck_assert_str_eq(g.names[2], "Cleo");
    game_unload(&g);
    /* MYGAMES lists both, with the reply addresses. */
    t_lobby(db, "cleo@example.org", "mine", "MYGAMES");
    ck_assert(t_last_has(db, "cleo@example.org", "Game 2 (kalimambo, active): you play Cleo, seat 3"));
    ck_assert(t_last_has(db, "cleo@example.org", "Game 1 (kalimambo, finished)"));
    strbuf_release(&report);
    db_close(db);
}
END_TEST

/* MINRELIABILITY and MINRATING refuse joins below them, an invitation
 * lets a player in anyway, LIST says so; RATINGS and PROFILE answer. */
START_TEST(joins_are_gated_by_reliability_and_rating_and_an_invitation_overrides)
{
    sqlite3 *db = t_lobby_db("open");
    const struct game_ops *ku = game_find("kuniumi");
    const char *names[] = { "Bob", "Dan" }, *emails[] = { "bob@example.org", "dan@example.org" };
    struct game_rec g;
    int64_t id;
    char *t, subject[96];

    /* Bob misses a deadline in a game: the order is played for him. */
    ck_assert_int_eq(db_begin(db), 0);
    ck_assert_int_eq(engine_new(db, ku, 2, names, emails, NULL, 7, false, &id, NULL), 0);
    ck_assert_int_eq(game_load(db, id, &g), 0);
    ck_assert_int_eq(engine_play_for(db, &g, 0, "nmr", NULL), 0);
    ck_assert_int_eq(db_commit(db), 0);
    game_unload(&g);
    ck_assert_int_eq(t_count(db, "SELECT score FROM people_reliability WHERE address = 'bob@example.org'"), 0);
    ck_assert_int_eq(t_count(db, "SELECT missed FROM people_reliability WHERE address = 'bob@example.org'"), 1);
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_confirmed(db, "eve@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 3 MINRELIABILITY 80 AS Ann");
    ck_assert(t_last_has(db, "ann@example.org", "is open, and you sit in seat 1 as Ann"));
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi MINRATING 1 AS Ann");
    ck_assert(t_last_has(db, "ann@example.org", "is open"));
    t_lobby(db, "eve@example.org", "list", "LIST");
    ck_assert(t_last_has(db, "eve@example.org", "Ann (reliability 100, rating new)"));
    ck_assert(t_last_has(db, "eve@example.org", "Joins need reliability 80 or an invitation."));
    ck_assert(t_last_has(db, "eve@example.org", "Joins need rating 1 or an invitation."));
    /* Bob is below the reliability, Eve (new: rating 0) below the rating. */
    t_lobby(db, "bob@example.org", "join", "JOIN 2 AS Bob");
    ck_assert(t_last_has(db, "bob@example.org", "takes players of reliability 80 or more, and yours is 0"));
    t_lobby(db, "eve@example.org", "join", "JOIN 3 AS Eve");
    ck_assert(t_last_has(db, "eve@example.org", "takes players rated 1 or more, and your rating in it is new"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE email <> 'ann@example.org'"), 0);
    /* Eve may join game 2 (her reliability is 100). */
    t_lobby(db, "eve@example.org", "join", "JOIN 2 AS Eve");
    ck_assert(t_last_has(db, "eve@example.org", "You sit at game 2 as Eve"));
    /* Ann invites Bob: the invitation lets him in. */
    t_lobby(db, "ann@example.org", "invite", "INVITE 2 bob@example.org");
    t = t_token_of(db, "bob@example.org", "join");
    snprintf(subject, sizeof(subject), "Re: [ngoma] Invitation to Kalimambo game 2 (join %s)", t);
    free(t);
    t_lobby(db, "bob@example.org", subject, "JOIN 2 AS Bob");
    ck_assert(t_last_has(db, "bob@example.org", "the last one"));
    /* RATINGS and PROFILE, as a player reads them. */
    t_lobby(db, "eve@example.org", "ratings", "RATINGS kuniumi");
    ck_assert(t_last_has(db, "eve@example.org", "Nobody has a rating in this game yet"));
    t_lobby(db, "eve@example.org", "profile", "PROFILE Bob");
    ck_assert(t_last_has(db, "eve@example.org", "Reliability: 0 of 100 (steps to play: 1, missed: 1"));
    ck_assert(!t_last_has(db, "eve@example.org", "bob@example.org"));
    t_lobby(db, "eve@example.org", "profile", "PROFILE");
    ck_assert(t_last_has(db, "eve@example.org", "Reliability: 100 of 100"));
    db_close(db);
}
END_TEST

START_TEST(an_unconfirmed_address_gets_one_mail_and_its_commands_wait)
{
    sqlite3 *db = t_lobby_db("open");
    /* A stranger sends NEW in the name of victim@: one mail goes to the
     * victim, saying what was asked; nothing is created. */
    t_lobby(db, "victim@example.org", "x", "NEW kuniumi");
    ck_assert_int_eq(t_mails_to(db, "victim@example.org", NULL), 1);
    ck_assert(t_last_has(db, "victim@example.org", "If you did not write to ngoma, ignore this mail"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables"), 0);
    /* However many more come, the victim hears nothing more. */
    for (int i = 0; i < 20; i++)
        t_lobby(db, "victim@example.org", "x", i % 2 ? "HELP" : "NEW kalimambo");
    ck_assert_int_eq(t_mails_to(db, "victim@example.org", NULL), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables"), 0);
    /* A wrong token confirms nothing. */
    t_lobby(db, "victim@example.org", "Re: [ngoma] Lobby: confirm zzzzzzzzzz", "CONFIRM zzzzzzzzzz");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_addresses WHERE confirmed_at IS NOT NULL"), 0);
    /* The owner's reply with the token: the waiting NEW is done. */
    char *t = t_token_of(db, "victim@example.org", "confirm"), line[64];
    snprintf(line, sizeof(line), "CONFIRM %s", t);
    free(t);
    t_lobby(db, "victim@example.org", "a new mail", line);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables"), 1);
    ck_assert(t_last_has(db, "victim@example.org", "is open, and you sit in seat 1"));
    db_close(db);
}
END_TEST

START_TEST(answers_are_rationed_per_address)
{
    sqlite3 *db = t_lobby_db("open");
    t_confirmed(db, "ann@example.org");
    int64_t before = t_mails_to(db, "ann@example.org", NULL);
    for (int i = 0; i < 30; i++)
        t_lobby(db, "ann@example.org", "list", "LIST");
    /* lobby_per_hour (10) answers, one note, then silence. */
    ck_assert_int_le(t_mails_to(db, "ann@example.org", NULL) - before, 10 + 1);
    ck_assert_int_eq(t_mails_to(db, "ann@example.org", "lobby-limit"), 1);
    ck_assert(t_last_has(db, "ann@example.org", "more than 10 mails this hour"));
    db_close(db);
}
END_TEST

START_TEST(an_invite_flood_mails_each_invitee_once)
{
    sqlite3 *db = t_lobby_db("open");
    struct strbuf err = STRBUF_INIT;
    ck_assert_int_eq(setting_set(db, "lobby_per_hour", "100", &err), 0);
    strbuf_release(&err);
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW bantu SEATS 4");
    for (int i = 0; i < 12; i++) {
        char line[64];
        snprintf(line, sizeof(line), "INVITE 1 friend%d@example.org", i % 3);
        t_lobby(db, "ann@example.org", "invite", line);
    }
    for (int i = 0; i < 3; i++) {
        char to[64];
        snprintf(to, sizeof(to), "friend%d@example.org", i);
        ck_assert_int_eq(t_mails_to(db, to, "invite"), 1);
    }
    /* More invitations than invites_per_hour from one address: refused. */
    for (int i = 3; i < 10; i++) {
        char line[64];
        snprintf(line, sizeof(line), "INVITE 1 friend%d@example.org", i);
        t_lobby(db, "ann@example.org", "invite", line);
    }
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox WHERE kind = 'invite'"), 5);
    ck_assert(t_last_has(db, "ann@example.org", "the most this ngoma sends for one address"));
    /* Another table does not mail an unconfirmed invitee again this month. */
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi");
    t_lobby(db, "ann@example.org", "invite", "INVITE 2 friend0@example.org");
    ck_assert_int_eq(t_mails_to(db, "friend0@example.org", "invite"), 1);
    /* A stranger to the table cannot invite to it. */
    t_confirmed(db, "eve@example.org");
    t_lobby(db, "eve@example.org", "invite", "INVITE 1 someone@example.org");
    ck_assert(t_last_has(db, "eve@example.org", "only the players at game 1 invite to it"));
    ck_assert_int_eq(t_mails_to(db, "someone@example.org", NULL), 0);
    db_close(db);
}
END_TEST

START_TEST(automatic_mail_is_never_answered)
{
    sqlite3 *db = t_lobby_db("open");
    static const char *const headers[] = { "Auto-Submitted: auto-replied", "Precedence: bulk",
                                           "List-Id: <players.example.org>", "X-Autoreply: yes" };
    for (size_t i = 0; i < ARRAY_SIZE(headers); i++) {
        struct inbound_result r = t_mail_to(db, "ann@example.org", "ngoma@localhost", "Re: Lobby", "HELP", headers[i]);
        ck_assert_int_eq(r.status, INBOUND_IGNORED);
    }
    t_mail_to(db, "mailer-daemon@example.org", "ngoma@localhost", "failure", "HELP", NULL);
    t_mail_to(db, "ann@example.org", "ngoma@localhost", "Out of office: back Monday", "HELP", NULL);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox"), 0);
    db_close(db);
}
END_TEST

START_TEST(strangers_cannot_command_others_games)
{
    sqlite3 *db = t_lobby_db("open");
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "eve@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi AS Ann");
    t_lobby(db, "eve@example.org", "start", "START 1");
    ck_assert(t_last_has(db, "eve@example.org", "only the host of game 1 starts it"));
    t_lobby(db, "eve@example.org", "leave", "LEAVE 1");
    ck_assert(t_last_has(db, "eve@example.org", "you do not sit at game 1"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE status = 'open'"), 1);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players"), 1);
    /* Nor end, rematch or join a game that has started without a seat. */
    t_lobby(db, "ann@example.org", "start", "START 1");
    ck_assert(t_last_has(db, "ann@example.org", "Game 1 starts with 2 players"));
    t_lobby(db, "eve@example.org", "join", "JOIN 1 AS Eve");
    ck_assert(t_last_has(db, "eve@example.org", "game 1 is not waiting for players (it has started)"));
    t_lobby(db, "eve@example.org", "rematch", "REMATCH 1");
    ck_assert(t_last_has(db, "eve@example.org", "only the players of game 1 ask for its rematch"));
    /* The host's commands need the host secret, not the lobby. */
    t_mail_to(db, "eve@example.org", "ngoma+1@localhost", "x", "END ABANDON bye", NULL);
    struct game_rec g;
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert_str_ne(g.status, "finished");
    game_unload(&g);
    db_close(db);
}
END_TEST

/* The bot words of the lobby: NMR bot:strong, START 12 BOT:STRONG (or a
 * word that is no level, refused with what would be right), REMATCH with
 * the bots kept at their level or changed. */
START_TEST(bots_of_a_level_fill_seats_and_rematches)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_rec g;
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi DEADLINE 48h NMR bot:strong AS Ann");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE nmr = 'bot' AND nmr_level = 'strong'"), 1);
    t_lobby(db, "ann@example.org", "start", "START 1 BOT:GENIUS");
    ck_assert(t_last_has(db, "ann@example.org", "START 12 BOT:EASY or START 12 BOT:STRONG"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games"), 0);
    t_lobby(db, "ann@example.org", "start", "START 1 bot:easy");
    ck_assert(t_last_has(db, "ann@example.org", "Easy bots play the empty seats."));
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    ck_assert(g.seats[1].bot);
    ck_assert_str_eq(g.seats[1].bot_level, "easy");
    ck_assert_str_eq(g.sched.nmr, "bot");
    ck_assert_str_eq(g.sched.nmr_level, "strong");
    t_seat_mail(db, &g, 0, "ann@example.org", "RESIGN");
    game_unload(&g);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games WHERE status = 'finished'"), 1);
    /* Over: the rematch keeps the bot's level unless it is given. */
    t_lobby(db, "ann@example.org", "rematch", "REMATCH 1");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE email = 'bot' AND bot_level = 'easy'"), 1);
    t_lobby(db, "ann@example.org", "rematch", "REMATCH 1 BOT:STRONG");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_players WHERE email = 'bot' AND bot_level = 'strong'"), 1);
    db_close(db);
}
END_TEST

/* Strong bots a lobby opener seats are hers to spend, not the host's:
 * at most lobby_strong_bots in her unfinished games and as many started
 * an hour; refused with what would work (easy bots), each opener apart. */
START_TEST(strong_bots_count_against_their_openers_share)
{
    sqlite3 *db = t_lobby_db("open");
    struct strbuf err = STRBUF_INIT;
    struct game_rec g;
    setenv("NGOMA_NOW", "2026-12-01T10:00:00Z", 1);
    ck_assert_int_eq(setting_set(db, "lobby_strong_bots", "3", &err), 0);
    t_confirmed(db, "ann@example.org");
    t_confirmed(db, "bob@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 3 AS Ann");
    t_lobby(db, "ann@example.org", "start", "START 1 BOT:STRONG");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM seats WHERE game_id = 1 AND bot_level = 'strong'"), 2);
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 3 AS Ann");
    t_lobby(db, "ann@example.org", "start", "START 2 BOT:STRONG");
    ck_assert(t_last_has(db, "ann@example.org", "cannot start with 2 strong bots"));
    ck_assert(t_last_has(db, "ann@example.org", "START 2 BOT:EASY plays the empty seats"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games WHERE id = 2"), 0);
    t_lobby(db, "ann@example.org", "start", "START 2 BOT:EASY");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games WHERE id = 2"), 1);
    /* Bob's share is his own. */
    t_lobby(db, "bob@example.org", "new", "NEW kalimambo SEATS 3 AS Bob");
    t_lobby(db, "bob@example.org", "start", "START 3 BOT:STRONG");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM seats WHERE game_id = 3 AND bot_level = 'strong'"), 2);
    /* Ann leaves game 1: no person is left and it ends; the hour still
     * counts its bots, so she cannot start two more at once ... */
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    t_seat_mail(db, &g, 0, "ann@example.org", "RESIGN");
    game_unload(&g);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games WHERE id = 1 AND status = 'finished'"), 1);
    t_lobby(db, "ann@example.org", "new", "NEW kalimambo SEATS 3 AS Ann");
    t_lobby(db, "ann@example.org", "start", "START 4 BOT:STRONG");
    ck_assert(t_last_has(db, "ann@example.org", "2 started in the last hour"));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM games WHERE id = 4"), 0);
    /* ... until the hour has passed. */
    setenv("NGOMA_NOW", "2026-12-01T11:00:01Z", 1);
    t_lobby(db, "ann@example.org", "start", "START 4 BOT:STRONG");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM seats WHERE game_id = 4 AND bot_level = 'strong'"), 2);
    unsetenv("NGOMA_NOW");
    strbuf_release(&err);
    db_close(db);
}
END_TEST

START_TEST(the_lobby_setting_decides_who_may_open_games)
{
    sqlite3 *db = t_lobby_db("off");
    struct strbuf err = STRBUF_INIT;
    struct inbound_result r = t_lobby(db, "ann@example.org", "How do I join?", "HELP");
    ck_assert_int_eq(r.status, INBOUND_IGNORED);
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM outbox"), 0);
    ck_assert_int_eq(setting_set(db, "lobby", "invite", &err), 0);
    ck_assert_int_eq(setting_set(db, "lobby_creators", "boss@example.org, @club.example.org", &err), 0);
    ck_assert_int_ne(setting_set(db, "lobby_creators", "not an address", &err), 0);
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi");
    ck_assert(t_last_has(db, "ann@example.org", "only the addresses its host lists open games"));
    t_confirmed(db, "dan@club.example.org");
    t_lobby(db, "dan@club.example.org", "new", "NEW kuniumi");
    ck_assert(t_last_has(db, "dan@club.example.org", "is open"));
    /* Anyone confirmed may join what a creator opened. */
    t_lobby(db, "ann@example.org", "join", "JOIN 1");
    ck_assert(t_last_has(db, "ann@example.org", "Game 1 starts with 2 players"));
    strbuf_release(&err);
    db_close(db);
}
END_TEST

START_TEST(verify_fails_when_a_seed_or_a_deal_is_altered)
{
    static const char *const tamper[] = {
        "UPDATE games SET seed = seed + 1",
        "UPDATE games SET base_seed = base_seed + 1",
        "UPDATE games SET salts = '[\"another\"]'",
        "UPDATE turns SET public_view = json_set(public_view, '$.kali_cards_left[0]', 99) WHERE turn = 0",
        "UPDATE turns SET log = log || 'x' WHERE turn = 2",
        "UPDATE turns SET orders = json_set(orders, '$[0].order', 'PLAY 11') WHERE turn = 1",
    };
    for (size_t i = 0; i <= ARRAY_SIZE(tamper); i++) {
        sqlite3 *db = t_db();
        struct game_rec g;
        struct strbuf report = STRBUF_INIT;
        t_new_game(db, "kalimambo", 3, 5, NULL, &g);
        for (int round = 0; round < 3; round++)
            for (int s = 0; s < 3; s++) {
                struct strlist legal = STRLIST_INIT;
                g.ops->legal(g.st, s, &g.table, &legal);
                t_ok(db, &g, s, legal.v[(size_t)(round + s) % legal.n]);
                strlist_clear(&legal);
            }
        game_unload(&g);
        if (i < ARRAY_SIZE(tamper))
            ck_assert_int_eq(sqlite3_exec(db, tamper[i], NULL, NULL, NULL), SQLITE_OK);
        ck_assert_int_eq(game_load(db, 1, &g), 0);
        int rc = verify_game(db, &g, &report);
        if (i == ARRAY_SIZE(tamper))
            ck_assert_msg(rc == 0, "an honest game fails: %s", report.buf);
        else
            ck_assert_msg(rc == 1, "\"%s\" passes verify: %s", tamper[i], report.buf);
        /* The public record, without the database, says the same. */
        cJSON *rec = verify_export(db, &g, true);
        strbuf_reset(&report);
        int rc2 = verify_record(rec, OPTIONS_RECORD, &report);
        if (i == ARRAY_SIZE(tamper) || i >= 3)
            ck_assert_int_eq(rc2, i == ARRAY_SIZE(tamper) ? 0 : 1);
        cJSON_Delete(rec);
        game_unload(&g);
        strbuf_release(&report);
        db_close(db);
    }
}
END_TEST

/* A host who does not play hears the result once, with the seed. */
START_TEST(the_host_is_told_when_a_game_ends)
{
    sqlite3 *db = t_db();
    struct game_rec g;
    struct strbuf err = STRBUF_INIT;
    struct schedule_opts so = { 0 };
    t_new_game(db, "kalimambo", 3, 9, NULL, &g);
    so.host = "boss@example.org";
    ck_assert_int_eq(schedule_configure(db, g.id, &so, &err), 0);
    game_unload(&g);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    while (g.ops->waiting_for(g.st)) {
        unsigned w = g.ops->waiting_for(g.st);
        for (int s = 0; s < 3; s++)
            if (w & (1u << s)) {
                struct strlist legal = STRLIST_INIT;
                struct submission sub = { 0 };
                g.ops->legal(g.st, s, &g.table, &legal);
                ck_assert_int_eq(db_begin(db), 0);
                ck_assert_int_eq(engine_submit(db, &g, s, legal.v[0], "test", 0, &sub), 0);
                ck_assert_int_eq(notify_submission(db, &g, s, &sub, NULL), 0);
                ck_assert_int_eq(db_commit(db), 0);
                submission_release(&sub);
                strlist_clear(&legal);
            }
    }
    ck_assert_int_eq(t_mails_to(db, "boss@example.org", "host-gameover"), 1);
    char seed[40];
    snprintf(seed, sizeof(seed), "Seed: %lld", (long long)g.base_seed);
    ck_assert(t_last_has(db, "boss@example.org", seed));
    ck_assert(t_last_has(db, "boss@example.org", "Kalimambo game 1 is over."));
    strbuf_release(&err);
    game_unload(&g);
    db_close(db);
}
END_TEST

/* A game's terms are read by one table (judge/gamespec.c): the lobby's
 * NEW takes what ngoma new takes (REMIND and GRACE too), keeps them with
 * the table, starts the game with them, and a rematch keeps them; a term
 * out of bounds or alone says what would be right; HELP names every term. */
START_TEST(the_lobby_and_the_shell_read_the_same_terms)
{
    sqlite3 *db = t_lobby_db("open");
    struct game_spec spec;
    struct strbuf err = STRBUF_INIT;
    struct game_rec g;
    const char *shell[][2] = { { "deadline", "2d" }, { "remind", "12h" }, { "grace", "6h" }, { "nmr", "bot:easy" } };
    const char *same = "SELECT count(*) FROM games WHERE deadline_secs = 172800 AND grace_secs = 21600 AND"
                       " reminder_secs = '[43200]' AND nmr = 'bot' AND nmr_level = 'easy'";
    t_confirmed(db, "ann@example.org");
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi NMR bot AS Ann");
    ck_assert(t_last_has(db, "ann@example.org", "REMIND, GRACE and NMR need a DEADLINE, like DEADLINE 48h"));
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi DEADLINE 5m AS Ann");
    ck_assert(t_last_has(db, "ann@example.org", "DEADLINE takes a time from 1h to 30d, like 48h, not \"5m\""));
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi SEATS 9 AS Ann");
    ck_assert(t_last_has(db, "ann@example.org", "SEATS takes a number from 2 to 2 for KuniUmi, not \"9\""));
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables"), 0);
    t_lobby(db, "ann@example.org", "help", "HELP");
    for (int i = 0; game_spec_term(i, SPEC_LOBBY); i++) {
        char word[32];
        snprintf(word, sizeof(word), "[%s ", game_spec_term(i, SPEC_LOBBY));
        for (char *c = word; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        ck_assert_msg(t_last_has(db, "ann@example.org", word), "HELP lacks %s", word);
    }
    t_lobby(db, "ann@example.org", "new", "NEW kuniumi DEADLINE 2d REMIND 12h GRACE 6h NMR bot:easy AS Ann");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE grace_secs = 21600 AND reminder_secs ="
                                 " '[43200]' AND deadline_secs = 172800"),
                     1);
    t_lobby(db, "ann@example.org", "start", "START 1");
    ck_assert_int_eq(t_count(db, same), 1);
    /* The shell's flags, read by the same table, make the same clock. */
    game_spec_init(&spec, game_find("kuniumi"));
    for (size_t i = 0; i < sizeof(shell) / sizeof(shell[0]); i++)
        ck_assert_int_eq(game_spec_set(&spec, shell[i][0], shell[i][1], SPEC_HOST, &err), 0);
    ck_assert_int_eq(game_spec_set(&spec, "minrating", "400", SPEC_HOST, &err), 1);
    {
        const char *names[] = { "Cy", "Di" }, *emails[] = { "cy@example.org", "di@example.org" };
        struct new_game ng = { spec.ops, 2, names, emails, spec.options, 5, NULL, 0, true };
        int64_t id;
        ck_assert_int_eq(db_begin(db), 0);
        ck_assert_int_eq(game_start(db, &ng, &spec, &id, &err), 0);
        ck_assert_int_eq(db_commit(db), 0);
    }
    game_spec_release(&spec);
    ck_assert_int_eq(t_count(db, same), 2);
    ck_assert_int_eq(game_load(db, 1, &g), 0);
    t_seat_mail(db, &g, 0, "ann@example.org", "RESIGN");
    game_unload(&g);
    t_lobby(db, "ann@example.org", "rematch", "REMATCH 1");
    ck_assert_int_eq(t_count(db, "SELECT count(*) FROM lobby_tables WHERE rematch_of = 1 AND grace_secs = 21600 AND"
                                 " reminder_secs = '[43200]' AND deadline_secs = 172800 AND nmr = 'bot' AND nmr_level ="
                                 " 'easy'"),
                     1);
    strbuf_release(&err);
    db_close(db);
}
END_TEST

Suite *lobby_suite(void)
{
    Suite *s = suite_create("lobby");
    TCase *tc = tcase_create("lobby");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_game_is_opened_joined_started_watched_played_rematched_and_verified);
    tcase_add_test(tc, an_unconfirmed_address_gets_one_mail_and_its_commands_wait);
    tcase_add_test(tc, answers_are_rationed_per_address);
    tcase_add_test(tc, an_invite_flood_mails_each_invitee_once);
    tcase_add_test(tc, automatic_mail_is_never_answered);
    tcase_add_test(tc, strangers_cannot_command_others_games);
    tcase_add_test(tc, bots_of_a_level_fill_seats_and_rematches);
    tcase_add_test(tc, the_lobby_setting_decides_who_may_open_games);
    tcase_add_test(tc, verify_fails_when_a_seed_or_a_deal_is_altered);
    tcase_add_test(tc, the_host_is_told_when_a_game_ends);
    tcase_add_test(tc, strong_bots_count_against_their_openers_share);
    tcase_add_test(tc, joins_are_gated_by_reliability_and_rating_and_an_invitation_overrides);
    tcase_add_test(tc, the_lobby_reads_people);
    tcase_add_test(tc, the_lobby_and_the_shell_read_the_same_terms);
    suite_add_tcase(s, tc);
    return s;
}
