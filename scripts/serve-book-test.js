// Drives the book panel of `crumble serve --book FILE` in headless Chromium (playwright-core):
// the start's book moves, three moves deep by clicking the best book move of each position
// (the agent's replies off), each position's panel naming the position on the board, then
// back to the start by the page's navigation, which shows the start's book moves again; no
// script error. A screenshot a step, and steps.json (what each step showed).
// Run by scripts/browser-test.sh with BOOK set, which starts the server:
//   node scripts/serve-book-test.js URL CHROMIUM OUT_DIR
"use strict";

const { chromium } = require("playwright-core");
const { check, shooter, st, renders, settled } = require("./board-page.js");
const fs = require("fs");
const path = require("path");

const [url, executablePath, out] = process.argv.slice(2);
const shot = shooter(out);


// What the book panel shows: its summary line and its rows' cells.
const panel = (page) => page.evaluate(() => ({
  hidden: document.querySelector("#book-panel").hidden,
  info: document.querySelector("#book-info").textContent,
  rows: [...document.querySelectorAll("#book-moves tbody tr")].map((tr) => ({
    inBook: tr.classList.contains("in-book"),
    cells: [...tr.children].map((td) => td.textContent),
  })),
}));

(async () => {
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  page.on("console", (m) => {
    // A refused request is reported below with its address; the browser also logs it.
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  page.on("response", async (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}: ${await r.text()}`);
  });
  const steps = [];

  await page.goto(url);
  await page.waitForFunction(() => CrumbleBoard.state && CrumbleBoard.state.book);
  await page.uncheck("#auto-reply");
  const start = await panel(page);
  check(!start.hidden, "the book panel is shown");
  check(/for black/.test(start.info), `the start's book values: ${start.info}`);
  check(start.rows.filter((r) => r.inBook).length >= 2, `${start.rows.length} options at the start`);
  const values = start.rows.map((r) => parseFloat(r.cells[1]));
  check(values.every((v, k) => k === 0 || values[k - 1] >= v), "best first for the player to move");
  steps.push({ ply: 0, panel: start });
  await shot(page, "book-0-start.png");

  for (let depth = 1; depth <= 3; depth++) {
    const before = await panel(page);
    const row = before.rows.find((r) => r.inBook);
    check(row, `a book move at depth ${depth - 1}`);
    const move = row.cells[0].replace(" (transposition)", "");
    const n = await renders(page);
    await page.locator("#book-moves tr.in-book td:first-child").first().click();
    await settled(page, n);
    const s = await st(page);
    check(s.moves.length === depth && s.moves[depth - 1].text === move,
      `move ${depth} played from the book: ${move}`);
    const now = await panel(page);
    check(s.book.in_book && /for (black|white)/.test(now.info),
      `position ${depth} is in the book: ${now.info}`);
    check(now.info.includes(`for ${s.to_move}`), "its values are for the player to move");
    steps.push({ ply: depth, move, panel: now });
    await shot(page, `book-${depth}.png`);
  }

  for (let ply = 2; ply >= 0; ply--) {
    const n = await renders(page);
    await page.click("#nav-prev");
    await settled(page, n);
    check((await st(page)).ply === ply, `back to ply ${ply}`);
  }
  const again = await panel(page);
  check(JSON.stringify(again.rows) === JSON.stringify(start.rows), "the start's book moves again");
  await shot(page, "book-4-back.png");
  fs.writeFileSync(path.join(out, "steps.json"), JSON.stringify(steps, null, 2));
  check(errors.length === 0, "no script errors" + (errors.length ? ": " + errors.join("; ") : ""));
  await browser.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
