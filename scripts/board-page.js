// What the scripts that drive the board page of `crumble serve` share (browser-test.js,
// serve-book-test.js): checks that print as they pass, screenshots, and waiting for the
// page to draw a newer state.
"use strict";

const path = require("path");

// Fails with `what` unless `ok`; prints it when it holds.
function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}

// A function that saves a full-page screenshot of a page under `out`.
const shooter = (out) => (page, name) =>
  page.screenshot({ path: path.join(out, name), fullPage: true });

// The page's state and how many times it has drawn one.
const st = (page) => page.evaluate(() => CrumbleBoard.state);
const renders = (page) => page.evaluate(() => CrumbleBoard.renders);

// Waits until the page has drawn a newer state than `before` and no agent is thinking.
async function settled(page, before) {
  await page.waitForFunction(
    (b) => CrumbleBoard.renders > b && !CrumbleBoard.busy,
    before,
    { timeout: 120000 },
  );
}

module.exports = { check, shooter, st, renders, settled };
