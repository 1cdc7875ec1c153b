/* runstats.h: what one pass of the clock did (games looked at, reminders, bots, drops, digests): counted by the schedule and the strong bots, reported by run and serve. */
#ifndef NGOMA_RUNSTATS_H
#define NGOMA_RUNSTATS_H

struct schedule_stats {
    int games;      /* looked at */
    int reminders;  /* sent */
    int bots;       /* missing orders played by a bot */
    int drops;      /* seats dropped */
    int stalled;    /* hosts told of a stalled game */
    int bot_steps;  /* steps the bots played */
    int bot_games;  /* games the bots played in */
    int digests;    /* MAIL DIGEST mails sent */
};

#endif
