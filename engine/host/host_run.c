/* host_run.c - the host with no game in it: the game is the library it loads
   (--hot-library FILE, else libgame_hot.so beside it) and swaps while it runs. What
   tools/dev.sh starts; the game's code exists only in the library. */
#include <strata/host/host.h>

int main(int argc, char **argv) { return st_host_main(NULL, argc, argv); }
