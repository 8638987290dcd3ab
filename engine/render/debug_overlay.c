/* debug_overlay.c - arena bars, frame numbers and arena timelines, drawn as rects + text. */
#include <strata/render/debug_overlay.h>

#include <math.h>
#include <string.h>

#define OVERLAY_PAD 4.0f
#define OVERLAY_GAP 5.0f          /* between the table's columns */
#define OVERLAY_BAR_H 5.0f        /* the bar under an arena's row */
#define OVERLAY_TRACE_H 100.0f    /* the timelines' height when the panel's is not given */
#define OVERLAY_TRACE_MIN_H 24.0f /* less room than this: no timelines */

/* "232K": bytes in at most four characters, three significant digits ("1.0K" from 1000 B,
   since "1000B" would be five), so every figure fits a column as wide as "888M". */
static Str8 overlay_bytes(Arena *a, uint64_t n) {
    static const char units[] = "BKMGT";
    double v = (double)n;
    int u = 0;
    while (v >= 999.5 && u < 4) v /= 1024, u++;
    if (u == 0) return st_str8_fmt(a, "%lluB", (unsigned long long)n);
    return v < 9.95 ? st_str8_fmt(a, "%.1f%c", v, units[u]) : st_str8_fmt(a, "%.0f%c", v, units[u]);
}

/* Reserve is often 1000x the use, so the bar is logarithmic: every doubling is the same
   distance, and kilobytes used of megabytes reserved are still visible. */
static float overlay_x(uint64_t n, uint64_t full, float bar_w) {
    if (full == 0) return 0;
    return bar_w * (float)(log2((double)n + 1) / log2((double)full + 1));
}

enum { OVERLAY_MAX_ROWS = 64, OVERLAY_COLS = 4 };
static const char *const OVERLAY_HEADS[OVERLAY_COLS] = {"used", "committed", "reserved", "peak"};
/* A column's figures and heading in the colour of its part of the bar. */
static const Color OVERLAY_COL_COLOR[OVERLAY_COLS] = {
    {120, 230, 140, 255}, {120, 170, 220, 255}, {150, 150, 180, 255}, {255, 200, 60, 255}};

/* Where everything of the panel goes, worked out before anything is drawn: a panel aligned
   on its right edge starts at x - width, and the caller may dock the panel by its size. */
typedef struct OverlayLayout {
    RectF panel;
    float lh, name_w, col_w, gap, table_h;
    Str8 l1, l2;
    int rows;
    Str8 names[OVERLAY_MAX_ROWS], figures[OVERLAY_MAX_ROWS][OVERLAY_COLS];
    ArenaStats stats[OVERLAY_MAX_ROWS];
    const Arena *arena[OVERLAY_MAX_ROWS];
} OverlayLayout;

