/* viewer.c - the replay viewer: keyframes, seeks, its keys and its bar (see viewer.h). */
#include "app/viewer.h"

#include <SDL2/SDL.h>
#include <string.h>

#include <strata/core/base.h>
#include <strata/core/str8.h>
#include "front/draw.h"

#define BAR_INSET 6.0f /* the track's margin from the screen's sides */

static HistoryParams keys_params(const ViewerParams *p) {
    /* One entry per tick of the run and one for its end: nothing is ever dropped. */
    return (HistoryParams){.ticks = p->replay->ticks + 1,
                           .bytes = p->bytes,
                           .state_max = p->state_max,
                           .keyframe_every = p->keyframe_every ? p->keyframe_every : VIEWER_KEYFRAME_EVERY,
                           .deltas = false};
}

uint64_t viewer_size(const ViewerParams *p) {
    HistoryParams hp = keys_params(p);
    return sizeof(Viewer) + 64 + st_history_size(&hp);
}

Viewer *viewer_create(Arena *arena, const ViewerParams *p, Error *err) {
    uint64_t pos = st_arena_pos(arena);
    Viewer *v = st_arena_push_struct(arena, Viewer);
    if (!v) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0, "viewer: ");
        st_arena_error(err);
        return NULL;
    }
    v->p = *p;
    if (!v->p.keyframe_every) v->p.keyframe_every = VIEWER_KEYFRAME_EVERY;
    v->ticks = p->replay->ticks;
    HistoryParams hp = keys_params(&v->p);
    v->keys = st_history_create(arena, &hp, err);
    v->arena_bytes = st_arena_pos(arena) - pos;
    if (v->keys) return v;
    st_arena_pop_to(arena, pos); /* the arena as it was, for what comes next (v with it) */
    return NULL;
}

static void game_step(void *ctx, uint16_t input) {
    ViewerGame *vg = ctx;
    rewind_update(vg->rw, vg->g, input);
}

static void game_forget(void *ctx) { rewind_forget(((ViewerGame *)ctx)->rw); }

ViewerParams viewer_game_params(Replay *r, ViewerGame *vg, uint64_t bytes, uint64_t state_max) {
    Game *g = vg->g;
    rewind_regions(g, vg->regions);
    vg->regions[2] = (HistoryRegion){.data = &g->save, .size = sizeof g->save};
    return (ViewerParams){.replay = r,
                          .g = g,
                          .regions = vg->regions,
                          .region_count = 3,
                          .step = game_step,
                          .forget = game_forget,
                          .ctx = vg,
                          .history_bits = GAME_IN_REWIND,
                          .bytes = bytes,
                          .state_max = state_max};
}

static void mark(Viewer *v, uint32_t tick, ViewerMarkKind kind) {
    if (v->mark_count == VIEWER_MARKS_MAX) {
        v->marks_dropped++;
        return;
    }
    v->marks[v->mark_count++] = (ViewerMark){.tick = tick, .kind = (uint8_t)kind};
}

/* One tick of the pass: its input and the state before it kept, the tick played, and a
   mark where it changed the level or started it again. */
static bool pass_tick(Viewer *v, uint32_t tick, uint16_t input, Error *err) {
    const Game *g = v->p.g;
    /* Stop before the ring would drop the first keyframe (the way back to the start): a
       keyframe's coding is at most its bytes and a little. */
    uint64_t raw = 64;
    for (uint32_t i = 0; i < v->p.region_count; i++)
        raw += v->p.regions[i].arena ? st_arena_pos(v->p.regions[i].arena) : v->p.regions[i].size;
    HistoryStats s = st_history_stats(v->keys);
    if (s.ring_bytes < s.held_bytes + 2 * raw) {
        /* What the whole run would take at the rate so far, with a quarter to spare. */
        v->ring_need = s.held_bytes / (tick ? tick : 1) * v->ticks / 4 * 5 + 2 * raw;
        return st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0,
                            "viewer: the run's keyframes do not fit their ring of %llu bytes (at tick %u of %u: the"
                            " run needs about %llu)",
                            (unsigned long long)s.ring_bytes, tick, v->ticks, (unsigned long long)v->ring_need);
    }
    int32_t number = g->level_number;
    uint32_t serial = g->sim.level_serial;
    if (st_history_record(v->keys, input, v->p.regions, v->p.region_count, err) == HISTORY_NONE) return false;
    v->p.step(v->p.ctx, input);
    if (g->level_number != number) mark(v, tick + 1, VIEWER_MARK_LEVEL);
    else if (g->sim.level_serial != serial) mark(v, tick + 1, VIEWER_MARK_RESTART);
    return true;
}

