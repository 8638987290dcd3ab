/* draw.h - what the player sees: the level, the actors, the HUD and the screens' cards.

   Pure presentation: reads a Game and its Effects, pushes draw commands into the renderer
   (which keeps them in the frame arena), never changes either. The camera, and where the
   sign's panel was last frame, are the only state it owns (in the DrawView).

       Font font;                         // proportional, measured from font.png at load
       st_asset_load_font(rd, perm, "assets/font.png", FONT_CELL_W, FONT_CELL_H, 4, &font, &err);
       DrawAssets art = { tiles, sprites, font };
       DrawView view = draw_view_make(480, 270);   // the world gets 480 x (270 - DRAW_HUD_H)
       ...
       draw_view_update(&view, g);        // once per simulated tick: the camera follows
       draw_game(rd, &art, &view, g, &fx); // once per displayed frame, between begin and end;
                                          // fx (effects.h): particles, shake, flashes, or NULL */
#ifndef DRAW_H
#define DRAW_H

#include "front/effects.h"
#include "rules/game.h"
#include <strata/render/camera.h>
#include <strata/render/font.h>

enum { /* layers, low to high */
       LAYER_FLOOR = 0,
       LAYER_WALL = 1,
       LAYER_PICKUP = 4,
       LAYER_SHADOW = 6,
       LAYER_GOAL = 2,     /* the exit's glow, over its tile */
       LAYER_ACTOR = 10,   /* + screen row / 2: actors lower on screen are drawn in front */
       LAYER_PLAYER = 152, /* above every enemy: the player must never vanish under a ghost */
       LAYER_BULLET = 160,
       LAYER_PARTICLE = 170,
       LAYER_FADE = 200,
       LAYER_HUD = 210,
       LAYER_HUD_TEXT = 212,
       LAYER_CARD = 220,
       LAYER_CARD_TEXT = 222,
       LAYER_REWIND = 224,  /* the rewind's tint and label, over the world and the cards */
       LAYER_MESSAGE = 230, /* the report line: over cards, so a failure behind a menu is seen */
};

#define DRAW_HUD_H 18 /* the status bar on top; the world is drawn in the screen below it */

typedef struct DrawAssets {
    const Texture *tiles, *sprites;
    Font font;
} DrawAssets;

typedef struct DrawView {
    Camera cam;
    /* the Sim's level_serial last seen: a change snaps the camera
       instead of sliding it (0: none seen yet). Not a pointer into the
       level arena: a reload puts the same level at the same address. */
    uint32_t level_serial;
    float w, h;
    float sign_y; /* the top of the sign's panel last frame, kept while it hides nothing */
    /* the rewind (rules/rewind.h), set by the front end before drawing: ticks back per
       tick, -1 standing at the oldest state, 0 playing */
    int32_t rewind;
} DrawView;

DrawView draw_view_make(float w, float h);
/* A panel of right_w pixels docked on the right of the screen, under the HUD (the F1
   overlay): the world is seen in the rest, and the cards, the sign and the message line
   are centred there; 0 gives the whole width back. Cheap to call every frame. */
void draw_view_dock(DrawView *v, float right_w);
void draw_view_update(DrawView *v, const Game *g);
void draw_game(Renderer *rd, const DrawAssets *a, DrawView *v, const Game *g, const Effects *fx);

#endif
