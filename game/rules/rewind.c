/* rewind.c - the Game's history and the rewind input (see rewind.h). */
#include "rules/rewind.h"

#include <strata/core/diag.h>

static bool on_play_screen(const Game *g) {
    return g->screen == SCREEN_PLAYING || g->screen == SCREEN_TRANSITION || g->screen == SCREEN_GAME_OVER ||
           g->screen == SCREEN_VICTORY;
}

void rewind_regions(Game *g, HistoryRegion out[2]) {
    out[0] = (HistoryRegion){.data = g, .size = game_play_bytes()};
    out[1] = (HistoryRegion){.arena = g->level_arena};
}

bool rewind_init(Rewind *rw, Arena *history_arena, Game *g, Error *err) {
    *rw = (Rewind){0};
    rewind_regions(g, rw->regions);
    /* The largest state accepted: the play span and a level arena full to its end (the
       history takes only what the states recorded need). */
    HistoryParams p = {.ticks = REWIND_TICKS,
                       .state_max = game_play_bytes() + st_arena_capacity(g->level_arena),
                       .keyframe_every = REWIND_KEYFRAME_EVERY,
                       .deltas = true};
    rw->history = history_arena ? st_history_create(history_arena, &p, err) : NULL;
    if (!history_arena) st_error_set(err, ERROR_REFUSED, NULL, 0, 0, "rewind: no history arena");
    return rw->history != NULL;
}

int32_t rewind_speed_for(int32_t held) {
    return held > 2 * REWIND_FASTER_TICKS ? 4 : held > REWIND_FASTER_TICKS ? 2 : 1;
}

void rewind_forget(Rewind *rw) {
    if (rw->history) st_history_clear(rw->history, st_history_stats(rw->history).next);
    rw->held = 0, rw->speed = 0, rw->at_start = false, rw->empty_hold = false;
}

/* The tick going back: as many states as the hold's speed, the newest first. False when
   nothing was there to go back to at the start of the hold (the tick then plays). */
static bool go_back(Rewind *rw, Game *g) {
    rw->held++;
    if (rw->held == 1 && st_history_count(rw->history) == 0) rw->empty_hold = true;
    if (rw->empty_hold) return false;
    int32_t want = rewind_speed_for(rw->held), done = 0;
    while (done < want && st_history_pop(rw->history, rw->regions, 2) != HISTORY_NONE) done++;
    rw->speed = done;
    rw->ticks_rewound += (uint64_t)done;
    if (done) {
        /* The clock went back: this level's clear, or the one its card shows, is not counted. */
        g->rewound = true, g->clear_rewound = true;
        rw->at_start = st_history_count(rw->history) == 0;
        return true;
    }
    return rw->at_start; /* stands still at the oldest state until let go */
}

/* A card that waits for the player (game over, victory) once its delay is over: its ticks
   change nothing a rewind would go back to, and recording them would push the play before
   them out of the history. */
static bool card_waiting(const Game *g) {
    return (g->screen == SCREEN_GAME_OVER && g->screen_ticks > GAME_OVER_DELAY) ||
           (g->screen == SCREEN_VICTORY && g->screen_ticks > SIM_HZ);
}

/* The state before this tick, for a later rewind. A state the arena cannot hold leaves the
   history empty (said once): play goes on without rewinding. An entry dropped for room
   while fewer than REWIND_TICKS are held is said once too, in the log: it is for whoever
   sizes the arena (--history-arena), not for the player. */
static void snapshot(Rewind *rw, uint32_t input) {
    Error err;
    uint64_t dropped = st_history_stats(rw->history).dropped_for_bytes;
    if (st_history_record(rw->history, (uint16_t)input, rw->regions, 2, &err) == HISTORY_NONE) {
        st_history_clear(rw->history, st_history_stats(rw->history).next);
        if (!rw->short_warned) st_diag_report(DIAG_WARNING, "warning: %s: rewinding is off here", err.message);
        rw->short_warned = true;
        return;
    }
    HistoryStats s = st_history_stats(rw->history);
    if (s.dropped_for_bytes > dropped && s.count < REWIND_TICKS && !rw->short_warned) {
        st_diag_report(DIAG_NOTE,
                       "rewind: the history arena's ring (%llu bytes) held %u ticks here, not %d: rewinding reaches"
                       " less far (--history-arena)",
                       (unsigned long long)s.ring_bytes, s.count, REWIND_TICKS);
        rw->short_warned = true;
    }
}

void rewind_update(Rewind *rw, Game *g, uint32_t input) {
    bool play = on_play_screen(g) && rw->history;
    if (play && (input & GAME_IN_REWIND) && go_back(rw, g)) return;
    if (!(input & GAME_IN_REWIND)) rw->held = 0, rw->empty_hold = false;
    rw->speed = 0, rw->at_start = false;
    if (play && !card_waiting(g)) snapshot(rw, input);
    else if (rw->history && (g->screen == SCREEN_TITLE || g->screen == SCREEN_LEVEL_SELECT))
        st_history_clear(rw->history, st_history_stats(rw->history).next);
    game_update(g, input & ~(uint32_t)GAME_IN_REWIND);
}
