/* debug_overlay.c - arena bars, frame numbers and arena timelines, drawn as rects + text. */
#include "render/debug_overlay.h"

#include <math.h>

#define OVERLAY_BAR_W 200.0f
#define OVERLAY_BAR_COMPACT_W 100.0f
#define OVERLAY_PAD 4.0f

/* "12.3K": bytes in at most 6 characters, formatted into the frame arena. */
static Str8 overlay_bytes(Arena *a, uint64_t n) {
    if (n < 1024) return str8_fmt(a, "%lluB", (unsigned long long)n);
    if (n < (1ull << 20)) return str8_fmt(a, "%.1fK", (double)n / 1024);
    if (n < (1ull << 30)) return str8_fmt(a, "%.1fM", (double)n / (1 << 20));
    return str8_fmt(a, "%.1fG", (double)n / (1ull << 30));
}

/* Reserve is often 1000x the use, so the bar is logarithmic: every doubling is the same
   distance, and kilobytes used of megabytes reserved are still visible. */
static float overlay_x(uint64_t n, uint64_t full, float bar_w) {
    if (full == 0) return 0;
    return bar_w * (float)(log2((double)n + 1) / log2((double)full + 1));
}

void debug_overlay_draw(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                        const DebugFrameInfo *info, float x, float y, int layer) {
    debug_overlay_draw_ex(rd, font, arenas, count, info,
                          &(DebugOverlayOptions){.x = x, .y = y, .layer = layer});
}

RectF debug_overlay_draw_ex(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                            const DebugFrameInfo *info, const DebugOverlayOptions *opt) {
    Arena *fa = render_frame_arena(rd);
    if (!fa || !font || !opt) return (RectF){0};
    enum { MAX_ROWS = 64 };
    if (count > MAX_ROWS) count = MAX_ROWS;
    const bool compact = opt->compact;
    const float bar_w = compact ? OVERLAY_BAR_COMPACT_W : OVERLAY_BAR_W;
    const int layer = opt->layer;
    float lh = font_line_height(font, 1);
    float row_h = lh + 6;
    render_set_view(rd, 0, 0);

    /* Every line first, to know the panel's width before anything is placed: a panel
       aligned on its right edge starts at x - width. */
    Str8 l1 = {0}, l2 = {0}, legend = {0}, lines[MAX_ROWS];
    ArenaStats stats[MAX_ROWS];
    float panel_w = bar_w;
    if (info && !compact) {
        l1 = str8_fmt(fa, "frame %5.2f ms  update %5.2f ms", info->frame_ms, info->update_ms);
        l2 = info->entities
                 ? str8_fmt(fa, "draws %u  sprites %u  culled %u  ents %u", info->stats.draw_calls,
                            info->stats.sprites, info->stats.culled, info->entities)
                 : str8_fmt(fa, "draws %u  sprites %u  culled %u", info->stats.draw_calls,
                            info->stats.sprites, info->stats.culled);
        panel_w = fmaxf(panel_w, fmaxf(font_measure(font, l1, 1), font_measure(font, l2, 1)));
    }
    int rows = 0;
    for (int i = 0; i < count; i++) {
        lines[i] = (Str8){0};
        if (!arenas[i]) continue;
        ArenaStats s = stats[i] = arena_stats(arenas[i]);
        const char *name = s.name ? s.name : "?";
        Str8 used = overlay_bytes(fa, s.used), peak = overlay_bytes(fa, s.peak);
        if (compact) {
            lines[i] = str8_fmt(fa, "%-7.7s %.*s pk %.*s", name, STR8_FMT(used), STR8_FMT(peak));
        } else {
            Str8 com = overlay_bytes(fa, s.committed), res = overlay_bytes(fa, s.reserved);
            lines[i] = str8_fmt(fa, "%-9.9s %.*s/%.*s/%.*s pk %.*s", name, STR8_FMT(used),
                                STR8_FMT(com), STR8_FMT(res), STR8_FMT(peak));
        }
        panel_w = fmaxf(panel_w, font_measure(font, lines[i], 1));
        rows++;
    }
    if (!compact) {
        legend = STR8_LIT("log scale: used/committed/reserved, peak");
        panel_w = fmaxf(panel_w, font_measure(font, legend, 1));
    }
    float content_h = (l1.len ? lh * 2 + 2 : 0) + row_h * (float)rows + (legend.len ? lh : 0);
    RectF panel = {opt->x, opt->y, panel_w + OVERLAY_PAD * 2, content_h + OVERLAY_PAD * 2};
    if (opt->right) panel.x -= panel.w;
    float x = panel.x + OVERLAY_PAD, y = panel.y + OVERLAY_PAD;

    if (l1.len) {
        render_text(rd, font, x, y, l1, (Color){255, 255, 255, 255}, layer + 1, TEXT_ALIGN_LEFT, 1);
        render_text(rd, font, x, y + lh, l2, (Color){200, 220, 255, 255}, layer + 1,
                    TEXT_ALIGN_LEFT, 1);
        y += lh * 2 + 2;
    }
    for (int i = 0; i < count; i++) {
        if (!arenas[i]) continue;
        ArenaStats s = stats[i];
        uint64_t reserved = s.reserved ? s.reserved : 1;
        render_text(rd, font, x, y, lines[i], (Color){255, 255, 255, 255}, layer + 1,
                    TEXT_ALIGN_LEFT, 1);
        float by = y + lh - 1;
        /* reserved (dark), committed (mid), used (bright), peak (tick) */
        render_rect(rd, (RectF){x, by, bar_w, 5}, layer + 1, (Color){40, 44, 70, 255});
        render_rect(rd, (RectF){x, by, overlay_x(s.committed, reserved, bar_w), 5}, layer + 2,
                    (Color){70, 110, 150, 255});
        render_rect(rd, (RectF){x, by + 1, overlay_x(s.used, reserved, bar_w), 3}, layer + 3,
                    (Color){120, 230, 140, 255});
        float px = x + overlay_x(s.peak, reserved, bar_w);
        render_rect(rd, (RectF){px - 1, by - 1, 2, 7}, layer + 4, (Color){255, 200, 60, 255});
        y += row_h;
    }
    if (legend.len)
        render_text(rd, font, x, y, legend, (Color){150, 150, 170, 255}, layer + 1,
                    TEXT_ALIGN_LEFT, 1);
    uint8_t alpha = opt->alpha ? opt->alpha : DEBUG_OVERLAY_ALPHA;
    render_rect(rd, panel, layer, (Color){8, 8, 16, alpha});
    return panel;
}

