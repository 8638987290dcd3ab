# windows.cmake - the Windows build (tools/windows.sh configures it with the preset
# `windows`: tools/windows/mingw-w64.cmake's cross compiler), included by the top
# CMakeLists.txt in place of its native package lookups when AD_WINDOWS_DEPS is set.
#
# Nothing comes from outside Debian: SDL2 is the library tools/windows.sh
# compiled from Debian's source package into AD_WINDOWS_DEPS (include/, lib/); stb is the
# header-only package, by its own folder (never /usr/include itself: glibc's headers there
# would shadow mingw-w64's).
if(NOT EXISTS "${AD_WINDOWS_DEPS}/lib/libSDL2.a")
  message(FATAL_ERROR "no ${AD_WINDOWS_DEPS}/lib/libSDL2.a: build the Windows version with tools/windows.sh")
endif()
# C99's printf (%zu, %lld) rather than msvcrt's.
add_compile_definitions(__USE_MINGW_ANSI_STDIO=1)

# The names the engine links to natively, made here so engine/ and game/ need no Windows case.
add_library(PkgConfig::SDL2 INTERFACE IMPORTED)
target_include_directories(PkgConfig::SDL2 SYSTEM INTERFACE "${AD_WINDOWS_DEPS}/include/SDL2"
                                                            "${AD_WINDOWS_DEPS}/include")
# SDL2main gives every program that includes SDL.h its main, with the command line as
# UTF-8 (Windows hands main the ANSI code page); then SDL and the system libraries SDL's
# static link needs.
target_link_libraries(PkgConfig::SDL2 INTERFACE mingw32 "${AD_WINDOWS_DEPS}/lib/libSDL2main.a"
  "${AD_WINDOWS_DEPS}/lib/libSDL2.a" setupapi winmm imm32 version ole32 oleaut32 gdi32 user32
  shell32 uuid advapi32 dinput8 dxguid)
# The engine's threads are Windows' own (SDL's, and thread-local storage from the compiler).
add_library(Threads::Threads INTERFACE IMPORTED)
set(STB_INCLUDE_DIR "${AD_WINDOWS_DEPS}/include/stb")
