/* SDL_config.h - SDL2's build configuration for the Windows build (tools/windows.sh): SDL
   2.26's sources from Debian's libsdl2 source package are compiled directly with mingw-w64
   against this file instead of through SDL's own CMake, whose configure step alone takes
   minutes. SDL's own SDL_config_windows.h says what Windows has; this file takes out what
   the game does not use and what mingw-w64's headers cannot build:
   - hidapi, raw input and Windows.Gaming.Input joysticks: DirectInput and XInput cover
     every pad the game reads through SDL's game controller API (XInput for Xbox pads,
     DirectInput for the rest);
   - Direct3D 12, Vulkan, EGL and OpenGL ES: the game draws with SDL's renderer (Direct3D
     9/11, OpenGL or software) or its own OpenGL backend on WGL;
   - the Windows sensor API (no sensors in the game). */
#ifndef SDL_config_h_
#include "SDL_config_windows.h"

#if !defined(__WIN32__)
#error "tools/windows/SDL_config.h is the Windows build's configuration: mingw-w64 only"
#endif

#undef SDL_JOYSTICK_HIDAPI
#undef SDL_JOYSTICK_RAWINPUT
#undef SDL_JOYSTICK_WGI
#define SDL_HIDAPI_DISABLED 1
#undef SDL_VIDEO_RENDER_D3D12
#undef SDL_VIDEO_VULKAN
#undef SDL_VIDEO_OPENGL_EGL
#undef SDL_VIDEO_OPENGL_ES2
#undef SDL_VIDEO_RENDER_OGL_ES2
#undef SDL_SENSOR_WINDOWS
#endif