/* A pass that failed after `played` ticks: the Game back on its first tick when that is
   still held (or was never left). */
static bool pass_failed(Viewer *v, uint32_t played) {
    bool back = !played || st_history_restore(v->keys, 0, v->p.regions, v->p.region_count) == 0;
    if (back && v->p.forget) v->p.forget(v->p.ctx);
    v->tick = back ? 0 : HISTORY_NONE;
    return false;
}

bool viewer_open(Viewer *v, Error *err) {
    uint64_t t0 = SDL_GetPerformanceCounter();
    const Replay *r = v->p.replay;
    uint32_t tick = 0;
    for (uint32_t i = 0; i < r->run_count; i++)
        for (uint32_t k = 0; k < r->runs[i].count; k++, tick++)
            if (!pass_tick(v, tick, (uint16_t)r->runs[i].input, err)) return pass_failed(v, tick);
    v->end_hash = game_hash(v->p.g);
    v->end_run_hash = game_run_hash(v->p.g);
    v->end_levels = v->p.g->sim.progress.levels_completed;
    /* The end as an entry of its own, so that a seek to it restores a state that is held. */
    if (st_history_record(v->keys, 0, v->p.regions, v->p.region_count, err) == HISTORY_NONE)
        return pass_failed(v, tick);
    HistoryStats s = st_history_stats(v->keys);
    if (s.dropped || s.first != 0) {
        st_error_set(err, ERROR_OUT_OF_MEMORY, NULL, 0, 0,
                     "viewer: the history arena holds %u of the run's %u ticks (--history-arena)", s.count,
                     v->ticks + 1);
        return pass_failed(v, tick);
    }
    v->tick = tick;
    v->opened = true;
    v->open_ns = (SDL_GetPerformanceCounter() - t0) * 1000000000ull / SDL_GetPerformanceFrequency();
    viewer_seek(v, 0);
    v->seeks = v->seek_ticks = 0, v->worst_seek_ticks = 0;
    return true;
}

/* Does an input of ticks [from, to) read the state the keyframes do not hold? */
static bool reads_outside(const Viewer *v, uint64_t from, uint64_t to) {
    if (!v->p.history_bits) return false;
    for (uint64_t t = from; t < to; t++)
        if (st_history_input(v->keys, t) & v->p.history_bits) return true;
    return false;
}

/* Where a seek to t plays from, that state put in place: here when t is a little ahead,
   else the keyframe at or before t, else the start (above). The tick before t counts even
   on a keyframe: what is drawn at t (the rewind's tint) is what that tick did. */
static uint64_t seek_start(Viewer *v, uint64_t t) {
    bool ahead = t >= v->tick && t - v->tick < v->p.keyframe_every;
    if (ahead && (!v->forgotten || !reads_outside(v, v->tick, t))) return v->tick;
    uint64_t k = st_history_restore(v->keys, t, v->p.regions, v->p.region_count);
    if (reads_outside(v, k == t && t ? t - 1 : k, t))
        k = st_history_restore(v->keys, 0, v->p.regions, v->p.region_count);
    if (v->p.forget) v->p.forget(v->p.ctx);
    v->forgotten = k != 0;
    return k;
}

uint64_t viewer_seek(Viewer *v, uint64_t tick) {
    if (!v->opened) return v->tick;
    uint64_t t = MIN(tick, (uint64_t)v->ticks);
    if (t == v->tick) return t;
    uint64_t k = seek_start(v, t);
    for (uint64_t i = k; i < t; i++) v->p.step(v->p.ctx, st_history_input(v->keys, i));
    v->seeks++;
    v->seek_ticks += t - k;
    v->worst_seek_ticks = MAX(v->worst_seek_ticks, (uint32_t)(t - k));
    v->tick = t;
    return t;
}