/* ---- Timelines. Whole pixels throughout: the box's edges are exact, so nothing lands
   outside it, and a run of equal columns is one rect. */

/* "41K": bytes in at most 5 characters, for the lane labels, which share a line. */
static Str8 trace_bytes(Arena *a, uint64_t n) {
    static const char units[] = "BKMGT";
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, u++;
    if (u == 0) return str8_fmt(a, "%llu", (unsigned long long)n);
    return v < 10 ? str8_fmt(a, "%.1f%c", v, units[u]) : str8_fmt(a, "%.0f%c", v, units[u]);
}

/* `s` cut to at most `w` pixels wide. */
static Str8 trace_fit(const Font *font, Str8 s, float w) {
    while (s.len && font_measure(font, s, 1) > w) s.len--;
    return s;
}

static uint64_t trace_pow2_ceil(uint64_t v) {
    uint64_t p = 1;
    while (p < v && p < (1ull << 63)) p <<= 1;
    return p;
}

typedef struct TraceLane {
    Renderer *rd;
    const ArenaTrace *t;
    uint64_t first; /* index of the oldest sample shown */
    int n, slots;   /* samples shown, columns of the graph (n <= slots, newest rightmost) */
    int gx, gy, gw, gh;
    uint64_t top;
    int slot, layer;
} TraceLane;

/* The left edge of column `c` (0..slots): the graph's width shared out in whole pixels. */
static int lane_col_x(const TraceLane *l, int c) {
    return l->gx + (int)((int64_t)c * l->gw / l->slots);
}

/* The column of the k-th sample shown. */
static int lane_col(const TraceLane *l, int k) { return l->slots - l->n + k; }

static int lane_px(const TraceLane *l, uint64_t v) {
    if (v == 0) return 0;
    if (v >= l->top) return l->gh;
    int px = (int)((double)v * l->gh / (double)l->top);
    return px < 1 ? 1 : px; /* a byte is not nothing */
}

typedef enum { SERIES_COMMITTED, SERIES_USED, SERIES_HIGH } TraceSeries;