static void overlay_layout(OverlayLayout *L, Arena *fa, const Font *font, Arena *const *arenas, int count,
                           const DebugFrameInfo *info, const DebugOverlayOptions *opt) {
    memset(L, 0, sizeof *L);
    if (count > OVERLAY_MAX_ROWS) count = OVERLAY_MAX_ROWS;
    L->lh = st_font_line_height(font, 1);
    /* Figures have the digits' fixed advance: a column as wide as its widest possible
       figure never changes width, so neither does the panel. */
    L->col_w = fmaxf(st_font_measure(font, STR8_LIT("888M"), 1), st_font_measure(font, STR8_LIT("8.8M"), 1));
    float inner = 0;
    if (info) {
        L->l1 = st_str8_fmt(fa, "frame %.1f ms  update %.1f ms", info->frame_ms, info->update_ms);
        L->l2 = info->entities ? st_str8_fmt(fa, "draws %u  sprites %u  culled %u  ents %u", info->stats.draw_calls,
                                             info->stats.sprites, info->stats.culled, info->entities)
                               : st_str8_fmt(fa, "draws %u  sprites %u  culled %u", info->stats.draw_calls,
                                             info->stats.sprites, info->stats.culled);
        /* The widths of usual figures at least, so the panel does not jitter as they tick. */
        inner = fmaxf(st_font_measure(font, STR8_LIT("frame 88.8 ms  update 88.8 ms"), 1),
                      st_font_measure(font, STR8_LIT("draws 88  sprites 8888  culled 888"), 1));
        inner = fmaxf(inner, fmaxf(st_font_measure(font, L->l1, 1), st_font_measure(font, L->l2, 1)));
    }
    for (int i = 0; i < count; i++) {
        if (!arenas[i]) continue;
        int r = L->rows++;
        ArenaStats st = L->stats[r] = st_arena_stats(arenas[i]);
        L->arena[r] = arenas[i];
        const char *name = opt->labels && opt->labels[i] ? opt->labels[i] : st.name ? st.name : "?";
        L->names[r] = st_str8_cstr(name);
        L->name_w = fmaxf(L->name_w, st_font_measure(font, L->names[r], 1));
        const uint64_t v[OVERLAY_COLS] = {st.used, st.committed, st.reserved, st.peak};
        for (int c = 0; c < OVERLAY_COLS; c++) L->figures[r][c] = overlay_bytes(fa, v[c]);
    }
    /* The headings take two lines, alternate columns on each (used and reserved, then
       committed and peak), so a heading may be wider than its column: the gap is what
       keeps two headings of one line apart. */
    float h[OVERLAY_COLS];
    for (int c = 0; c < OVERLAY_COLS; c++) h[c] = st_font_measure(font, st_str8_cstr(OVERLAY_HEADS[c]), 1);
    L->gap = OVERLAY_GAP;
    for (int c = 0; c + 2 < OVERLAY_COLS; c++)
        L->gap = fmaxf(L->gap, ceilf(((h[c] + h[c + 2]) / 2 + 4 - 2 * L->col_w) / 2));
    float table_w = L->name_w + OVERLAY_COLS * (L->col_w + L->gap);
    /* The first and last headings, centred on their columns, stay inside the table. */
    table_w = fmaxf(table_w, L->name_w + L->gap + L->col_w / 2 + h[0] / 2);
    inner = fmaxf(inner, table_w);
    /* A panel wider than its table (the frame lines, or a caller's width) spreads the
       columns over it, figures on the right edge. */
    L->gap = fmaxf(L->gap, floorf((inner - L->name_w) / OVERLAY_COLS - L->col_w));
    L->table_h =
        (L->l1.len ? L->lh * 2 + 3 : 0) + (L->rows ? L->lh * 2 + 1 : 0) + (float)L->rows * (L->lh + OVERLAY_BAR_H + 2);
    float h_all = opt->h > 0 ? opt->h : L->table_h + (opt->trace ? OVERLAY_TRACE_H + 3 : 0) + OVERLAY_PAD * 2;
    L->panel = (RectF){opt->x, opt->y, ceilf(inner + OVERLAY_PAD * 2), floorf(h_all)};
    if (opt->right) L->panel.x -= L->panel.w;
}

static void trace_draw(Renderer *rd, const Font *font, const ArenaTrace *t, uint32_t last_n, float x, float y, float w,
                       float h, int layer, bool own_panel, bool figures);

void st_debug_overlay_draw(Renderer *rd, const Font *font, Arena *const *arenas, int count, const DebugFrameInfo *info,
                           float x, float y, int layer) {
    st_debug_overlay_draw_ex(rd, font, arenas, count, info, &(DebugOverlayOptions){.x = x, .y = y, .layer = layer});
}

RectF st_debug_overlay_measure(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                               const DebugFrameInfo *info, const DebugOverlayOptions *opt) {
    Arena *fa = st_render_frame_arena(rd);
    if (!fa || !font || !opt) return (RectF){0};
    ARENA_SCOPE(tmp, fa);
    OverlayLayout L;
    overlay_layout(&L, fa, font, arenas, count, info, opt);
    return L.panel;
}

