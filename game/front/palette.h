/* palette.h - the colours more than one part of the front end draws with, so that a thing
   looks the same wherever it appears: a red key's sparks (effects.c) and its count on the
   HUD (draw.c) are one red.

       uint32_t spark = PALETTE_KEY_RGBA[KEY_GREEN];          // 0xRRGGBBAA, as a Particle holds it
       Color tint = palette_color(PALETTE_KEY_RGBA[KEY_RED]);  // as the renderer takes it

   The rules never see colours: this is the front end's (gamelib), beside draw and effects. */
#ifndef PALETTE_H
#define PALETTE_H

#include <stdint.h>

#include "level/level.h"
#include <strata/render/render.h>

extern const uint32_t PALETTE_KEY_RGBA[KEY_COLOR_COUNT];

static inline Color palette_color(uint32_t rgba) {
    return (Color){(uint8_t)(rgba >> 24), (uint8_t)(rgba >> 16), (uint8_t)(rgba >> 8), (uint8_t)rgba};
}

#endif
