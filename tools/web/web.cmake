# web.cmake - the WebAssembly build (tools/web.sh configures it with emcmake), included by
# the top CMakeLists.txt in place of its native package lookups when EMSCRIPTEN is set.
#
# Nothing comes from outside Debian: SDL2 is the library tools/web.sh compiled from
# Debian's libsdl2 source package into AD_WEB_DEPS (include/SDL2, lib/libSDL2.a); stb is
# the header-only package, by its own folder (never /usr/include itself:
# glibc's headers there would shadow emscripten's libc).
set(AD_WEB_DEPS "${PROJECT_SOURCE_DIR}/build/web-deps" CACHE PATH "tools/web.sh's SDL2 and header folders")
if(NOT EXISTS "${AD_WEB_DEPS}/lib/libSDL2.a")
  message(FATAL_ERROR "no ${AD_WEB_DEPS}/lib/libSDL2.a: build the web version with tools/web.sh")
endif()

# The names the engine links to natively, made here so engine/ and game/ need no web case.
add_library(PkgConfig::SDL2 INTERFACE IMPORTED)
# Both folders, as natively (/usr/include and pkg-config's /usr/include/SDL2): the engine
# includes <SDL2/SDL.h>, SDL's own headers include each other as "SDL_stdinc.h".
target_include_directories(PkgConfig::SDL2 SYSTEM INTERFACE "${AD_WEB_DEPS}/include/SDL2" "${AD_WEB_DEPS}/include")
target_link_libraries(PkgConfig::SDL2 INTERFACE "${AD_WEB_DEPS}/lib/libSDL2.a")
# Single-threaded on purpose (see tools/web/SDL_config.h): -pthread would make a build
# that needs SharedArrayBuffer and cross-origin isolation from whoever serves the page.
add_library(Threads::Threads INTERFACE IMPORTED)
set(STB_INCLUDE_DIR "${AD_WEB_DEPS}/include/stb")

# A game's page from its executable TARGET: OUTPUT_DIR/index.html (engine/platform/web's
# template, with the game's TITLE, logical SIZE w h, its ENV for the page's environment and
# the HELP line shown once it runs), TARGET.js and TARGET.wasm there, and TARGET.data when
# PRELOAD names files (SRC@/DEST, put in the page's file system before main runs). The
# link options are the same for every game on the engine.
function(ad_web_page)
  cmake_parse_arguments(P "" "TARGET;OUTPUT_DIR;TITLE;ENV;HELP" "SIZE;PRELOAD" ${ARGN})
  set(web "${PROJECT_SOURCE_DIR}/engine/platform/web")
  set_target_properties(${P_TARGET} PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${P_OUTPUT_DIR}")
  target_link_options(${P_TARGET} PRIVATE
    -sALLOW_MEMORY_GROWTH=1
    # WebGL 2 for the GL backend (OpenGL ES 3.0); without it SDL's WebGL 1 renderer draws.
    -sMAX_WEBGL_VERSION=2
    -sINITIAL_MEMORY=16MB
    -sENVIRONMENT=web
    -sEXIT_RUNTIME=0
    -sFORCE_FILESYSTEM=1
    # UTF8ToString for tests/web.
    -sEXPORTED_RUNTIME_METHODS=FS,UTF8ToString
    -sEXPORTED_FUNCTIONS=_main,_st_web_state
    "SHELL:--js-library ${web}/library.js"
    -lidbfs.js
    "SHELL:--pre-js ${web}/pre.js")
  # SHELL: keeps CMake from merging the repeated flags into one.
  foreach(file IN LISTS P_PRELOAD)
    target_link_options(${P_TARGET} PRIVATE "SHELL:--preload-file ${file}")
  endforeach()
  if(P_PRELOAD)
    target_link_options(${P_TARGET} PRIVATE "SHELL:--exclude-file *.md")
  endif()
  set_property(TARGET ${P_TARGET} APPEND PROPERTY LINK_DEPENDS "${web}/pre.js" "${web}/library.js")
  set(WEB_TITLE "${P_TITLE}")
  list(GET P_SIZE 0 WEB_LOGICAL_W)
  list(GET P_SIZE 1 WEB_LOGICAL_H)
  set(WEB_ENV "${P_ENV}")
  set(WEB_HELP "${P_HELP}")
  set(WEB_SCRIPT "${P_TARGET}.js")
  configure_file("${web}/index.html" "${P_OUTPUT_DIR}/index.html" @ONLY)
endfunction()

# The game's page: build/web/index.html, game.js, game.wasm, and game.data with the art and
# the levels preloaded at /. What the game reads, and nothing else: the README's pictures
# stay out of game.data, and the replays are files beside the page that pre.js fetches when
# an argument names one (they are for watching and for tests/web, not for every player's
# download).
function(ad_web_game)
  set(src "${PROJECT_SOURCE_DIR}")
  ad_web_page(TARGET game OUTPUT_DIR "${CMAKE_BINARY_DIR}" TITLE "Arena Dungeon" SIZE 480 270
    ENV "AD_ASSET_DIR: \"/assets\""
    HELP "Click the game, then: arrows or WASD move, Space fires, Enter chooses, Esc pauses."
    PRELOAD "${src}/assets/tiles.png@/assets/tiles.png" "${src}/assets/sprites.png@/assets/sprites.png"
            "${src}/assets/font.png@/assets/font.png" "${src}/assets/sounds@/assets/sounds"
            "${src}/assets/music@/assets/music" "${src}/levels@/levels")
  file(GLOB replays ${src}/tests/replays/*.rep)
  file(COPY ${replays} DESTINATION ${CMAKE_BINARY_DIR}/tests/replays)
endfunction()

# The second game's page (examples/breakout, added by the top CMakeLists.txt): build/web/
# breakout/index.html, breakout.js and .wasm; no .data (its font and sounds are made by
# code), and its committed replay beside the page for tests/web.
function(ad_web_breakout)
  set(dir "${CMAKE_BINARY_DIR}/breakout")
  ad_web_page(TARGET breakout OUTPUT_DIR "${dir}" TITLE "Breakout" SIZE 320 180 # sim.h: SIM_W x SIM_H
    HELP "Click the game, then: Left/Right or A/D move, Space launches, P pauses.")
  # configure_file: a re-recorded demo.rep reconfigures and is copied again.
  configure_file(${PROJECT_SOURCE_DIR}/examples/breakout/demo.rep "${dir}/demo.rep" COPYONLY)
endfunction()
