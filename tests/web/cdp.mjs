// cdp.mjs - headless Chromium driven through the DevTools protocol over a pipe
// (--remote-debugging-pipe: fds 3 and 4, NUL-separated JSON), so no WebSocket client and
// no npm package is needed. Real time, not --virtual-time-budget: the game's frames come
// from requestAnimationFrame, which virtual time does not advance.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// How long a wait may last before it is a hang: a guard, never the verdict. Every wait is
// for an event (a state of the page, a console line), which on a busy machine comes later.
export const GUARD_MS = 5 * 60 * 1000;

export const CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--enable-unsafe-swiftshader",
  "--use-angle=swiftshader", "--no-first-run", "--no-default-browser-check", "--mute-audio",
  "--autoplay-policy=no-user-gesture-required", "--window-size=1280,800", "--hide-scrollbars"];

export async function launch(binary = process.env.CHROMIUM || "chromium") {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ad-chromium-"));
  const proc = spawn(binary, [...CHROMIUM_FLAGS, "--remote-debugging-pipe", `--user-data-dir=${profile}`, "about:blank"],
                     { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => { stderr += d; });
  const out = proc.stdio[3], inp = proc.stdio[4];
  let nextId = 1, buf = Buffer.alloc(0);
  const pending = new Map(), listeners = [];
  inp.on("data", (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    let at;
    while ((at = buf.indexOf(0)) >= 0) {
      const msg = JSON.parse(buf.subarray(0, at).toString("utf8"));
      buf = buf.subarray(at + 1);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject, method } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
        else resolve(msg.result);
      } else if (msg.method) {
        for (const l of listeners) l(msg);
      }
    }
  });
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  const browser = {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      out.write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + "\0");
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
    },
    on(fn) { listeners.push(fn); },
    stderr: () => stderr,
    async close() {
      try { await Promise.race([browser.send("Browser.close"), new Promise((r) => setTimeout(r, 3000))]); } catch {}
      if (proc.exitCode === null) proc.kill("SIGKILL");
      await exited;
      // Chromium's last helper processes may still be writing the profile as it goes.
      try { fs.rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); } catch {}
    },
  };
  await Promise.race([browser.send("Browser.getVersion"),
    exited.then(() => { throw new Error(`chromium exited at start:\n${stderr}`); })]);
  return browser;
}

// One page (tab) with its console collected: page.lines is every console message and
// uncaught exception, in order; waitFor(pred) polls the page's state until pred holds.
export async function openPage(browser) {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  const send = (m, p) => browser.send(m, p, sessionId);
  const page = { lines: [], send, targetId };
  browser.on((msg) => {
    if (msg.sessionId !== sessionId) return;
    if (msg.method === "Runtime.consoleAPICalled")
      page.lines.push(msg.params.args.map((a) => a.value ?? a.description ?? "").join(" "));
    else if (msg.method === "Runtime.exceptionThrown")
      page.lines.push("exception: " + (msg.params.exceptionDetails.exception?.description ?? msg.params.exceptionDetails.text));
  });
  await send("Runtime.enable");
  await send("Page.enable");
  // A headless tab is not focused unless told: the game pauses without focus.
  await send("Emulation.setFocusEmulationEnabled", { enabled: true });
  page.eval = async (expr) => {
    const r = await send("Runtime.evaluate", { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`${expr}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  page.goto = async (url) => {
    page.lines.length = 0;
    await send("Page.navigate", { url });
  };
  page.reload = async () => { page.lines.length = 0; await send("Page.reload", { ignoreCache: true }); };
  // The game's st_web_state() as an object, or null before the game runs.
  page.state = async () => {
    const s = await page.eval("typeof Module !== 'undefined' && Module.calledRun ? UTF8ToString(Module._st_web_state()) : ''");
    return s ? JSON.parse(s) : null;
  };
  page.waitFor = async (what, pred, timeoutMs = GUARD_MS) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      let v;
      try { v = await pred(); } catch { v = undefined; }
      if (v) return v;
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n--- page console:\n${page.lines.join("\n")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  page.exitStatus = () => page.waitFor("the game's exit", () => page.eval("typeof Module !== 'undefined' && Module.adStatus !== undefined ? {s: Module.adStatus} : null"), 2 * GUARD_MS).then((v) => v.s);
  // Until the host has run n more frames: what happened before is what the game has seen.
  page.frames = async (n) => {
    const f0 = (await page.state())?.frames ?? 0;
    return page.waitFor(`${n} frames after ${f0}`, async () => { const s = await page.state(); return s && s.frames >= f0 + n ? s : null; });
  };
  // One key, as SDL sees a physical key (KeyboardEvent.code) in the browser.
  page.key = async (type, code, key, vk) => {
    await send("Input.dispatchKeyEvent", { type, code, key, windowsVirtualKeyCode: vk, nativeVirtualKeyCode: vk });
  };
  // A press the game sees as one, however slow its frames: held for whole frames, and
  // released for whole frames before the next key.
  page.press = async (code, key, vk) => {
    await page.key("keyDown", code, key, vk);
    await page.frames(2);
    await page.key("keyUp", code, key, vk);
    await page.frames(2);
  };
  return page;
}
