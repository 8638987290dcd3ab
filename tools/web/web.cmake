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
# cJSON (Tiled maps), compiled by tools/web.sh from Debian's cjson source package.
add_library(PkgConfig::CJSON INTERFACE IMPORTED)
target_include_directories(PkgConfig::CJSON SYSTEM INTERFACE "${AD_WEB_DEPS}/include")
target_link_libraries(PkgConfig::CJSON INTERFACE "${AD_WEB_DEPS}/lib/libcjson.a")
set(STB_INCLUDE_DIR "${AD_WEB_DEPS}/include/stb")

# The game's page: build/web/index.html (ours), game.js, game.wasm, and game.data with the
# art, the levels and the committed replays preloaded into the page's file system at /.
function(ad_web_game)
  set(web "${PROJECT_SOURCE_DIR}/engine/platform/web")
  set_target_properties(game PROPERTIES SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")
  target_link_options(game PRIVATE
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
    "SHELL:--pre-js ${web}/pre.js"
    # SHELL: keeps CMake from merging the repeated flags into one.
    # What the game reads, and nothing else: the README's pictures stay out of game.data,
    # and the replays are files beside the page that pre.js fetches when an argument names
    # one (they are for watching and for tests/web, not for every player's download).
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/tiles.png@/assets/tiles.png"
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/sprites.png@/assets/sprites.png"
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/font.png@/assets/font.png"
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/sounds@/assets/sounds"
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/assets/music@/assets/music"
    "SHELL:--preload-file ${PROJECT_SOURCE_DIR}/levels@/levels"
    "SHELL:--exclude-file *.md")
  set_property(TARGET game APPEND PROPERTY LINK_DEPENDS "${web}/pre.js" "${web}/library.js")
  # The page, with the game's name and size; its art where the page's env says.
  set(WEB_TITLE "Arena Dungeon")
  set(WEB_LOGICAL_W 480)
  set(WEB_LOGICAL_H 270)
  set(WEB_ENV "AD_ASSET_DIR: \"/assets\"")
  configure_file("${web}/index.html" "${CMAKE_BINARY_DIR}/index.html" @ONLY)
  file(GLOB replays ${PROJECT_SOURCE_DIR}/tests/replays/*.rep)
  file(COPY ${replays} DESTINATION ${CMAKE_BINARY_DIR}/tests/replays)
endfunction()
