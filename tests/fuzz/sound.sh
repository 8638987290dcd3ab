# The sound loader (fuzz_sound.c): WAV and Ogg Vorbis through st_sound_decode and stb_vorbis,
# Ogg mutated packet by packet with its pages and CRCs rebuilt (a custom mutator). The seeds
# are the small synthetic files (tests/audio/fixtures/make_synthetic.py): an oggenc file is
# 4 KB of setup header, and its mutants would make the corpus megabytes; test_sound flips
# bits in those, CRCs made right.
FUZZ_SOURCES="engine/core/*.c engine/audio/sound.c engine/audio/vorbis_check.c tests/fuzz/fuzz_sound.c"
FUZZ_SEEDS="tests/audio/fixtures/synthetic/*"
FUZZ_MAX_LEN=2048
FUZZ_RUNS=36000
