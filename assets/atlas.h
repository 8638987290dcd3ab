/* atlas.h - what is where in the PNGs tools/mkassets writes to assets/.

   Every sheet is a grid of equal cells, row-major, ATLAS_COLS cells per row, so a name
   below is just the cell index to pass to st_render_cell():

       Texture *tiles   = st_asset_load_texture(rd, perm, ".../tiles.png",   TILE_CELL, TILE_CELL, &err);
       Texture *sprites = st_asset_load_texture(rd, perm, ".../sprites.png", SPRITE_CELL, SPRITE_CELL, &err);
       Font font;
       st_asset_load_font(rd, perm, ".../font.png", FONT_CELL_W, FONT_CELL_H, FONT_SPACE_ADVANCE, &font, &err);
       st_render_cell(rd, sprites, SPR_PLAYER + facing * PLAYER_FRAMES + frame, x, y, layer, 0);

   Game-side names live here, not in engine/, because the engine knows grids, not dungeons.
   game/ includes it as "../assets/atlas.h"; tools/mkassets as "../../assets/atlas.h". */
#ifndef ATLAS_H
#define ATLAS_H

#define ATLAS_COLS 8
#define TILE_CELL 16
#define SPRITE_CELL 16
#define FONT_CELL_W 8
#define FONT_CELL_H 10
#define FONT_ADVANCE 6 /* the widest glyph (5 pixels) + 1 pixel gap; glyphs are proportional,
                          their advances measured from font.png when it is loaded */
#define FONT_SPACE_ADVANCE (FONT_ADVANCE - 2) /* a 4-pixel space reads as one word break */
#define FONT_FIRST_CHAR 32
#define FONT_COLS 16 /* font.png is 16 x 6 cells of 8 x 10: chars 32..127, baseline at y = 7 */

/* tiles.png: 8 x 3 cells of 16 x 16 */
typedef enum TileSprite {
    TS_FLOOR_0, /* four floor variants: pick by a hash of (tx, ty) */
    TS_FLOOR_1,
    TS_FLOOR_2,
    TS_FLOOR_3,
    TS_WALL,      /* wall seen from above (its south neighbour is also wall) */
    TS_WALL_FACE, /* wall whose south neighbour is open: brick front face */
    TS_WATER_0,   /* two animation frames, ~2 Hz */
    TS_WATER_1,
    TS_SPIKES,
    TS_DOOR_RED,
    TS_DOOR_GREEN,
    TS_DOOR_BLUE,
    TS_EXIT,     /* stairs down */
    TS_PORTAL_0, /* two animation frames */
    TS_PORTAL_1,
    TS_DOOR_OPEN, /* an unlocked door's floor */
    TS_SPIKES_DOWN, /* retracted spikes (if the game animates them) */
    TS_FLOOR_CRACKED,
    TS_COUNT
} TileSprite;
#define TILES_ROWS 3

/* sprites.png: 8 x 5 cells of 16 x 16 */
#define PLAYER_FRAMES 3 /* stand, step left foot, step right foot */
typedef enum Facing { FACING_DOWN, FACING_UP, FACING_LEFT, FACING_RIGHT, FACING_COUNT } Facing;
typedef enum SpriteIndex {
    SPR_PLAYER = 0,     /* + facing * PLAYER_FRAMES + frame: cells 0..11 */
    SPR_PATROLLER = 12, /* + frame (2) */
    SPR_CHASER = 14,    /* + frame (2) */
    SPR_TURRET = 16,    /* + frame (2): idle, firing */
    SPR_COIN = 18,      /* + frame (2): spin */
    SPR_KEY_RED = 20,   /* SPR_KEY_RED + KeyColor */
    SPR_KEY_GREEN = 21,
    SPR_KEY_BLUE = 22,
    SPR_HEART = 23,       /* pickup and HUD full heart */
    SPR_HEART_EMPTY = 24, /* HUD */
    SPR_BULLET_PLAYER = 25,
    SPR_BULLET_ENEMY = 26,
    SPR_PARTICLE = 27,      /* soft 4x4 dot, tint it */
    SPR_SPARK = 28,         /* small plus, tint it */
    SPR_SHADOW = 29,        /* dark ellipse to put under actors */
    SPR_HEART_HALF = 30,    /* HUD */
    SPR_SKULL = 31,         /* death marker / game over */
    SPR_SIGN = 32,          /* a wooden signpost (a level's `sign` line), drawn on its tile */
    SPR_COUNT
} SpriteIndex;
#define SPRITES_ROWS 5
#define ENEMY_FRAMES 2

#endif
