/* fixed_step.c - the accumulator of fixed_step.h. */
#include <strata/platform/fixed_step.h>

FixedStep st_fixed_step_make(int hz) {
    if (hz <= 0) hz = 60;
    return (FixedStep){.dt = 1.0 / hz, .last = -1, .max_steps = 5};
}

int st_fixed_step_advance(FixedStep *fs, double now) {
    if (fs->last < 0) {
        /* First frame: simulate one step so the first picture is of a live world. */
        fs->last = now;
        fs->steps++;
        return 1;
    }
    double elapsed = now - fs->last;
    fs->last = now;
    if (elapsed < 0) elapsed = 0;
    fs->accumulator += elapsed;
    /* Tolerate timer jitter: a frame of 16.6 ms vs a 16.67 ms step should not alternate
       between 0 and 2 steps, so round to the nearest step within 1/8 of one. */
    int n = (int)((fs->accumulator + fs->dt / 8) / fs->dt);
    if (n > fs->max_steps) {
        fs->dropped += (uint64_t)(n - fs->max_steps);
        n = fs->max_steps;
        fs->accumulator = n * fs->dt; /* the surplus is forgotten, not owed */
    }
    fs->accumulator -= n * fs->dt;
    if (fs->accumulator < 0) fs->accumulator = 0;
    fs->alpha = fs->accumulator / fs->dt;
    fs->steps += (uint64_t)n;
    return n;
}