RectF st_debug_overlay_draw_ex(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                               const DebugFrameInfo *info, const DebugOverlayOptions *opt) {
    Arena *fa = st_render_frame_arena(rd);
    if (!fa || !font || !opt) return (RectF){0};
    OverlayLayout L;
    overlay_layout(&L, fa, font, arenas, count, info, opt);
    const int layer = opt->layer;
    const float lh = L.lh;
    st_render_set_view(rd, 0, 0);
    RectF panel = L.panel;
    float x = panel.x + OVERLAY_PAD, y = panel.y + OVERLAY_PAD, bottom = panel.y + panel.h - OVERLAY_PAD;
    float inner_w = panel.w - OVERLAY_PAD * 2;

    if (L.l1.len) {
        st_font_draw(rd, font, x, y, L.l1, (Color){255, 255, 255, 255}, layer + 1, TEXT_ALIGN_LEFT, 1);
        st_font_draw(rd, font, x, y + lh, L.l2, (Color){200, 220, 255, 255}, layer + 1, TEXT_ALIGN_LEFT, 1);
        y += lh * 2 + 3;
    }
    /* Column c's right edge; figures are right-aligned on it, headings centred over it. */
    float col_right[OVERLAY_COLS];
    for (int c = 0; c < OVERLAY_COLS; c++) col_right[c] = x + L.name_w + (float)(c + 1) * (L.gap + L.col_w);
    if (L.rows && y + lh * 2 <= bottom) {
        for (int c = 0; c < OVERLAY_COLS; c++)
            st_font_draw(rd, font, col_right[c] - L.col_w / 2, y + (float)(c % 2) * lh, st_str8_cstr(OVERLAY_HEADS[c]),
                         OVERLAY_COL_COLOR[c], layer + 1, TEXT_ALIGN_CENTER, 1);
        y += lh * 2 + 1;
    }
    for (int r = 0; r < L.rows && y + lh + OVERLAY_BAR_H <= bottom; r++) {
        ArenaStats s = L.stats[r];
        Color name_c = s.used || s.committed ? (Color){255, 255, 255, 255} : (Color){130, 130, 150, 255};
        st_font_draw(rd, font, x, y, L.names[r], name_c, layer + 1, TEXT_ALIGN_LEFT, 1);
        for (int c = 0; c < OVERLAY_COLS; c++)
            st_font_draw(rd, font, col_right[c], y, L.figures[r][c], OVERLAY_COL_COLOR[c], layer + 1, TEXT_ALIGN_RIGHT,
                         1);
        /* reserved (dark), committed (mid), used (bright), peak (tick), across the table */
        uint64_t reserved = s.reserved ? s.reserved : 1;
        float by = y + lh, bar_w = inner_w;
        st_render_rect(rd, (RectF){x, by, bar_w, OVERLAY_BAR_H}, layer + 1, (Color){40, 44, 70, 255});
        st_render_rect(rd, (RectF){x, by, overlay_x(s.committed, reserved, bar_w), OVERLAY_BAR_H}, layer + 2,
                       (Color){70, 110, 150, 255});
        st_render_rect(rd, (RectF){x, by + 1, overlay_x(s.used, reserved, bar_w), OVERLAY_BAR_H - 2}, layer + 3,
                       (Color){120, 230, 140, 255});
        float px = x + overlay_x(s.peak, reserved, bar_w);
        st_render_rect(rd, (RectF){px - 1, by - 1, 2, OVERLAY_BAR_H + 2}, layer + 4, (Color){255, 200, 60, 255});
        y += lh + OVERLAY_BAR_H + 2;
    }
    /* The timelines in what is left: the table already says each arena's figures, so
       the lanes carry names only. */
    if (opt->trace && bottom - (y + 2) >= OVERLAY_TRACE_MIN_H)
        trace_draw(rd, font, opt->trace, opt->trace_frames, x, y + 2, inner_w, bottom - (y + 2), layer, false, false);
    uint8_t alpha = opt->alpha ? opt->alpha : DEBUG_OVERLAY_ALPHA;
    st_render_rect(rd, panel, layer, (Color){8, 8, 16, alpha});
    return panel;
}