ViewerTick viewer_next(Viewer *v, uint16_t *input) {
    if (!v->opened) return VIEWER_TICK_NONE;
    /* A step key held past the repeat delay: a tick (or a second) per tick, forward as
       play (effects and sound) when it is one tick, else as a seek. */
    v->held = v->hold_dir ? v->held + 1 : 0;
    bool repeat = v->hold_dir && v->held > VIEWER_REPEAT_AFTER;
    if (repeat && (v->hold_dir < 0 || v->hold_unit > 1 || v->tick >= v->ticks)) {
        uint64_t back = MIN(v->tick, (uint64_t)v->hold_unit);
        uint64_t to = v->hold_dir < 0 ? v->tick - back : v->tick + (uint64_t)v->hold_unit;
        uint64_t from = v->tick;
        return viewer_seek(v, to) != from ? VIEWER_TICK_MOVED : VIEWER_TICK_NONE;
    }
    if (!repeat && v->paused) return VIEWER_TICK_NONE;
    if (v->tick >= v->ticks) {
        v->paused = true;
        return VIEWER_TICK_NONE;
    }
    /* The rewind's history was emptied by a seek: a tick that reads it is reached as a
       seek (from the start), since played here it would not go back as the run did. */
    if (v->forgotten && reads_outside(v, v->tick, v->tick + 1)) {
        viewer_seek(v, v->tick + 1);
        return VIEWER_TICK_MOVED;
    }
    *input = st_history_input(v->keys, v->tick++);
    return VIEWER_TICK_PLAY;
}

uint64_t viewer_tick_at(const Viewer *v, float x, float w) {
    float span = w - 2 * BAR_INSET;
    float f = span > 0 ? (x - BAR_INSET) / span : 0;
    f = CLAMP(f, 0.0f, 1.0f);
    return (uint64_t)(f * (float)v->ticks + 0.5f);
}

/* The step keys: Left/Right (d-pad) a tick, with Shift (or the shoulders) a second,
   PageUp/PageDown ten seconds; what is held repeats in viewer_next. 0: none this frame. */
static int64_t step_asked(Viewer *v, const Input *in) {
    bool shift = st_input_key_held(in, SDL_SCANCODE_LSHIFT) || st_input_key_held(in, SDL_SCANCODE_RSHIFT);
    int64_t unit = shift ? SIM_HZ : 1;
    bool left = st_input_key_held(in, SDL_SCANCODE_LEFT) || (in->pad_down >> SDL_CONTROLLER_BUTTON_DPAD_LEFT & 1);
    bool right = st_input_key_held(in, SDL_SCANCODE_RIGHT) || (in->pad_down >> SDL_CONTROLLER_BUTTON_DPAD_RIGHT & 1);
    /* A tap steps by what went down, held or not: on a slow frame a key can go down and up
       again between two frames, and that is still one step. */
    bool hit_left = st_input_key_hit(in, SDL_SCANCODE_LEFT) || st_input_pad_hit(in, SDL_CONTROLLER_BUTTON_DPAD_LEFT);
    bool hit_right = st_input_key_hit(in, SDL_SCANCODE_RIGHT) || st_input_pad_hit(in, SDL_CONTROLLER_BUTTON_DPAD_RIGHT);
    v->hold_dir = left == right ? 0 : right ? 1 : -1;
    v->hold_unit = (int32_t)unit;
    int64_t step = ((int64_t)hit_right - (int64_t)hit_left) * unit;
    if (st_input_pad_hit(in, SDL_CONTROLLER_BUTTON_LEFTSHOULDER)) step -= SIM_HZ;
    if (st_input_pad_hit(in, SDL_CONTROLLER_BUTTON_RIGHTSHOULDER)) step += SIM_HZ;
    if (st_input_key_hit(in, SDL_SCANCODE_PAGEUP)) step -= 10 * SIM_HZ;
    if (st_input_key_hit(in, SDL_SCANCODE_PAGEDOWN)) step += 10 * SIM_HZ;
    return step;
}

/* The mouse on the bar: a press there seeks and takes it, a drag seeks along; NONE: not
   this frame. A press released within the same frame (a touchpad's tap) still seeks. */
static uint64_t mouse_asked(Viewer *v, const Input *in, float w, float h) {
    if (!in->mouse_seen) return HISTORY_NONE;
    bool pressed = in->mouse_pressed[1] && in->mouse_y >= h - VIEWER_BAR_H && in->mouse_y < h;
    if (pressed) v->dragging = true;
    bool seek = v->dragging;
    if (!in->mouse_down[1]) v->dragging = false;
    return seek ? viewer_tick_at(v, in->mouse_x, w) : HISTORY_NONE;
}

