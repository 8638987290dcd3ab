// breakout_test.mjs - the second game (examples/breakout) in the browser: its page in the web
// build (build/web/breakout, tools/web/web.cmake: ad_web_breakout) in headless Chromium,
// driven as web_test.mjs drives the first one (cdp.mjs, the page's st_web_state).
//
//   node tests/web/breakout_test.mjs BUILD_WEB_DIR
//
//   breakout_replay  the committed demo.rep, headless in the page, plays to the end on the
//                    hash its header records (the same as natively: the ctest breakout_replay)
//   breakout_play    the page as a player opens it: the title screen, frames and ticks
//                    advancing, Space serves a game, the canvas drawn (not one colour), and
//                    the bot (--autoplay) scoring
// Prints "breakout: PASS name (s)" or "breakout: FAIL name: why" per test; exits 1 on any
// failure, and when the page is missing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openPage } from "./cdp.mjs";
import { decodePng } from "./png.mjs";
import { serve } from "../../tools/web/serve.mjs";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [webDir] = process.argv.slice(2);
if (!webDir) { console.error("usage: breakout_test.mjs BUILD_WEB_DIR"); process.exit(2); }
const pageDir = path.join(webDir, "breakout");
for (const f of ["index.html", "breakout.js", "breakout.wasm", "demo.rep"])
  if (!fs.existsSync(path.join(pageDir, f))) { console.log(`breakout: FAIL no ${pageDir}/${f} (tools/web.sh builds it)`); process.exit(1); }

const url = (base, args) => base + "breakout/index.html" + (args.length ? "?" + args.map((a) => "arg=" + encodeURIComponent(a)).join("&") : "");
const state = (page, what, pred) =>
  page.waitFor(what, async () => { const s = await page.state(); return s && s.running && pred(s) ? s : null; });

// The replay's header: "breakout-input-log 1", "ticks N", "hash H" (src/input_log.h).
function repHeader(file) {
  const text = fs.readFileSync(file, "utf8");
  const ticks = (text.match(/^ticks (\d+)$/m) || [])[1], hash = (text.match(/^hash ([0-9a-f]{16})$/m) || [])[1];
  if (!ticks || !hash) throw new Error(`${file}: no ticks/hash header`);
  return { ticks: Number(ticks), hash };
}

const tests = {
  async breakout_replay(page, base) {
    const want = repHeader(path.join(SRC, "examples/breakout/demo.rep"));
    await page.goto(url(base, ["--headless", "--replay", "demo.rep"]));
    // A page that does not run fails here, not at exitStatus's longer bound for a whole run.
    await page.waitFor("the game to start", async () =>
      (await page.eval("typeof Module !== 'undefined' && (Module.calledRun || Module.adStatus !== undefined)")) || null);
    const status = await page.exitStatus();
    const verdict = page.lines.find((l) => l.includes("replay demo.rep:")) || "";
    if (status !== 0) throw new Error(`exit status ${status}: '${verdict}'\n--- page console:\n${page.lines.join("\n")}`);
    const m = verdict.match(/played to the end after (\d+) ticks, .* hash ([0-9a-f]{16}) \(matches\)$/);
    if (!m) throw new Error(`no matching verdict: '${verdict}'`);
    if (Number(m[1]) !== want.ticks || m[2] !== want.hash)
      throw new Error(`${m[1]} ticks, hash ${m[2]}; demo.rep says ${want.ticks} ticks, hash ${want.hash}`);
    return `${m[1]} ticks, hash ${m[2]} = demo.rep's`;
  },

  async breakout_play(page, base) {
    await page.goto(url(base, ["--mute"]));
    const title = await state(page, "the title screen", (s) => s.frames > 5);
    if (title.screen !== "title") throw new Error(`starts on '${title.screen}', not the title`);
    const later = await state(page, "frames advancing", (s) => s.frames >= title.frames + 30);
    await page.press("Space", " ", 32);
    const served = await state(page, "Space to start a game", (s) => s.screen !== "title");
    if (served.lives !== 3 || served.score !== 0) throw new Error(`a new game with ${served.lives} lives, score ${served.score}`);
    const ticking = await state(page, "ticks advancing", (s) => s.tick >= served.tick + 30);
    // The canvas as a player sees it (test-out/breakout-play.png): the paddle, the bricks'
    // rows and the HUD in several colours, where a page that draws nothing is one.
    const r = await page.eval("(() => { const b = Module.canvas.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; })()");
    const shot = await page.send("Page.captureScreenshot", { format: "png", clip: { ...r, scale: 1 } });
    fs.mkdirSync(path.join(webDir, "test-out"), { recursive: true });
    fs.writeFileSync(path.join(webDir, "test-out", "breakout-play.png"), Buffer.from(shot.data, "base64"));
    const png = decodePng(Buffer.from(shot.data, "base64"));
    const colours = new Set();
    for (let i = 0; i < png.rgba.length; i += 4 * 97) colours.add((png.rgba[i] << 16) | (png.rgba[i + 1] << 8) | png.rgba[i + 2]);
    if (colours.size < 5) throw new Error(`the canvas (${png.width}x${png.height}) shows ${colours.size} colours: nothing drawn`);
    // The bot plays on its own and scores.
    await page.goto(url(base, ["--mute", "--autoplay"]));
    const scored = await state(page, "the bot scoring", (s) => s.score > 0);
    return `title at frame ${title.frames}, ${later.frames - title.frames} frames later Space -> '${served.screen}', ` +
           `tick ${served.tick} -> ${ticking.tick}, ${colours.size} colours on the ${png.width}x${png.height} canvas; the bot scored ${scored.score} by tick ${scored.tick}`;
  },
};

const server = await serve(webDir);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launch();
let failed = 0;
try {
  for (const [name, fn] of Object.entries(tests)) {
    const page = await openPage(browser);
    const t0 = Date.now();
    try {
      const note = await fn(page, base);
      console.log(`breakout: PASS ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s): ${note}`);
    } catch (e) {
      failed++;
      console.log(`breakout: FAIL ${name}: ${e.message}`);
    }
    await browser.send("Target.closeTarget", { targetId: page.targetId });
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