/* ---- Timelines. Whole pixels throughout: the box's edges are exact, so nothing lands
   outside it, and a run of equal columns is one rect. */

/* `s` cut to at most `w` pixels wide. */
static Str8 trace_fit(const Font *font, Str8 s, float w) {
    while (s.len && st_font_measure(font, s, 1) > w) s.len--;
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
static int lane_col_x(const TraceLane *l, int c) { return l->gx + (int)((int64_t)c * l->gw / l->slots); }

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
            const ArenaTraceSample *s = st_arena_trace_at(l->t, l->first + (uint64_t)k);
            int u = lane_px(l, s->used[l->slot]);
            if (series == SERIES_COMMITTED) hi = lane_px(l, s->committed[l->slot]), lo = hi ? hi - 1 : 0;
            else if (series == SERIES_USED) lo = 0, hi = u;
            else if (lane_px(l, s->high[l->slot]) > u) lo = u, hi = lane_px(l, s->high[l->slot]);
            else lo = hi = 0;
        }
        if (k > 0 && (lo != run_lo || hi != run_hi)) {
            int x = lane_col_x(l, lane_col(l, run_x)), w = lane_col_x(l, lane_col(l, k)) - x;
            if (run_hi > run_lo) {
                int y = l->gy + l->gh - run_hi;
                st_render_rect(l->rd, (RectF){(float)x, (float)y, (float)w, (float)(run_hi - run_lo)},
                               l->layer + 2 + series, colors[series]);
                if (series == SERIES_HIGH)
                    st_render_rect(l->rd, (RectF){(float)x, (float)y, (float)w, 1}, l->layer + 4, tick);
            }
        }
        if (k == 0 || lo != run_lo || hi != run_hi) run_x = k, run_lo = lo, run_hi = hi;
    }
}

void st_debug_overlay_draw_trace(Renderer *rd, const Font *font, const ArenaTrace *t, uint32_t last_n, float x, float y,
                                 float w, float h, int layer) {
    trace_draw(rd, font, t, last_n, x, y, w, h, layer, true, true);
}

/* The box of the timelines, inside its padding, and what all its lanes share. */
typedef struct TraceBox {
    Renderer *rd;
    const Font *font;
    const ArenaTrace *t;
    Arena *fa;
    RectF panel;        /* the box in whole pixels: its own background, when it has one */
    int ix, iy, iw, ih; /* inside the padding */
    int lh, lanes, lane_h, layer;
    uint64_t held;
    const ArenaTraceSample *newest;
    bool footer; /* room for the bottom line */
} TraceBox;

/* Lays the box out in whole pixels; false when there is nothing to draw in (no frame
   arena, font or trace, or a box too small). */
static bool trace_box(TraceBox *b, Renderer *rd, const Font *font, const ArenaTrace *t, float x, float y, float w,
                      float h, int layer, bool own_panel) {
    Arena *fa = st_render_frame_arena(rd);
    if (!fa || !font || !t) return false;
    int bx = (int)ceilf(x), by = (int)ceilf(y);
    int bw = (int)floorf(x + w) - bx, bh = (int)floorf(y + h) - by;
    if (bw < 8 || bh < 4) return false;
    const int pad = own_panel ? 2 : 0;
    *b = (TraceBox){.rd = rd, .font = font, .t = t, .fa = fa, .layer = layer, .lanes = t->arena_count};
    b->panel = (RectF){(float)bx, (float)by, (float)bw, (float)bh};
    b->ix = bx + pad, b->iy = by + pad, b->iw = bw - 2 * pad, b->ih = bh - 2 * pad;
    b->lh = (int)ceilf(st_font_line_height(font, 1));
    b->held = st_arena_trace_held(t);
    b->newest = b->held ? st_arena_trace_at(t, b->held - 1) : NULL;
    /* The bottom line: the newest mark (what happened last), or the time span. */
    b->footer = b->ih >= b->lanes * 3 + b->lh;
    int lanes_h = b->footer ? b->ih - b->lh : b->ih;
    b->lane_h = b->lanes > 0 ? lanes_h / b->lanes : 0;
    return true;
}