/* One series of one lane, left to right, as runs of columns of one height: one rect per
   run (used fills from the bottom; committed is a dim line at its level, since it is
   mostly a commit step above `used` and would hide it; the high mark is a whisker from the
   used top up to it, capped by a bright tick, only where it rose above `used`). */
static void lane_series(const TraceLane *l, TraceSeries series) {
    static const Color colors[] = {{50, 80, 120, 255}, {120, 230, 140, 255}, {210, 170, 60, 255}};
    const Color tick = {255, 240, 140, 255};
    int run_x = 0, run_lo = -1, run_hi = -1;
    for (int k = 0; k <= l->n; k++) {
        int lo = -1, hi = -1; /* k == n flushes the last run */
        if (k < l->n) {
            const ArenaTraceSample *s = arena_trace_at(l->t, l->first + (uint64_t)k);
            int u = lane_px(l, s->used[l->slot]);
            if (series == SERIES_COMMITTED)
                hi = lane_px(l, s->committed[l->slot]), lo = hi ? hi - 1 : 0;
            else if (series == SERIES_USED) lo = 0, hi = u;
            else if (lane_px(l, s->high[l->slot]) > u) lo = u, hi = lane_px(l, s->high[l->slot]);
            else lo = hi = 0;
        }
        if (k > 0 && (lo != run_lo || hi != run_hi)) {
            int x = lane_col_x(l, lane_col(l, run_x)), w = lane_col_x(l, lane_col(l, k)) - x;
            if (run_hi > run_lo) {
                int y = l->gy + l->gh - run_hi;
                render_rect(l->rd, (RectF){(float)x, (float)y, (float)w, (float)(run_hi - run_lo)},
                            l->layer + 2 + series, colors[series]);
                if (series == SERIES_HIGH)
                    render_rect(l->rd, (RectF){(float)x, (float)y, (float)w, 1}, l->layer + 4,
                                tick);
            }
        }
        if (k == 0 || lo != run_lo || hi != run_hi) run_x = k, run_lo = lo, run_hi = hi;
    }
}

