# The image loader (fuzz_image.c): PNG through st_asset_decode_rgba and stb_image on its arena
# Allocator. asset.c sits in the renderer's module and its watch reloads sounds, so the
# renderer and the audio modules are linked too (unused). The corpus started from small
# PNGs of every colour type, bit depth and interlace method.
FUZZ_SOURCES="engine/core/*.c engine/platform/*.c engine/render/*.c engine/render/sdl/*.c
              engine/render/gl/*.c engine/asset/*.c engine/audio/*.c tests/fuzz/fuzz_image.c"
FUZZ_CFLAGS="$(pkg-config --cflags sdl2)"
FUZZ_LIBS="$(pkg-config --libs sdl2)"
FUZZ_SEEDS="assets/tiles.png assets/sprites.png assets/font.png"
FUZZ_MAX_LEN=16384
FUZZ_RUNS=180000