/* `s` on the bottom line, cut to the box's width. */
static void trace_footer_line(const TraceBox *b, Str8 s, Color c) {
    st_font_draw(b->rd, b->font, (float)b->ix, (float)(b->iy + b->ih - b->lh), trace_fit(b->font, s, (float)b->iw), c,
                 b->layer + 3, TEXT_ALIGN_LEFT, 1);
}

/* Labels: the name, then the newest `used` and the all-time peak, on one line or two
   (label_lines) as the lane allows, in a column at most 45% of the box. Returns the
   column's width. */
static float trace_labels(const TraceBox *b, int label_lines, bool figures, Str8 *names, Str8 *nums) {
    const ArenaTrace *t = b->t;
    const Font *font = b->font;
    Arena *fa = b->fa;
    float col_w = 0, col_max = floorf((float)b->iw * 0.45f);
    for (int i = 0; i < b->lanes && label_lines; i++) {
        names[i] = t->names[i] ? st_str8_cstr(t->names[i]) : st_str8_fmt(fa, "#%d", i);
        Str8 used = overlay_bytes(fa, b->newest->used[i]), peak = overlay_bytes(fa, t->peak[i]);
        nums[i] = figures ? st_str8_fmt(fa, "%.*s pk %.*s", STR8_FMT(used), STR8_FMT(peak)) : (Str8){0};
        if (label_lines == 1 && figures) {
            Str8 both = st_str8_fmt(fa, "%.*s %.*s", STR8_FMT(names[i]), STR8_FMT(nums[i]));
            /* Too wide for the column: the name alone. */
            if (both.data && st_font_measure(font, both, 1) <= col_max) names[i] = both;
            nums[i] = (Str8){0};
        }
        names[i] = trace_fit(font, names[i], col_max);
        nums[i] = trace_fit(font, nums[i], col_max);
        float wn = st_font_measure(font, names[i], 1), wv = st_font_measure(font, nums[i], 1);
        col_w = fmaxf(col_w, fmaxf(wn, wv));
    }
    return col_w;
}

/* The lane's scale: the power of two at or above the highest mark shown, or the arena's
   capacity when that is lower. True when the top is the capacity. */
static bool lane_scale(TraceLane *l) {
    uint64_t high = 0;
    for (int k = 0; k < l->n; k++) {
        const ArenaTraceSample *s = st_arena_trace_at(l->t, l->first + (uint64_t)k);
        uint64_t v = s->high[l->slot] > s->used[l->slot] ? s->high[l->slot] : s->used[l->slot];
        if (v > high) high = v;
    }
    l->top = trace_pow2_ceil(high ? high : 1);
    uint64_t reserved = l->t->reserved[l->slot];
    bool full = reserved && reserved <= l->top;
    if (full) l->top = reserved;
    return full;
}

/* Lane `i`: `cols` gives its columns, the box its row; its graph, then its label. */
static void trace_lane(const TraceBox *b, const TraceLane *cols, int i, int label_lines, const Str8 *names,
                       const Str8 *nums) {
    Renderer *rd = b->rd;
    int ly = b->iy + i * b->lane_h, layer = b->layer;
    TraceLane l = *cols;
    l.gy = ly, l.gh = b->lane_h - 1, l.slot = i;
    if (l.gh < 1) l.gh = 1;
    bool full = lane_scale(&l);
    st_render_rect(rd, (RectF){(float)l.gx, (float)ly, (float)l.gw, (float)l.gh}, layer + 1, (Color){24, 28, 48, 255});
    /* The top edge: red when it is the arena's capacity. */
    st_render_rect(rd, (RectF){(float)l.gx, (float)ly, (float)l.gw, 1}, layer + 1,
                   full ? (Color){220, 60, 60, 255} : (Color){60, 64, 96, 255});
    lane_series(&l, SERIES_COMMITTED);
    lane_series(&l, SERIES_USED);
    lane_series(&l, SERIES_HIGH);
    if (label_lines) {
        const ArenaTraceSample *newest = b->newest;
        Color c = newest->used[i] || newest->committed[i] ? (Color){255, 255, 255, 255} : (Color){130, 130, 150, 255};
        int ty = ly + (b->lane_h - label_lines * b->lh) / 2;
        st_font_draw(rd, b->font, (float)b->ix, (float)ty, names[i], c, layer + 3, TEXT_ALIGN_LEFT, 1);
        if (label_lines == 2)
            st_font_draw(rd, b->font, (float)b->ix, (float)(ty + b->lh), nums[i], (Color){200, 220, 255, 255},
                         layer + 3, TEXT_ALIGN_LEFT, 1);
    }
}