bool viewer_frame(Viewer *v, const Input *in, float w, float h) {
    if (!v->opened) return false;
    uint64_t to = v->tick;
    int64_t step = step_asked(v, in);
    if (step) to = step < 0 && (uint64_t)-step > v->tick ? 0 : v->tick + (uint64_t)step;
    if (st_input_key_hit(in, SDL_SCANCODE_HOME)) to = 0;
    if (st_input_key_hit(in, SDL_SCANCODE_END)) to = v->ticks;
    uint64_t at = mouse_asked(v, in, w, h);
    if (at != HISTORY_NONE) to = at;
    bool moved = to != v->tick;
    if (moved || at != HISTORY_NONE) v->paused = true; /* a step or a seek holds the picture there */
    if (st_input_key_hit(in, SDL_SCANCODE_SPACE) || st_input_pad_hit(in, SDL_CONTROLLER_BUTTON_A)) {
        v->paused = !v->paused;
        if (!v->paused && v->tick >= v->ticks) to = 0, moved = v->tick != 0; /* play again from the start */
    }
    if (moved) viewer_seek(v, to);
    return moved;
}

static void text(Renderer *rd, const Font *f, float x, float y, Str8 s, Color c, TextAlign align) {
    st_font_draw(rd, f, x + 1, y + 1, s, (Color){10, 8, 16, 255}, LAYER_MESSAGE - 1, align, 1);
    st_font_draw(rd, f, x, y, s, c, LAYER_MESSAGE, align, 1);
}

/* m:ss.cc of play at tick t. */
static Str8 clock_text(Arena *a, uint64_t t) {
    uint64_t cs = t * 100 / SIM_HZ;
    return st_str8_fmt(a, "%llu:%02llu.%02llu", (unsigned long long)(cs / 6000), (unsigned long long)(cs / 100 % 60),
                       (unsigned long long)(cs % 100));
}

void viewer_draw(const Viewer *v, Renderer *rd, const Font *font, float w, float h) {
    Arena *frame = st_render_frame_arena(rd);
    const int panel = LAYER_MESSAGE - 3, track = LAYER_MESSAGE - 2;
    float y0 = h - VIEWER_BAR_H, span = w - 2 * BAR_INSET, ty = h - 8;
    st_render_rect(rd, (RectF){0, y0, w, VIEWER_BAR_H}, panel, (Color){12, 10, 20, 255});
    st_render_rect(rd, (RectF){BAR_INSET, ty, span, 4}, track, (Color){60, 56, 80, 255});
    float at = v->ticks ? span * (float)v->tick / (float)v->ticks : 0;
    st_render_rect(rd, (RectF){BAR_INSET, ty, at, 4}, track, (Color){120, 150, 220, 255});
    for (uint32_t i = 0; i < v->mark_count; i++) {
        const ViewerMark *m = &v->marks[i];
        float x = BAR_INSET + (v->ticks ? span * (float)m->tick / (float)v->ticks : 0);
        bool level = m->kind == VIEWER_MARK_LEVEL;
        st_render_rect(rd, (RectF){x - (level ? 1 : 0), level ? ty - 3 : ty, level ? 2 : 1, level ? 10 : 4},
                       LAYER_MESSAGE - 1, level ? (Color){255, 214, 90, 255} : (Color){230, 80, 70, 255});
    }
    st_render_rect(rd, (RectF){BAR_INSET + at - 1, ty - 4, 3, 12}, LAYER_MESSAGE, (Color){255, 255, 255, 255});
    Str8 where =
        st_str8_fmt(frame, "%s tick %llu / %u   %.*s / %.*s", v->paused ? "||" : ">", (unsigned long long)v->tick,
                    v->ticks, STR8_FMT(clock_text(frame, v->tick)), STR8_FMT(clock_text(frame, v->ticks)));
    text(rd, font, BAR_INSET, y0 + 3, where, (Color){235, 235, 245, 255}, TEXT_ALIGN_LEFT);
    text(rd, font, w - BAR_INSET, y0 + 3, STR8_LIT("<- -> tick  shift: 1 s  space: play"), (Color){170, 170, 190, 255},
         TEXT_ALIGN_RIGHT);
}
