/* sounds.h - breakout's sound effects, synthesized at start-up with the engine's synth
   (strata/audio/synth.h) into the permanent arena, played through its mixer when a
   step's events (sim.h) call for them.

       Sounds snd;
       sounds_make(perm, &snd);
       sounds_play(&snd, mixer, sim.events, ball_x_fraction);   // each tick; mixer may be NULL
*/
#ifndef BREAKOUT_SOUNDS_H_
#define BREAKOUT_SOUNDS_H_

#include <stdbool.h>
#include <stdint.h>

#include <strata/audio/mixer.h>
#include <strata/core/arena.h>

enum { SND_PADDLE, SND_WALL, SND_BRICK, SND_METAL, SND_LOST, SND_CLEAR, SND_OVER, SND_LAUNCH, SND_COUNT };

typedef struct Sounds {
    Sound sound[SND_COUNT];
    uint64_t bytes; /* of the permanent arena */
} Sounds;

/* False when perm is full (reported); the sounds made so far still play. */
bool sounds_make(Arena *perm, Sounds *out);
/* The sounds for `events`, panned to where the ball is (0 left .. 1 right). */
void sounds_play(const Sounds *s, Mixer *m, uint32_t events, float where);

#endif
