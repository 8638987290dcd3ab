// web_test.mjs - the browser tests: the real web build (tools/web.sh) in headless Chromium,
// driven over the DevTools protocol in real time (cdp.mjs).
//
//   node tests/web/web_test.mjs BUILD_WEB_DIR [NATIVE_GAME]
//   node tests/web/web_test.mjs BUILD_WEB_DIR --shot OUT.png    the README's screenshot
//
//   web_replay   the full committed replay, headless in the page, plays to the end with
//                the recorded hash (and NATIVE_GAME's, when given: the same run natively)
//   web_golden   a level drawn in a window by each backend (GL on WebGL 2, SDL's on
//                WebGL 1), the bot playing with --fixed-clock, read back at tick 240 and
//                compared with tests/golden
//   web_keys     synthetic key presses: Enter leaves the title, an arrow moves the player;
//                losing focus pauses
//   web_save     a setting changed in the menu is in the browser's storage after a reload
//   web_rewind   the rewind key held while playing: the tick and the player go back, and
//                play goes on from there when it is let go
//   web_seek     the replay viewer in the page: --seek lands on the tick, Right steps one,
//                End and Home go to the ends, Space plays
// AD_WEB_ONLY=name,name runs only those.
// Prints "web: PASS name (s)" or "web: FAIL name: why" per test; exits 1 on any failure.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openPage } from "./cdp.mjs";
import { decodePng } from "./png.mjs";
import { serve } from "../../tools/web/serve.mjs";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [webDir, extra, extra2] = process.argv.slice(2);
if (!webDir) { console.error("usage: web_test.mjs BUILD_WEB_DIR [NATIVE_GAME | --shot OUT.png]"); process.exit(2); }

// The golden frames' tolerance, as tests/golden/backends_test.sh states it for the native
// backends: the renderer snaps every quad to whole logical pixels (render.c), so WebGL
// (SwiftShader) covers the same pixels as SDL's software renderer, and only alpha blending
// rounds differently (a unit per stacked translucent quad; measured: at most 2 here). A
// pixel matches when no channel differs by more than GOLDEN_CHANNEL_TOLERANCE, and none may
// not: a wrong palette, a missing texture, a sprite a pixel off or a frame at another tick
// differs by tens to hundreds.
const GOLDEN_CHANNEL_TOLERANCE = 6;
const GOLDEN_PIXEL_FRACTION = 0;
const GOLDEN_LEVELS = ["01-first-steps", "04-patrol", "07-the-vault"];

const url = (base, args) => base + "index.html" + (args.length ? "?" + args.map((a) => "arg=" + encodeURIComponent(a)).join("&") : "");
const KEYS = { Enter: ["Enter", 13], ArrowRight: ["ArrowRight", 39], ArrowLeft: ["ArrowLeft", 37],
               ArrowDown: ["ArrowDown", 40], ArrowUp: ["ArrowUp", 38], Escape: ["Escape", 27],
               Backspace: ["Backspace", 8], Home: ["Home", 36], End: ["End", 35], Space: [" ", 32] };
const hold = (page, code, down) => page.key(down ? "keyDown" : "keyUp", code, KEYS[code][0], KEYS[code][1]);
const press = (page, code) => page.press(code, KEYS[code][0], KEYS[code][1]);

async function waitRunning(page, what, pred = () => true) {
  return page.waitFor(what, async () => { const s = await page.state(); return s && s.running && s.frames > 5 && pred(s) ? s : null; });
}

