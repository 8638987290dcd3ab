/* easy_glyph.h - one ASCII character of stb_easy_font as the filled rectangles of its
   quads, on stb_easy_font's integer grid (glyphs up to 6 x 10, descenders included): the
   crisp bitmap letters of the game's font.png (mkassets) and of the engine's default font
   (tools/mkfont), drawn the one same way.

       int r[64][4];
       int n = easy_glyph_rects('A', r, 64);       // r[i] = {x0, y0, x1, y1}, x1 and y1 excluded
       for (int i = 0; i < n; i++) ... fill [r[i][0], r[i][2]) x [r[i][1], r[i][3]) ... */
#ifndef EASY_GLYPH_H
#define EASY_GLYPH_H

#include <stb_easy_font.h>

static inline int easy_glyph_rects(char ch, int (*rects)[4], int max) {
    static char quads[64 * 1024];
    char text[2] = {ch, 0};
    int n = stb_easy_font_print(0, 0, text, NULL, quads, sizeof quads);
    if (n > max) n = max;
    for (int q = 0; q < n; q++) {
        const float *v = (const float *)(quads + q * 4 * 16);
        float x0 = v[0], y0 = v[1], x1 = v[0], y1 = v[1];
        for (int k = 1; k < 4; k++) {
            const float *p = (const float *)(quads + (q * 4 + k) * 16);
            if (p[0] < x0) x0 = p[0];
            if (p[0] > x1) x1 = p[0];
            if (p[1] < y0) y0 = p[1];
            if (p[1] > y1) y1 = p[1];
        }
        rects[q][0] = (int)x0, rects[q][1] = (int)y0, rects[q][2] = (int)x1, rects[q][3] = (int)y1;
    }
    return n;
}

#endif
