// Drives the page of `crumble serve` in headless Chromium (playwright-core): a move by clicks
// with a swap step, the agent's answer, the heatmap and the value, a live analysis, a turn
// stopped in the middle of its swap, a whole game against `random`, a record saved, loaded
// from the file button and by drag and drop, and stepped through; then a Splinter and a Crumo
// game, each a move by clicks answered by the agent; no script error.
// Run by scripts/browser-test.sh, which starts the server:
//   node scripts/browser-test.js URL CHROMIUM OUT_DIR
"use strict";

const { chromium } = require("playwright-core");
const { check, shooter, st, renders, settled } = require("./board-page.js");
const fs = require("fs");
const path = require("path");

const [url, executablePath, out] = process.argv.slice(2);
const shot = shooter(out);

const STOP = 'button.decision-btn[data-kind="stop"]';

// Clicks `selector` and waits for the state it brings.
async function clickAndSettle(page, selector) {
  const n = await renders(page);
  await page.locator(selector).first().click();
  await settled(page, n);
}

// A new game from the form: game, board, agent kind and simulations.
async function newGame(page, game, board, kind, sims) {
  await page.selectOption("#new-game", game);
  await page.fill("#new-board", board);
  await page.selectOption("#new-agent-kind", kind);
  if (sims) await page.fill("#new-sims", sims);
  const n = await renders(page);
  await page.click("#new-btn");
  await settled(page, n);
  const s = await st(page);
  check(s.game === game && s.moves.length === 0, `a new ${game} game (${board})`);
}

