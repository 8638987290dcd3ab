// pre.js - the browser build's side of the platform, put at the top of game.js by
// tools/web/web.cmake (--pre-js). It works with any page that defines a Module: the
// game's own (index.html) and the tests' (tests/web) use the same code path.
//
//  - Arguments: the page's query string becomes the command line, one argument per
//    "arg" parameter (index.html?arg=--level&arg=levels/03-spikes-and-water.lvl), so a
//    test runs the real game with the same options as natively.
//  - Files: the art, sounds, music and levels are preloaded at /assets and /levels; a
//    replay (an argument ending in .rep) is fetched from beside the page when it is named,
//    so that the download every player waits for holds only what playing needs;
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
    Module["arguments"].forEach(function (arg) {
      if (!/\.rep$/.test(arg) || /^\//.test(arg) || /(^|\/)\.\.(\/|$)/.test(arg)) return;
      addRunDependency("ad-fetch " + arg);
      fetch(arg).then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.arrayBuffer();
      }).then(function (bytes) {
        var dir = "";
        arg.split("/").slice(0, -1).forEach(function (part) {
          dir += (dir ? "/" : "") + part;
          try { FS.mkdir(dir); } catch (e) { /* there already */ }
        });
        FS.writeFile(arg, new Uint8Array(bytes));
      }).catch(function (err) {
        console.warn(arg + ": cannot fetch it from beside the page: " + err.message);
      }).finally(function () { removeRunDependency("ad-fetch " + arg); });
    });
    ENV["XDG_DATA_HOME"] = "/save";
    ENV["XDG_CONFIG_HOME"] = "/save/config";
    // The game's own variables (its page sets Module.env: the folder of its art, say).
    var env = Module["env"] || {};
    Object.keys(env).forEach(function (k) { ENV[k] = env[k]; });
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
