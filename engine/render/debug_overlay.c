/* debug_overlay.c - arena bars and frame numbers, drawn as rects + text. */
#include "render/debug_overlay.h"

#include <math.h>

#define OVERLAY_BAR_W 200.0f
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
static float overlay_x(uint64_t n, uint64_t full) {
    if (full == 0) return 0;
    return OVERLAY_BAR_W * (float)(log2((double)n + 1) / log2((double)full + 1));
}

void debug_overlay_draw(Renderer *rd, const Font *font, Arena *const *arenas, int count,
                        const DebugFrameInfo *info, float origin_x, float origin_y, int layer) {
    Arena *fa = render_frame_arena(rd);
    if (!fa || !font) return;
    float lh = font_line_height(font, 1);
    float row_h = lh + 6;
    float panel_h = OVERLAY_PAD * 2 + lh * 2 + 2 + row_h * (float)count + lh;
    float x = origin_x + OVERLAY_PAD, y = origin_y + OVERLAY_PAD;
    render_set_view(rd, 0, 0);
    /* The panel goes behind everything on `layer`; it is pushed last, once the widest line
       is known (the draw order comes from the layer, not from the push order). */
    float panel_w = OVERLAY_BAR_W;

    if (info) {
        Str8 l1 = str8_fmt(fa, "frame %5.2f ms  update %5.2f ms", info->frame_ms, info->update_ms);
        render_text(rd, font, x, y, l1, (Color){255, 255, 255, 255}, layer + 1, TEXT_ALIGN_LEFT, 1);
        panel_w = fmaxf(panel_w, font_measure(font, l1, 1));
        Str8 l2 =
            info->entities
                ? str8_fmt(fa, "draws %u  sprites %u  culled %u  ents %u", info->stats.draw_calls,
                           info->stats.sprites, info->stats.culled, info->entities)
                : str8_fmt(fa, "draws %u  sprites %u  culled %u", info->stats.draw_calls,
                           info->stats.sprites, info->stats.culled);
        render_text(rd, font, x, y + lh, l2, (Color){200, 220, 255, 255}, layer + 1,
                    TEXT_ALIGN_LEFT, 1);
        panel_w = fmaxf(panel_w, font_measure(font, l2, 1));
    }
    y += lh * 2 + 2;
    for (int i = 0; i < count; i++) {
        if (!arenas[i]) continue;
        ArenaStats s = arena_stats(arenas[i]);
        uint64_t reserved = s.reserved ? s.reserved : 1;
        Str8 used = overlay_bytes(fa, s.used), com = overlay_bytes(fa, s.committed);
        Str8 res = overlay_bytes(fa, s.reserved), peak = overlay_bytes(fa, s.peak);
        Str8 line = str8_fmt(fa, "%-9.9s %.*s/%.*s/%.*s pk %.*s", s.name ? s.name : "?",
                             STR8_FMT(used), STR8_FMT(com), STR8_FMT(res), STR8_FMT(peak));
        render_text(rd, font, x, y, line, (Color){255, 255, 255, 255}, layer + 1,
                    TEXT_ALIGN_LEFT, 1);
        panel_w = fmaxf(panel_w, font_measure(font, line, 1));
        float by = y + lh - 1;
        /* reserved (dark), committed (mid), used (bright), peak (tick) */
        render_rect(rd, (RectF){x, by, OVERLAY_BAR_W, 5}, layer + 1, (Color){40, 44, 70, 255});
        render_rect(rd, (RectF){x, by, overlay_x(s.committed, reserved), 5}, layer + 2,
                    (Color){70, 110, 150, 255});
        render_rect(rd, (RectF){x, by + 1, overlay_x(s.used, reserved), 3}, layer + 3,
                    (Color){120, 230, 140, 255});
        float px = x + overlay_x(s.peak, reserved);
        render_rect(rd, (RectF){px - 1, by - 1, 2, 7}, layer + 4, (Color){255, 200, 60, 255});
        y += row_h;
    }
    Str8 legend = STR8_LIT("log scale: used/committed/reserved, peak");
    render_text(rd, font, x, y, legend, (Color){150, 150, 170, 255}, layer + 1, TEXT_ALIGN_LEFT,
                1);
    panel_w = fmaxf(panel_w, font_measure(font, legend, 1));
    render_rect(rd, (RectF){x - 2, origin_y + OVERLAY_PAD - 2, panel_w + 6, panel_h}, layer,
                (Color){8, 8, 16, 200});
}