(async () => {
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const errors = [];
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  page.on("console", (m) => {
    // A refused request is shown in the page on purpose; the browser also logs its status.
    if (m.type() === "error" && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });

  await page.goto(url);
  await page.waitForSelector('.target[data-kind="split-h"]');
  let s = await st(page);
  check(s.phase === "choose" && s.to_move === "black", "a new game, Black to move");
  check((await page.locator(".heat").count()) > 0, "the prior heatmap is drawn");
  const value0 = await page.getAttribute("#value-num", "data-value");
  check(value0 !== null, `the network's value is shown (${value0})`);
  await shot(page, "01-start.png");

  // A move by clicks: a split, its end, a swap step, then stop when the turn goes on.
  let n = await renders(page);
  // The split's bar near its left end: its middle crosses the vertical split's bar.
  await page.locator('.target[data-kind="split-h"]').first().click({ position: { x: 6, y: 6 } });
  await settled(page, n);
  check((await st(page)).phase === "extent", "the split is chosen: its ends are offered");
  await page.locator('.target[data-kind="end"]').first().hover();
  await shot(page, "02-extent.png");
  n = await renders(page);
  await page.locator('.target[data-kind="end"]').first().click();
  await settled(page, n);
  s = await st(page);
  check(s.phase === "swap" && s.fresh.length === 2, "the cut is made: two fresh pieces to swap");
  await shot(page, "03-swap.png");
  n = await renders(page);
  await page.locator('.target[data-kind="step"]').first().click();
  await settled(page, n);
  s = await st(page);
  if (s.phase === "swap") {
    const building = await page.textContent("#building");
    check(/H.*[NESW]/.test(building), `the notation is built as the move goes: ${building}`);
    n = await renders(page);
    await page.click(STOP);
    await settled(page, n);
  }
  // The agent answers on its own.
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(/[NESW]/.test(s.moves[0].text), `the move by clicks has a swap step: ${s.moves[0].text}`);
  check(s.moves[1].agent === true, `the agent answered: ${s.moves[1].text}`);
  const value1 = await page.getAttribute("#value-num", "data-value");
  check(value1 !== null && value1 !== value0, `the value follows the game (${value0} -> ${value1})`);
  check((await page.locator(".heat").count()) > 0, "the heatmap is drawn for the new position");
  await page.waitForSelector("#graph circle.graph-point");
  await shot(page, "04-agent-answered.png");

  // A live analysis, stopped by hand.
  await page.fill("#an-sims", "100000");
  await page.click("#an-start");
  await page.waitForFunction(() => document.querySelectorAll("#candidates tbody tr").length > 0, null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  await shot(page, "05-analysis.png");
  await page.click("#an-stop");
  check((await page.textContent("#pv")).length > 0, "the principal line is shown");
  check((await page.locator("#candidates tbody tr").count()) > 0, "candidate moves are listed");

  // A typed move that is not legal: refused, with the reason in the page.
  await page.fill("#move-text", "zz");
  await page.click('#move-form button[type="submit"]');
  await page.waitForSelector("#error:not([hidden])");
  check(/bad move/.test(await page.textContent("#error")), "a bad typed move is refused in the page");

  // A turn stopped in the middle of its swap: a split, its end, then Stop at once.
  await newGame(page, "crumble", "6", "random");
  n = await renders(page);
  await page.locator('.target[data-kind="split-v"]').first().click({ position: { x: 6, y: 6 } });
  await settled(page, n);
  await clickAndSettle(page, '.target[data-kind="end"]');
  s = await st(page);
  check(s.phase === "swap" && (await page.locator(STOP).count()) === 1, "the swap offers Stop");
  await clickAndSettle(page, STOP);
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(/V$/.test(s.moves[0].text), `Stop ended the turn before any swap step: ${s.moves[0].text}`);

  // A whole game against random on a small board, clicking random legal targets.
  await newGame(page, "crumble", "3", "random");
  for (let i = 0; i < 3000; i++) {
    s = await st(page);
    if (s.over) break;
    n = await renders(page);
    const stop = s.decisions.find((d) => d.kind === "stop");
    const targets = page.locator(".target");
    const count = await targets.count();
    if (stop && (count === 0 || Math.random() < 0.4)) {
      await page.click(STOP);
    } else {
      await targets.nth(Math.floor(Math.random() * count)).dispatchEvent("click");
    }
    await settled(page, n);
    await page.waitForFunction(() => !CrumbleBoard.busy);
  }
  s = await st(page);
  check(s.over, `the game against random ended: ${s.status}`);
  await shot(page, "06-game-over.png");

  // Save it, load it back from the file, step through it.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#save-btn")]);
  const rec = path.join(out, "game.rec");
  await download.saveAs(rec);
  const moves = s.moves.length;
  n = await renders(page);
  await page.setInputFiles("#file-input", rec);
  await settled(page, n);
  s = await st(page);
  check(s.moves.length === moves && s.ply === 0, `the saved record loads back (${moves} moves)`);
  for (let i = 0; i < Math.min(3, moves); i++) {
    n = await renders(page);
    await page.click("#nav-next");
    await settled(page, n);
  }
  check((await st(page)).ply === Math.min(3, moves), "stepping through the record");
  await page.waitForSelector("#graph circle.graph-point");
  await shot(page, "07-record.png");

  // The same record dropped on the page: a drop event carrying the file.
  await newGame(page, "crumble", "4", "random");
  const text = fs.readFileSync(rec, "utf8");
  const transfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], "game.rec", { type: "text/plain" }));
    return dt;
  }, text);
  n = await renders(page);
  await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
  await settled(page, n);
  s = await st(page);
  check(s.moves.length === moves && s.ply === 0, `the record dropped on the page loads (${moves} moves)`);

  // Splinter: select a piece, click one of its arrows; the agent answers.
  await newGame(page, "splinter", "9x10", "mcts:rollout", "32");
  check((await page.locator(".heat").count()) > 0, "Splinter: the prior heatmap is drawn");
  const sv0 = await page.getAttribute("#value-num", "data-value");
  check(sv0 !== null, `Splinter: the value is shown (${sv0})`);
  // Selecting a piece is the page's own choice: it redraws without asking the server.
  await page.locator(".piece-select").nth(4).click();
  await page.waitForSelector('.target[data-kind="move"]');
  const arrows = page.locator('.target[data-kind="move"]');
  check((await arrows.count()) > 0, `Splinter: the selected piece shows ${await arrows.count()} moves`);
  await arrows.first().hover();
  const hover = await page.textContent("#hover-text");
  check(/^[a-z]+\d+-[a-z]+\d+/.test(hover), `Splinter: hovering an arrow shows its move: ${hover}`);
  n = await renders(page);
  await arrows.first().click();
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(s.moves[0].text === hover && s.moves[1].agent, `Splinter: ${s.moves[0].text}, the agent answers ${s.moves[1].text}`);
  const sv1 = await page.getAttribute("#value-num", "data-value");
  check(sv1 !== null && (await page.locator(".heat").count()) > 0, `Splinter: value ${sv1} and heatmap after the answer`);
  await page.waitForSelector("#graph circle.graph-point");
  await page.locator(".piece-select").first().click();
  await shot(page, "serve-splinter.png");

  // Crumo: a point, then a height; the agent answers; then a move of pieces if one is legal.
  await newGame(page, "crumo", "5", "mcts:rollout", "32");
  check((await page.locator(".heat").count()) > 0, "Crumo: the prior heatmap is drawn");
  await page.locator(".point-select").nth(20).click();
  await page.waitForSelector('.target[data-kind="place"]');
  const heights = page.locator('.target[data-kind="place"]');
  check((await heights.count()) > 0, `Crumo: the point offers ${await heights.count()} heights`);
  await heights.last().click();
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(/^\d+[a-z]\d+$/.test(s.moves[0].text) && s.moves[1].agent, `Crumo: ${s.moves[0].text}, the agent answers ${s.moves[1].text}`);
  if ((await page.locator('.target[data-kind="from"]').count()) > 0) {
    await clickAndSettle(page, '.target[data-kind="from"]');
    const building = await page.textContent("#building");
    check(/-…$/.test(building), `Crumo: the move is written as it is built: ${building}`);
    await page.locator('.target[data-kind="to"]').first().hover();
    await shot(page, "serve-crumo-to.png");
    await page.locator('.target[data-kind="to"]').first().click();
  } else {
    await page.locator(".point-select").nth(30).click();
    await page.waitForSelector('.target[data-kind="place"]');
    await page.locator('.target[data-kind="place"]').first().click();
  }
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 4 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(s.moves[3].agent, `Crumo: ${s.moves[2].text}, the agent answers ${s.moves[3].text}`);
  check((await page.locator(".heat").count()) > 0 && (await page.getAttribute("#value-num", "data-value")) !== null, "Crumo: heatmap and value after the answer");
  await page.waitForSelector("#graph circle.graph-point");
  await page.locator(".point-select").nth(10).click();
  await shot(page, "serve-crumo.png");

  // Nim, a game without a page script of its own: its text picture, a button a decision
  // (a heap, then how many), the agent's answer.
  await newGame(page, "nim", "", "mcts:rollout", "32");
  check((await page.locator("#board text").count()) > 0, "Nim: its text picture is drawn");
  const heapBtns = page.locator(".decision-btn");
  check((await heapBtns.count()) === 3, `Nim: a button a heap (${await heapBtns.count()})`);
  check(/^2-…/.test(await heapBtns.nth(1).textContent()), `Nim: the heap buttons name their moves: ${await heapBtns.nth(1).textContent()}`);
  n = await renders(page);
  await heapBtns.nth(1).click();
  await settled(page, n);
  check((await page.textContent("#building")) === "2-…", "Nim: the move is written as it is built");
  await page.locator(".decision-btn").last().click();
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(s.moves[0].text === "2-3" && s.moves[1].agent, `Nim: ${s.moves[0].text}, the agent answers ${s.moves[1].text}`);
  await shot(page, "serve-nim.png");

  // Tic-tac-toe the same way: nine squares, one a button.
  await newGame(page, "tictactoe", "", "mcts:rollout", "32");
  check((await page.locator(".decision-btn").count()) === 9, "Tic-tac-toe: nine buttons");
  await page.locator(".decision-btn").nth(4).click();
  await page.waitForFunction(() => CrumbleBoard.state.moves.length === 2 && !CrumbleBoard.busy, null, { timeout: 120000 });
  s = await st(page);
  check(s.moves[0].text === "b2" && s.moves[1].agent, `Tic-tac-toe: ${s.moves[0].text}, the agent answers ${s.moves[1].text}`);
  await shot(page, "serve-tictactoe.png");

  check(errors.length === 0, "no script error in the console" + (errors.length ? ": " + errors.join("; ") : ""));
  await browser.close();
  console.log("browser test passed");
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
