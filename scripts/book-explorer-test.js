// Drives the HTML explorer of an opening book (`crumble book html`) in headless Chromium
// (playwright-core) over file:// URLs: index.html, the start, three moves deep by the first
// link of each moves table, back by the page's own links (back, the line's start, the book),
// then the whole way again with the browser's back. Each page must show a board (SVG or
// text diagram) and a moves table with links; a deeper page's line ends in the move
// clicked; no console or page error; nothing the pages load or link leaves the folder.
// A screenshot a step, and steps.json, go to OUT_DIR.
// Run by scripts/book-explorer-test.sh:
//   node scripts/book-explorer-test.js HTML_DIR CHROMIUM OUT_DIR
"use strict";

const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

const [dir, executablePath, out] = process.argv.slice(2);
const base = pathToFileURL(path.resolve(dir) + "/").href;
const rel = (u) => (u.startsWith(base) ? u.slice(base.length) : u);
const steps = [];
const warnings = [];
let shots = 0;

function check(ok, what) {
  if (!ok) throw new Error("check failed: " + what);
  console.log("ok: " + what);
}

// What the page shows: its board, its line, its moves table, and every address it names.
function describe(page) {
  return page.evaluate(() => {
    const svg = document.querySelector(".board svg");
    const pre = document.querySelector("pre");
    const board = svg || pre;
    const box = board ? board.getBoundingClientRect() : null;
    const table = document.querySelector("table");
    const rows = table
      ? [...table.querySelectorAll("tr")].slice(1).map((tr) => ({
          cells: [...tr.cells].map((c) => c.textContent.trim()),
          href: tr.querySelector("a") ? tr.querySelector("a").getAttribute("href") : null,
        }))
      : null;
    const addresses = [...document.querySelectorAll("[href],[src],[*|href]")]
      .map((e) => e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("xlink:href"))
      .filter((a) => a && !a.startsWith("#"))
      .map((a) => new URL(a, location.href).href);
    const status = [...document.querySelectorAll("p")].find((p) => /Value for the player to move/.test(p.textContent));
    return {
      url: location.href,
      title: document.title,
      board: svg ? "svg" : pre ? "text" : null,
      boardTitle: svg && svg.querySelector("title") ? svg.querySelector("title").textContent : null,
      boardSize: box ? [Math.round(box.width), Math.round(box.height)] : null,
      line: [...document.querySelectorAll("p.line a")].map((a) => a.textContent),
      status: status ? status.textContent.trim() : null,
      rows,
      addresses,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

// Checks a position page and records it as a step with its screenshot.
// A page deeper moves are clicked from needs a link in its table; a leaf of the book has
// only its "other moves" row.
async function position(page, name, width, needLink) {
  const d = await describe(page);
  const where = `${name}: ${rel(d.url)}`;
  check(d.board !== null && d.boardSize[0] > 100 && d.boardSize[1] > 100,
    `${where} shows a board (${d.board} ${d.boardSize && d.boardSize.join("x")}${d.boardTitle ? ", " + d.boardTitle : ""})`);
  const links = d.rows ? d.rows.filter((r) => r.href).length : 0;
  check(d.rows !== null && d.rows.length > 0 && (links > 0 || !needLink),
    `${where} has a moves table (${d.rows ? d.rows.length : 0} rows, ${links} links; first: ${d.rows && d.rows.length ? d.rows[0].cells.slice(0, 4).join(" ") : "-"})`);
  const outside = d.addresses.filter((a) => !a.startsWith(base));
  check(outside.length === 0, `${where} names nothing outside the folder` + (outside.length ? ": " + outside.join(", ") : ""));
  if (d.overflow > 0) warnings.push(`${where} is ${d.overflow} px wider than the ${width} px window`);
  console.log(`   line: ${d.line.join(" ")}`);
  return step(page, name, d);
}

async function step(page, name, d) {
  shots += 1;
  const file = `${String(shots).padStart(2, "0")}-${name}.png`;
  await page.screenshot({ path: path.join(out, file), fullPage: true });
  steps.push({ step: name, screenshot: file, ...d, url: rel(d.url) });
  return d;
}

// Clicks the first link matching `selector` (optionally with its exact text) and waits for
// the page it names.
async function follow(page, selector, text) {
  let link = page.locator(selector);
  if (text) link = link.filter({ hasText: new RegExp(`^${text}$`) });
  link = link.first();
  const href = new URL(await link.getAttribute("href"), page.url()).href;
  const label = (await link.textContent()).trim();
  await link.click();
  await page.waitForURL(href);
  return { href, label };
}

(async () => {
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
  const width = 1280;
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors = [];
  const requests = [];
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push("console: " + m.text());
  });
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()} (${r.failure() && r.failure().errorText})`));
  page.on("request", (r) => requests.push(r.url()));

  const index = base + "index.html";
  await page.goto(index);
  check((await page.locator('a[href="p/0.html"]').count()) === 1, `index.html links the start (${await page.title()})`);
  await step(page, "index", await describe(page));
  const history = [index];

  // Three moves deep, each time by the first move link of the table: the best in the book.
  let to = await follow(page, 'a[href="p/0.html"]');
  history.push(to.href);
  let d = await position(page, "start", width, true);
  check(d.line.length === 1 && d.line[0] === "start", "the start's line is the start alone");
  const start = to.href;
  const deep = [];
  let transposed = false;
  for (let i = 1; i <= 3; i++) {
    const row = d.rows.find((r) => r.href);
    const moved = /\(transposition\)/.test(row.cells[0]);
    transposed = moved;
    to = await follow(page, "table a");
    history.push(to.href);
    deep.push(to.href);
    d = await position(page, `move${i}`, width, i < 3);
    if (moved) {
      console.log(`   ${to.label} is a transposition: the page shows its own first line`);
    } else {
      check(d.line[d.line.length - 1] === to.label && d.line.length === i + 1,
        `move ${i}: the line ends in the move clicked (${to.label})`);
    }
  }

  // Back by the page's own links: "back" (one move up the first line), the line's start,
  // the book's index.
  to = await follow(page, "p a", "back");
  history.push(to.href);
  // (A transposition's "back" is its own first line's parent, not the page it was reached from.)
  check(transposed || to.href === deep[1], `"back" leads one move up the line (${rel(to.href)})`);
  await position(page, "link-back", width);
  to = await follow(page, "p.line a", "start");
  history.push(to.href);
  check(to.href === start, "the line's first link leads to the start");
  await position(page, "link-start", width);
  to = await follow(page, 'a[href="../index.html"]');
  history.push(to.href);
  check(to.href === index, "the book link leads to index.html");
  await step(page, "link-index", await describe(page));

  // The browser's back, through the whole history to index.html.
  for (let i = history.length - 2; i >= 0; i--) {
    await page.goBack();
    check(page.url() === history[i], `browser back ${history.length - 1 - i}: ${rel(history[i])}`);
    if (history[i] === index) {
      await step(page, "browser-back-index", await describe(page));
    } else {
      await position(page, `browser-back-${history.length - 1 - i}`, width);
    }
  }

  // The start in a narrow window (a phone): a layout check only, reported as a warning.
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto(start);
  const narrow = await describe(page);
  if (narrow.overflow > 0) warnings.push(`the start is ${narrow.overflow} px wider than a 400 px window`);
  await step(page, "narrow-start", narrow);

  const outside = requests.filter((u) => !u.startsWith(base));
  check(outside.length === 0, "no request left the folder" + (outside.length ? ": " + outside.join(", ") : ` (${requests.length} requests)`));
  check(errors.length === 0, "no console or page error" + (errors.length ? ": " + errors.join("; ") : ""));
  for (const w of warnings) console.log("warning: " + w);
  fs.writeFileSync(path.join(out, "steps.json"), JSON.stringify({ base, warnings, steps }, null, 2));
  await browser.close();
  console.log(`book explorer test passed (${steps.length} steps)`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