const tests = {
  async web_replay(page, base) {
    const rep = "tests/replays/full-run.rep";
    await page.goto(url(base, ["--headless", "--no-save", "--replay", rep]));
    const status = await page.exitStatus();
    const verdict = page.lines.find((l) => l.startsWith(`replay ${rep}:`)) || "";
    if (status !== 0) throw new Error(`exit status ${status}: ${verdict}`);
    if (!/played to the end, .* \(matches\)$/.test(verdict)) throw new Error(`no matching hash: '${verdict}'`);
    for (const a of ["level", "permanent", "frame", "scratch"])
      if (!page.lines.some((l) => new RegExp(`^${a} arena: peak \\d+ of \\d+ bytes`).test(l))) throw new Error(`no ${a} arena line`);
    // In a browser the history arena's reservation is memory the page takes at start-up
    // (os_memory.h): its default is within a few times what the run needs, not the 16 MiB
    // a desktop reserves as address space.
    const history = (page.lines.map((l) => l.match(/^history arena: peak (\d+) of (\d+) bytes/)).find((m) => m) || []).slice(1).map(Number);
    if (history.length !== 2) throw new Error("no history arena line");
    if (history[1] > 4 * history[0]) throw new Error(`the history arena reserves ${history[1]} bytes for a peak of ${history[0]}`);
    const hash = verdict.match(/hash ([0-9a-f]{16})/)[1];
    const memory = page.lines.filter((l) => l.startsWith("web: wasm memory")).map((l) => l.slice(5)).join(", ");
    let note = `hash ${hash}, history arena ${history[0]} of ${history[1]} bytes`;
    if (extra && extra !== "--shot") {
      // One native run, its output and status both (the hash, not pixels: SDL draws none).
      let out = "";
      try {
        out = execFileSync("sh", ["-c", `"$0" --headless --no-save --replay "$1" 2>&1`, extra, path.join(SRC, rep)], { encoding: "utf8", env: { ...process.env, SDL_VIDEODRIVER: "dummy", SDL_AUDIODRIVER: "dummy", STRATA_NO_RASTER: "1" } }); // deps: essential
      } catch (e) { throw new Error(`native run failed: ${(e.stdout || "") + (e.stderr || "")}`); }
      const native = (out.match(/played to the end, .* hash ([0-9a-f]{16})/) || [])[1];
      if (native !== hash) throw new Error(`browser hash ${hash}, native ${native}`);
      note += " = native";
    }
    return `${note}; ${memory}`;
  },

  async web_golden(page, base) {
    const notes = [];
    // Each level by both backends: the GL backend on WebGL 2 (the default), then SDL's
    // WebGL renderer. A GL run that fell back to SDL_Renderer fails.
    for (const [level, renderer] of GOLDEN_LEVELS.flatMap((l) => [[l, "gl"], [l, "sdl"]])) {
      const shot = `/${level}-${renderer}.png`;
      await page.goto(url(base, ["--no-save", "--seed", "1", "--level", `levels/${level}.lvl`, "--autoplay", "1",
                                 "--frames", "240", "--fixed-clock", "--renderer", renderer, "--screenshot", shot]));
      const status = await page.exitStatus();
      if (status !== 0) throw new Error(`${level}: exit status ${status}\n${page.lines.join("\n")}`);
      const fallback = page.lines.find((l) => l.includes("drawing with SDL_Renderer"));
      if (renderer === "gl" && fallback) throw new Error(`${level}: the GL backend fell back: ${fallback}`);
      // WebGL 2 is the GL backend's context, SDL's renderer asks for WebGL 1, and a canvas
      // keeps the kind of its first context: getContext("webgl2") is null on a WebGL 1 one.
      const webgl2 = await page.eval("!!Module.canvas.getContext('webgl2')");
      if (webgl2 !== (renderer === "gl")) throw new Error(`${level}: --renderer ${renderer} drew on WebGL ${webgl2 ? 2 : 1}`);
      const b64 = await page.eval(`(() => { const d = FS.readFile(${JSON.stringify(shot)}); let s = ""; for (let i = 0; i < d.length; i += 8192) s += String.fromCharCode.apply(null, d.subarray(i, i + 8192)); return btoa(s); })()`);
      const got = decodePng(Buffer.from(b64, "base64"));
      const want = decodePng(fs.readFileSync(path.join(SRC, "tests/golden", `${level}.png`)));
      const k = got.width / want.width;
      if (!Number.isInteger(k) || got.height !== want.height * k) throw new Error(`${level}: ${got.width}x${got.height} is not a whole multiple of ${want.width}x${want.height}`);
      fs.mkdirSync(path.join(webDir, "test-out"), { recursive: true });
      fs.writeFileSync(path.join(webDir, "test-out", `${level}-${renderer}.png`), Buffer.from(b64, "base64"));
      let over = 0, maxd = 0;
      for (let y = 0; y < want.height; y++)
        for (let x = 0; x < want.width; x++) {
          // The centre of the k x k block that drew logical pixel (x, y).
          const g = ((y * k + (k >> 1)) * got.width + x * k + (k >> 1)) * 4, w = (y * want.width + x) * 4;
          let d = 0;
          for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(got.rgba[g + c] - want.rgba[w + c]));
          maxd = Math.max(maxd, d);
          if (d > GOLDEN_CHANNEL_TOLERANCE) over++;
        }
      const allowed = Math.floor(GOLDEN_PIXEL_FRACTION * want.width * want.height);
      if (over > allowed) throw new Error(`${level}: ${over} pixels differ by more than ${GOLDEN_CHANNEL_TOLERANCE} (allowed ${allowed}; largest difference ${maxd}); the frame is in ${webDir}/test-out`);
      notes.push(`${level} ${renderer} x${k}: ${over} px over, max diff ${maxd}`);
    }
    return notes.join("; ");
  },

  async web_keys(page, base) {
    await page.goto(url(base, ["--no-save"]));
    const title = await waitRunning(page, "the title screen");
    if (title.screen !== "title") throw new Error(`starts on '${title.screen}', not the title`);
    await press(page, "Enter");
    const playing = await page.waitFor("Enter to start a run", async () => { const s = await page.state(); return s.screen === "playing" ? s : null; });
    await hold(page, "ArrowRight", true);
    const moved = await page.waitFor("the player moving right", async () => {
      const s = await page.state();
      return s.player_x > playing.player_x + 8 ? s : null;
    });
    await hold(page, "ArrowRight", false);
    // The tab loses focus (SDL hears the window's blur): the game pauses.
    await page.eval("window.dispatchEvent(new FocusEvent('blur'))");
    await page.waitFor("the pause on focus loss", async () => (await page.state()).screen === "paused");
    return `title -> playing, x ${playing.player_x} -> ${moved.player_x}, paused on blur; wasm memory ${moved.memory} bytes`;
  },

  async web_save(page, base) {
    await page.goto(url(base, []));
    const before = await waitRunning(page, "the title screen", (s) => s.screen === "title");
    // Title (no save yet: the menu is on New run) -> Down, Down: Settings -> Enter; the first
    // row is the master volume: Left lowers it; Esc leaves, which writes the save.
    await press(page, "ArrowDown");
    await press(page, "ArrowDown");
    await press(page, "Enter");
    await page.waitFor("the settings screen", async () => (await page.state()).screen === "settings");
    await press(page, "ArrowLeft");
    await press(page, "Escape");
    const changed = await page.waitFor("the save in the browser's storage", async () => {
      const s = await page.state();
      return s.screen === "title" && s.volume !== before.volume && (await page.eval("Module.adSaves")) > 0 ? s : null;
    });
    await page.reload();
    const after = await waitRunning(page, "the title after a reload", (s) => s.screen === "title");
    if (after.volume !== changed.volume) throw new Error(`volume ${changed.volume} before the reload, ${after.volume} after`);
    return `volume ${before.volume} -> ${changed.volume}, ${after.volume} after a reload`;
  },

  async web_rewind(page, base) {
    await page.goto(url(base, ["--no-save", "--skip-title", "--level", "levels/01-first-steps.lvl"]));
    const start = await waitRunning(page, "the level", (s) => s.screen === "playing" && s.tick > 30);
    await hold(page, "ArrowRight", true);
    await page.waitFor("the player moving right", async () => {
      const s = await page.state();
      return s.player_x > start.player_x + 16 && s.tick > start.tick + 40 ? s : null;
    });
    await hold(page, "ArrowRight", false);
    const before = await page.state();
    await hold(page, "Backspace", true);
    const back = await page.waitFor("the tick going back", async () => {
      const s = await page.state();
      return s.tick + 30 < before.tick ? s : null;
    });
    await hold(page, "Backspace", false);
    if (back.player_x >= before.player_x) throw new Error(`the player did not go back: x ${before.player_x} -> ${back.player_x}`);
    const after = await page.waitFor("play going on", async () => { const s = await page.state(); return s.tick > back.tick + 30 ? s : null; });
    return `tick ${before.tick} -> ${back.tick} (x ${before.player_x} -> ${back.player_x}) with the rewind held, then ${after.tick}`;
  },

  async web_seek(page, base) {
    await page.goto(url(base, ["--no-save", "--replay", "tests/replays/full-run.rep", "--seek", "3000"]));
    const at = await waitRunning(page, "the viewer", (s) => s.view_tick !== undefined);
    if (at.view_tick !== 3000 || !at.view_paused) throw new Error(`the viewer opened at ${at.view_tick} (paused: ${at.view_paused}), not paused at 3000`);
    const viewTick = (what, want) => page.waitFor(what, async () => { const s = await page.state(); return want(s) ? s : null; });
    await press(page, "ArrowRight");
    await viewTick("a step to 3001", (s) => s.view_tick === 3001);
    await press(page, "End");
    const end = await viewTick("the end", (s) => s.view_tick === s.view_ticks);
    await press(page, "Home");
    await viewTick("the start", (s) => s.view_tick === 0);
    await press(page, "Space");
    const playing = await viewTick("playing", (s) => !s.view_paused && s.view_tick > 30);
    const opened = page.lines.find((l) => l.startsWith("viewer: ")) || "";
    return `3000 -> 3001 -> ${end.view_tick} -> 0 -> playing ${playing.view_tick}; ${opened}`;
  },
};

const server = await serve(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
let failed = 0;
try {
  if (extra === "--shot") {
    // The README's picture: the Vault with the bot playing, the page as a player sees it.
    const page = await openPage(browser);
    await page.goto(url(base, ["--no-save", "--level", "levels/07-the-vault.lvl", "--autoplay", "0"]));
    await waitRunning(page, "the game", (s) => s.frames > 400);
    const shot = await page.send("Page.captureScreenshot", { format: "png" });
    fs.writeFileSync(extra2, Buffer.from(shot.data, "base64"));
    console.log(`web: wrote ${extra2}`);
  } else {
    const only = process.env.AD_WEB_ONLY ? process.env.AD_WEB_ONLY.split(",") : null;
    for (const [name, fn] of Object.entries(tests).filter(([n]) => !only || only.includes(n))) {
      const page = await openPage(browser);
      const t0 = Date.now();
      try {
        const note = await fn(page, base);
        console.log(`web: PASS ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${note}`);
      } catch (e) {
        failed++;
        console.log(`web: FAIL ${name}: ${e.message}`);
      }
      await browser.send("Target.closeTarget", { targetId: page.targetId });
    }
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
