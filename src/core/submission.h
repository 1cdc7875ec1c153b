/* submission.h: what became of one order text (one mail, one `ngoma order`): its lines, each with its outcome and answer. */
#ifndef NGOMA_SUBMISSION_H
#define NGOMA_SUBMISSION_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "lib/strbuf.h"

enum line_status {
    LINE_ACCEPTED, /* an order that was resolved (or a RESIGN) */
    LINE_PENDING,  /* an order recorded for a simultaneous step still missing others */
    LINE_REJECTED, /* an order refused, with the reason */
    LINE_INFO,     /* HELP, BOARD, LEGAL, HISTORY: information asked for */
    LINE_GREETING, /* "thanks, Ann": read as what people write around orders, no order */
    LINE_PRESS,    /* press sent, or a MUTE done: canonical says what, for the first line */
    LINE_PLANNED,  /* a conditional order kept secret (IF ... THEN ...), or plans cancelled */
};

struct line_result {
    char *text;            /* the line as read: in English (lib/lexicon.h) */
    char *written;         /* as she wrote it, when that differs; else NULL */
    enum line_status status;
    char *canonical;       /* for an order the game took: its canonical form */
    struct strbuf body;    /* the reason, what happened, or the information */
    bool quiet;            /* needs no answer of its own: press sent to every seat it named */
};

/* What became of one order text (one mail, one `ngoma order`). */
struct submission {
    struct line_result *lines;
    size_t n, alloc;
    int turn_before;       /* the game's turn when the text arrived */
    int turn_lines;        /* after its own lines, before bots and forced orders played on */
    int turn_after;        /* and after it: turns in between were resolved */
    time_t deadline_before, deadline_after; /* the step's effective deadline (0: none) */
};

void submission_release(struct submission *s);
/* A new line at the end of s, status LINE_ACCEPTED, its body empty. */
struct line_result *submission_line(struct submission *s, const char *text);

#endif
