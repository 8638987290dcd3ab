/* diag_capture.h - every report copied into an arena, in order, for a test (or a fuzz target)
   that checks what was said: a sink over diag.h's, kept apart from it so that diag.h needs
   nothing of the arena and the arena can report through it.

       DiagCapture cap;
       st_diag_capture_begin(&cap, arena);
       ... code that reports ...
       st_diag_capture_end(&cap);
       CHECK(cap.of[DIAG_ERROR] == 1 && strstr(cap.first->d.text, "level.lvl:3:7: error:")); */
#ifndef DIAG_CAPTURE_H
#define DIAG_CAPTURE_H

#include <stdint.h>

#include <strata/core/arena.h>
#include <strata/core/diag.h>

typedef struct DiagCaptured {
    struct DiagCaptured *next;
    Diag d; /* its strings live in the capture's arena */
} DiagCaptured;

typedef struct DiagCapture {
    Arena *arena;
    DiagCaptured *first, *last;
    uint32_t count, lost;          /* lost: reports the arena had no room for (they went to stderr) */
    uint32_t of[DIAG_LEVEL_COUNT]; /* how many of each level */
    DiagSink before;
} DiagCapture;

/* Installs a sink that copies every report into `arena` (and prints nothing) until
   st_diag_capture_end, which puts back the sink that was there. */
void st_diag_capture_begin(DiagCapture *c, Arena *arena);
void st_diag_capture_end(DiagCapture *c);

#endif