/* A frame with marks: a line across every lane, in the columns of `cols`. */
static void trace_marks(const TraceBox *b, const TraceLane *cols) {
    for (int k = 0; k < cols->n; k++)
        if (st_arena_trace_at(b->t, b->held - (uint64_t)cols->n + (uint64_t)k)->marks)
            st_render_rect(
                b->rd,
                (RectF){(float)lane_col_x(cols, lane_col(cols, k)), (float)b->iy, 1, (float)(b->lanes * b->lane_h)},
                b->layer + 4, (Color){230, 100, 230, 255});
}

/* own_panel: the box's own translucent background (else the caller's panel is under it);
   figures: the lanes' labels say the newest used and the peak (else the names alone). */
static void trace_draw(Renderer *rd, const Font *font, const ArenaTrace *t, uint32_t last_n, float x, float y, float w,
                       float h, int layer, bool own_panel, bool figures) {
    TraceBox b;
    if (!trace_box(&b, rd, font, t, x, y, w, h, layer, own_panel)) return;
    st_render_set_view(rd, 0, 0);
    if (own_panel) st_render_rect(rd, b.panel, layer, (Color){8, 8, 16, DEBUG_OVERLAY_ALPHA});
    if (b.lanes <= 0 || !b.newest || b.lane_h < 2) {
        if (b.footer) trace_footer_line(&b, STR8_LIT("arena trace: no samples yet"), (Color){150, 150, 170, 255});
        return;
    }
    int label_lines = figures && b.lane_h >= 2 * b.lh ? 2 : b.lane_h >= b.lh ? 1 : 0;
    Str8 names[ARENA_TRACE_ARENAS], nums[ARENA_TRACE_ARENAS];
    int label_w = (int)ceilf(trace_labels(&b, label_lines, figures, names, nums));
    int gx = b.ix + (label_w ? label_w + 3 : 0), gw = b.ix + b.iw - gx;
    if (gw < 2) return;
    int slots = last_n && last_n < (uint32_t)gw ? (int)last_n : gw;
    int n = b.held < (uint64_t)slots ? (int)b.held : slots;
    /* The columns every lane shares: the newest n samples, right-aligned in `slots`. */
    TraceLane cols = {
        .rd = rd, .t = t, .first = b.held - (uint64_t)n, .n = n, .slots = slots, .gx = gx, .gw = gw, .layer = layer};
    for (int i = 0; i < b.lanes; i++) trace_lane(&b, &cols, i, label_lines, names, nums);
    trace_marks(&b, &cols);
    if (b.footer) {
        const ArenaTraceMark *m =
            st_arena_trace_marks_held(t) ? st_arena_trace_mark_at(t, st_arena_trace_marks_held(t) - 1) : NULL;
        Str8 s = m ? st_str8_fmt(b.fa, "f%llu: %s", (unsigned long long)m->frame, m->text)
                   : st_str8_fmt(b.fa, "last %d frames, newest right", n);
        trace_footer_line(&b, s, m ? (Color){230, 160, 230, 255} : (Color){150, 150, 170, 255});
    }
}
