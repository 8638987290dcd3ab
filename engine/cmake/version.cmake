# The one version of the engine and the game (CHANGELOG.md): engine/CMakeLists.txt and the
# top CMakeLists.txt both take it from here, so a release changes this line only.
set(STRATA_VERSION 0.3.0)
