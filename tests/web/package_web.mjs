// package_web.mjs - the itch.io zip (tools/package.sh web) as itch.io serves it: made from
// this build, index.html checked to be at the top of the zip, unpacked into a folder two
// levels down a static server's root (itch.io serves each upload from a folder of its own,
// so an absolute URL such as /game.data would miss), and played in headless Chromium: the
// full committed replay must end on its hash.
//
//   node tests/web/package_web.mjs BUILD_WEB_DIR WORK_DIR
//
// The zip holds no replays (a player needs none); the page fetches one named on its command
// line from beside itself, so the test puts full-run.rep there, as a watcher of a run would.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch, openPage } from "./cdp.mjs";
import { serve } from "../../tools/web/serve.mjs";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const [webDir, work] = process.argv.slice(2);
if (!webDir || !work) { console.error("usage: package_web.mjs BUILD_WEB_DIR WORK_DIR"); process.exit(2); }
const fail = (why) => { console.log(`package_web: FAIL: ${why}`); process.exit(1); };

fs.rmSync(work, { recursive: true, force: true });
const dist = path.join(work, "dist"), site = path.join(work, "site"), upload = path.join(site, "html", "1234");
fs.mkdirSync(upload, { recursive: true });
try {
  execFileSync(path.join(SRC, "tools/package.sh"), ["web", "--web-dir", webDir, "--out", dist], { stdio: "inherit" });
} catch (e) { fail(`tools/package.sh web: exit ${e.status}`); }
const zip = fs.readdirSync(dist).find((f) => /^arena-dungeon-.*-web\.zip$/.test(f));
if (!zip) fail(`no arena-dungeon-VER-web.zip in ${dist}`);
const entries = execFileSync("unzip", ["-Z1", path.join(dist, zip)], { encoding: "utf8" }).trim().split("\n");
for (const f of ["index.html", "game.js", "game.wasm", "game.data"])
  if (!entries.includes(f)) fail(`${f} is not at the top of the zip (it holds: ${entries.join(" ")})`);
execFileSync("unzip", ["-q", path.join(dist, zip), "-d", upload]);
const rep = "tests/replays/full-run.rep";
fs.mkdirSync(path.join(upload, "tests/replays"), { recursive: true });
fs.copyFileSync(path.join(SRC, rep), path.join(upload, rep));

const server = await serve(site);
const browser = await launch();
let failed = "";
try {
  const page = await openPage(browser);
  const args = ["--headless", "--no-save", "--replay", rep].map((a) => "arg=" + encodeURIComponent(a)).join("&");
  await page.goto(`http://127.0.0.1:${server.address().port}/html/1234/index.html?${args}`);
  const status = await page.exitStatus();
  const verdict = page.lines.find((l) => l.startsWith(`replay ${rep}:`)) || "";
  if (status !== 0) failed = `exit status ${status}: '${verdict}'\n--- page console:\n${page.lines.join("\n")}`;
  else if (!/played to the end, 7 levels completed, .* \(matches\)$/.test(verdict)) failed = `no matching hash: '${verdict}'`;
  else console.log(`package_web: ${zip} (${fs.statSync(path.join(dist, zip)).size} bytes): ${verdict}`);
} catch (e) {
  failed = e.message;
} finally {
  await browser.close();
  server.close();
}
if (failed) fail(failed);
