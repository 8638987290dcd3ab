/* fixed_step.h - the fixed-step clock: a simulation that runs in steps of one size
   whatever the display does.

       FixedStep clock = st_fixed_step_make(60);
       int steps = st_fixed_step_advance(&clock, st_platform_seconds(pf));   // once a frame
       for (int i = 0; i < steps; i++) update(clock.dt);
*/
#ifndef FIXED_STEP_H
#define FIXED_STEP_H

#include <stdint.h>

/* Fixed simulation step with an accumulator. advance() returns how many steps to simulate
   for the time that passed, never more than max_steps: after a long stall (debugger, window
   drag) the surplus is dropped instead of being simulated in a burst that takes longer
   still (the spiral of death). `alpha` is the leftover fraction of a step, for interpolation. */
typedef struct FixedStep {
    double dt;          /* seconds per step */
    double accumulator; /* seconds not yet simulated */
    double last;        /* time of the previous advance; < 0 before the first */
    double alpha;
    int max_steps;
    uint64_t steps;   /* total steps handed out */
    uint64_t dropped; /* steps skipped by the clamp */
} FixedStep;

FixedStep st_fixed_step_make(int hz); /* max_steps = 5 */
int st_fixed_step_advance(FixedStep *fs, double now_seconds);

#endif
