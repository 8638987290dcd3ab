// pre.js - the browser build's side of the platform, put at the top of game.js by
// tools/web/web.cmake (--pre-js). It works with any page that defines a Module: the
// game's own (index.html) and the tests' (tests/web) use the same code path.
//
//  - Arguments: the page's query string becomes the command line, one argument per
//    "arg" parameter (index.html?arg=--level&arg=levels/03-spikes-and-water.lvl), so a
//    test runs the real game with the same options as natively.
//  - Files: art, levels and replays are preloaded at /assets, /levels, /tests/replays;
//    the save folder ($XDG_DATA_HOME = /save) is IndexedDB (IDBFS), read before main
//    runs and written back after every atomic write (os_file.c calls Module.adPersist),
//    one FS.syncfs at a time so that a save written during a sync is not lost. The
//    settings folder ($XDG_CONFIG_HOME = /save/config) is inside it, so the one mount
//    keeps both files.
//  - The end of a run (Quit, --frames, a replay's end) calls Module.adExit(status).
var Module = typeof Module !== "undefined" ? Module : {};
(function () {
  var params = new URLSearchParams(typeof location !== "undefined" ? location.search : "");
  if (!Module["arguments"]) Module["arguments"] = params.getAll("arg");
  Module["preRun"] = [].concat(Module["preRun"] || []);
  Module["preRun"].push(function () {
    ENV["XDG_DATA_HOME"] = "/save";
    ENV["XDG_CONFIG_HOME"] = "/save/config";
    ENV["AD_ASSET_DIR"] = "/assets";
    FS.mkdir("/save");
    FS.mount(IDBFS, {}, "/save");
    addRunDependency("ad-save");
    FS.syncfs(true, function (err) {
      if (err) console.warn("save: cannot read the browser's storage: " + err);
      removeRunDependency("ad-save");
    });
  });
  var syncing = false, again = false;
  Module["adSaves"] = 0; // syncs finished, for tests/web
  Module["adPersist"] = function () {
    if (syncing) { again = true; return; }
    syncing = true;
    FS.syncfs(false, function (err) {
      syncing = false;
      if (err) console.warn("save: cannot write the browser's storage: " + err);
      else Module["adSaves"]++;
      if (again) { again = false; Module["adPersist"](); }
      else if (!err) console.log("save: written to the browser's storage");
    });
  };
  Module["adExit"] = function (status) {
    Module["adStatus"] = status;
    console.log("game: exit status " + status);
    if (Module["onGameExit"]) Module["onGameExit"](status);
  };
})();