void debug_overlay_draw_trace(Renderer *rd, const Font *font, const ArenaTrace *t, uint32_t last_n,
                              float x, float y, float w, float h, int layer) {
    Arena *fa = render_frame_arena(rd);
    if (!fa || !font || !t) return;
    int bx = (int)ceilf(x), by = (int)ceilf(y);
    int bw = (int)floorf(x + w) - bx, bh = (int)floorf(y + h) - by;
    if (bw < 8 || bh < 4) return;
    render_set_view(rd, 0, 0);
    render_rect(rd, (RectF){(float)bx, (float)by, (float)bw, (float)bh}, layer,
                (Color){8, 8, 16, DEBUG_OVERLAY_ALPHA});
    const int pad = 2;
    int ix = bx + pad, iy = by + pad, iw = bw - 2 * pad, ih = bh - 2 * pad;
    int lh = (int)ceilf(font_line_height(font, 1));
    int lanes = t->arena_count;
    uint64_t held = arena_trace_held(t);
    const ArenaTraceSample *newest = held ? arena_trace_at(t, held - 1) : NULL;

    /* The bottom line: the newest mark (what happened last), or the time span. */
    bool footer = ih >= lanes * 3 + lh;
    int lanes_h = footer ? ih - lh : ih;
    int lane_h = lanes > 0 ? lanes_h / lanes : 0;
    if (lanes <= 0 || !newest || lane_h < 2) {
        if (footer) {
            Str8 s = trace_fit(font, STR8_LIT("arena trace: no samples yet"), (float)iw);
            render_text(rd, font, (float)ix, (float)(iy + ih - lh), s, (Color){150, 150, 170, 255},
                        layer + 3, TEXT_ALIGN_LEFT, 1);
        }
        return;
    }

    /* Labels: the name, then the newest `used` and the all-time peak, on one line or two
       as the lane allows, in a column at most 45% of the box. */
    int label_lines = lane_h >= 2 * lh ? 2 : lane_h >= lh ? 1 : 0;
    Str8 names[ARENA_TRACE_ARENAS], nums[ARENA_TRACE_ARENAS];
    float col_w = 0, col_max = floorf((float)iw * 0.45f);
    for (int i = 0; i < lanes && label_lines; i++) {
        names[i] = t->names[i] ? str8_cstr(t->names[i]) : str8_fmt(fa, "#%d", i);
        Str8 used = trace_bytes(fa, newest->used[i]), peak = trace_bytes(fa, t->peak[i]);
        nums[i] = str8_fmt(fa, "%.*s pk %.*s", STR8_FMT(used), STR8_FMT(peak));
        if (label_lines == 1) {
            Str8 both = str8_fmt(fa, "%.*s %.*s", STR8_FMT(names[i]), STR8_FMT(nums[i]));
            /* Too wide for the column: the name alone. */
            if (both.data && font_measure(font, both, 1) <= col_max) names[i] = both;
            nums[i] = (Str8){0};
        }
        names[i] = trace_fit(font, names[i], col_max);
        nums[i] = trace_fit(font, nums[i], col_max);
        float wn = font_measure(font, names[i], 1), wv = font_measure(font, nums[i], 1);
        col_w = fmaxf(col_w, fmaxf(wn, wv));
    }
    int label_w = (int)ceilf(col_w);
    int gx = ix + (label_w ? label_w + 3 : 0), gw = ix + iw - gx;
    if (gw < 2) return;
    int slots = last_n && last_n < (uint32_t)gw ? (int)last_n : gw;
    int n = held < (uint64_t)slots ? (int)held : slots;

    for (int i = 0; i < lanes; i++) {
        int ly = iy + i * lane_h;
        TraceLane l = {.rd = rd, .t = t, .first = held - (uint64_t)n, .n = n, .slots = slots,
                       .gx = gx, .gy = ly, .gw = gw, .gh = lane_h - 1, .slot = i, .layer = layer};
        if (l.gh < 1) l.gh = 1;
        uint64_t high = 0;
        for (int k = 0; k < n; k++) {
            const ArenaTraceSample *s = arena_trace_at(t, l.first + (uint64_t)k);
            uint64_t v = s->high[i] > s->used[i] ? s->high[i] : s->used[i];
            if (v > high) high = v;
        }
        l.top = trace_pow2_ceil(high ? high : 1);
        bool full = t->reserved[i] && t->reserved[i] <= l.top;
        if (full) l.top = t->reserved[i];
        render_rect(rd, (RectF){(float)gx, (float)ly, (float)gw, (float)l.gh}, layer + 1,
                    (Color){24, 28, 48, 255});
        /* The top edge: red when it is the arena's capacity. */
        render_rect(rd, (RectF){(float)gx, (float)ly, (float)gw, 1}, layer + 1,
                    full ? (Color){220, 60, 60, 255} : (Color){60, 64, 96, 255});
        lane_series(&l, SERIES_COMMITTED);
        lane_series(&l, SERIES_USED);
        lane_series(&l, SERIES_HIGH);
        if (label_lines) {
            Color c = newest->used[i] || newest->committed[i] ? (Color){255, 255, 255, 255}
                                                              : (Color){130, 130, 150, 255};
            int ty = ly + (lane_h - label_lines * lh) / 2;
            render_text(rd, font, (float)ix, (float)ty, names[i], c, layer + 3, TEXT_ALIGN_LEFT, 1);
            if (label_lines == 2)
                render_text(rd, font, (float)ix, (float)(ty + lh), nums[i],
                            (Color){200, 220, 255, 255}, layer + 3, TEXT_ALIGN_LEFT, 1);
        }
    }
    /* A frame with marks: a line across every lane. */
    TraceLane cols = {.n = n, .slots = slots, .gx = gx, .gw = gw};
    for (int k = 0; k < n; k++)
        if (arena_trace_at(t, held - (uint64_t)n + (uint64_t)k)->marks)
            render_rect(rd,
                        (RectF){(float)lane_col_x(&cols, lane_col(&cols, k)), (float)iy, 1,
                                (float)(lanes * lane_h)},
                        layer + 4, (Color){230, 100, 230, 255});
    if (footer) {
        const ArenaTraceMark *m = arena_trace_marks_held(t)
                                      ? arena_trace_mark_at(t, arena_trace_marks_held(t) - 1)
                                      : NULL;
        Str8 s = m ? str8_fmt(fa, "f%llu: %s", (unsigned long long)m->frame, m->text)
                   : str8_fmt(fa, "last %d frames, newest right", n);
        render_text(rd, font, (float)ix, (float)(iy + ih - lh), trace_fit(font, s, (float)iw),
                    m ? (Color){230, 160, 230, 255} : (Color){150, 150, 170, 255}, layer + 3,
                    TEXT_ALIGN_LEFT, 1);
    }
}
