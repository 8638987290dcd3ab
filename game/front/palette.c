/* palette.c - the shared colours (see palette.h). */
#include "front/palette.h"

const uint32_t PALETTE_KEY_RGBA[KEY_COLOR_COUNT] = {
    [KEY_RED] = 0xe04040ffu,
    [KEY_GREEN] = 0x40d060ffu,
    [KEY_BLUE] = 0x4080ffffu,
};
