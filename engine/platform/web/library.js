// library.js - linked with --js-library by tools/web/web.cmake. SDL's audio code calls the
// JS helpers autoResumeAudioContext and dynCall from EM_ASM; emcc's own SDL port pulls them
// into a game's .js, our SDL (built from Debian's source) must say so itself.
// engine/host/host.c calls this empty function once, which is what brings its __deps in.
mergeInto(LibraryManager.library, {
  web_sdl_deps__deps: ["$autoResumeAudioContext", "$dynCall"],
  web_sdl_deps: function () {},
});
