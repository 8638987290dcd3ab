/* base.h - the small arithmetic every module would otherwise write for itself.

       int32_t step = CLAMP(dx, -SPEED, SPEED);       // MIN(MAX(dx, -SPEED), SPEED)
       if (ABS(a.x - b.x) < reach) ...
       for (size_t i = 0; i < ARRAY_COUNT(names); i++) ...

   Macros, so they work on any arithmetic type; like every macro of the kind they evaluate
   their arguments more than once, so pass no side effects. ARRAY_COUNT takes an array,
   not a pointer (a pointer gives a wrong count, which is why it is written once). Header
   only: there is nothing to compile. */
#ifndef BASE_H
#define BASE_H

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CLAMP(x, lo, hi) MIN(MAX((x), (lo)), (hi))
#define ABS(x) ((x) < 0 ? -(x) : (x))
#define ARRAY_COUNT(a) (sizeof(a) / sizeof((a)[0]))

#endif
