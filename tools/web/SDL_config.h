/* SDL_config.h - SDL2's build configuration for the web build (tools/web.sh), written for
   this project: SDL 2.26's sources from Debian's libsdl2 source package are compiled
   directly with emcc against this file instead of through SDL's own CMake, which takes
   minutes to configure under emcmake. It says what emscripten's libc has and which SDL
   back ends the game uses in a browser; everything else is left out so it is neither
   compiled nor linked.

   Chosen here, and why:
   - video: the emscripten driver (a <canvas>) with the OpenGL ES 2 renderer over WebGL,
     which is what platform.c's SDL_CreateRenderer picks; the software renderer is always
     there too (SDL's render/software), for --headless.
   - audio: the emscripten driver (Web Audio); the dummy one for a browser without it.
   - joystick: the emscripten driver, i.e. the browser's Gamepad API.
   - no threads: the build is single-threaded (no SharedArrayBuffer, so no cross-origin
     isolation headers are needed); SDL's audio callback then runs on the main thread
     from Web Audio, and the mixer's lock-free ring (audio/mixer.h) works as it does with
     a thread.
   - no haptic, hidapi, sensors beyond dummy, dynamic loading or cpuinfo: a browser has
     none of them. */
#ifndef SDL_config_h_
#define SDL_config_h_

#include "SDL_platform.h"

#if !defined(__EMSCRIPTEN__)
#error "tools/web/SDL_config.h is the web build's configuration: emcc only"
#endif

#define SIZEOF_VOIDP 4 /* wasm32 */
#define HAVE_GCC_ATOMICS 1

/* The C library: emscripten's musl. */
#define STDC_HEADERS 1
#define HAVE_ALLOCA_H 1
#define HAVE_CTYPE_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MALLOC_H 1
#define HAVE_MATH_H 1
#define HAVE_MEMORY_H 1
#define HAVE_SIGNAL_H 1
#define HAVE_STDARG_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_WCHAR_H 1

#define HAVE_MALLOC 1
#define HAVE_CALLOC 1
#define HAVE_REALLOC 1
#define HAVE_FREE 1
#define HAVE_ALLOCA 1
#define HAVE_GETENV 1
#define HAVE_SETENV 1
#define HAVE_PUTENV 1
#define HAVE_UNSETENV 1
#define HAVE_QSORT 1
#define HAVE_BSEARCH 1
#define HAVE_ABS 1
#define HAVE_BCOPY 1
#define HAVE_MEMSET 1
#define HAVE_MEMCPY 1
#define HAVE_MEMMOVE 1
#define HAVE_MEMCMP 1
#define HAVE_WCSLEN 1
#define HAVE_WCSDUP 1
#define HAVE_WCSSTR 1
#define HAVE_WCSCMP 1
#define HAVE_WCSNCMP 1
#define HAVE_WCSCASECMP 1
#define HAVE_WCSNCASECMP 1
#define HAVE_STRLEN 1
#define HAVE_STRLCPY 1
#define HAVE_STRLCAT 1
#define HAVE_STRCHR 1
#define HAVE_STRRCHR 1
#define HAVE_STRSTR 1
#define HAVE_STRTOK_R 1
#define HAVE_STRTOL 1
#define HAVE_STRTOUL 1
#define HAVE_STRTOLL 1
#define HAVE_STRTOULL 1
#define HAVE_STRTOD 1
#define HAVE_ATOI 1
#define HAVE_ATOF 1
#define HAVE_STRCMP 1
#define HAVE_STRNCMP 1
#define HAVE_STRCASECMP 1
#define HAVE_STRNCASECMP 1
#define HAVE_SSCANF 1
#define HAVE_VSSCANF 1
#define HAVE_VSNPRINTF 1
#define HAVE_M_PI 1
#define HAVE_ACOS 1
#define HAVE_ACOSF 1
#define HAVE_ASIN 1
#define HAVE_ASINF 1
#define HAVE_ATAN 1
#define HAVE_ATANF 1
#define HAVE_ATAN2 1
#define HAVE_ATAN2F 1
#define HAVE_CEIL 1
#define HAVE_CEILF 1
#define HAVE_COPYSIGN 1
#define HAVE_COPYSIGNF 1
#define HAVE_COS 1
#define HAVE_COSF 1
#define HAVE_EXP 1
#define HAVE_EXPF 1
#define HAVE_FABS 1
#define HAVE_FABSF 1
#define HAVE_FLOOR 1
#define HAVE_FLOORF 1
#define HAVE_FMOD 1
#define HAVE_FMODF 1
#define HAVE_LOG 1
#define HAVE_LOGF 1
#define HAVE_LOG10 1
#define HAVE_LOG10F 1
#define HAVE_LROUND 1
#define HAVE_LROUNDF 1
#define HAVE_POW 1
#define HAVE_POWF 1
#define HAVE_ROUND 1
#define HAVE_ROUNDF 1
#define HAVE_SCALBN 1
#define HAVE_SCALBNF 1
#define HAVE_SIN 1
#define HAVE_SINF 1
#define HAVE_SQRT 1
#define HAVE_SQRTF 1
#define HAVE_TAN 1
#define HAVE_TANF 1
#define HAVE_TRUNC 1
#define HAVE_TRUNCF 1
#define HAVE_FSEEKO 1
#define HAVE_SETJMP 1
#define HAVE_NANOSLEEP 1
#define HAVE_SYSCONF 1
#define HAVE_CLOCK_GETTIME 1

/* Subsystems a browser does not have, or the game does not use. */
#define SDL_CPUINFO_DISABLED 1
#define SDL_HAPTIC_DISABLED 1
#define SDL_HIDAPI_DISABLED 1
#define SDL_THREADS_DISABLED 1
#define SDL_LOADSO_DISABLED 1
#define SDL_SENSOR_DUMMY 1

/* The back ends. */
#define SDL_AUDIO_DRIVER_EMSCRIPTEN 1
#define SDL_AUDIO_DRIVER_DUMMY 1
#define SDL_JOYSTICK_EMSCRIPTEN 1
#define SDL_TIMER_UNIX 1
#define SDL_VIDEO_DRIVER_EMSCRIPTEN 1
#define SDL_VIDEO_RENDER_OGL_ES2 1
#define SDL_VIDEO_OPENGL_ES2 1
#define SDL_VIDEO_OPENGL_EGL 1
#define SDL_POWER_EMSCRIPTEN 1
#define SDL_FILESYSTEM_EMSCRIPTEN 1

#endif
