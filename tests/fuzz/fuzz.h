/* fuzz.h - what the fuzz targets share: PROMISE(x), a promise of the module under test
   that every input must keep. A broken one prints itself and traps, which libFuzzer reports
   as a crash with the input saved (tests/fuzz/run.sh turns it into a failed test). */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdio.h>

#define PROMISE(x)                                                                   \
    do {                                                                             \
        if (!(x)) {                                                                  \
            fprintf(stderr, "broken promise: %s (%s:%d)\n", #x, __FILE__, __LINE__); \
            __builtin_trap();                                                        \
        }                                                                            \
    } while (0)

#endif
