/* breakout.h - breakout as the engine's host sees it: one GameApi table (strata/host/
   game_api.h). main.c hands it to st_host_main; the tests drive it through st_host_create.

       Host *h = st_host_create(perm, breakout_api(), &(HostOptions){.headless = true, .run_ends = true},
                                &(BreakoutOptions){.replay = "demo.bkr"});
       while (st_host_frame(h)) {}
       int status = st_host_release(h);              // 3: the replay did not end on its hash

   Where its memory goes, by lifetime: the Breakout, its font texture, sounds and input log
   in the permanent arena; the current level's wall in the level arena (sim.h clears it on
   every level); HUD text in the frame arena; the font's pixels, the sounds' float mix
   and the log's file text in scratch scopes. */
#ifndef BREAKOUT_H_
#define BREAKOUT_H_

#include <stdbool.h>

#include <strata/host/host.h>

#include "sim.h"

typedef struct BreakoutOptions {
    const char *record, *replay; /* input log files (input_log.h) */
    bool autoplay;               /* a deterministic bot plays (sim_bot) */
    bool mute;                   /* no sound device */
} BreakoutOptions;

const GameApi *breakout_api(void);
/* The rules' state of a running game (tests read it after the host's release: it lives
   in the permanent arena). */
const Sim *breakout_sim(const void *state);

#endif
