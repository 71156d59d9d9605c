// The board page, independent of the game: session, controls, analysis, value graph,
// records. A game plugs in through CrumbleBoard.registerGame(name, hooks) with
//   draw(svg, state, ui)  draws the position and its clickable decisions into the SVG (over
//                         the server's picture, drawn first where the state has one);
//                         ui.decide(d) plays a decision, ui.hover(text) previews one,
//                         ui.heat tells whether to draw the prior heatmap, ui.priors are
//                         the decisions' priors (null without an evaluation), ui.decisions
//                         each decision `d` with its prior `p` (0 without), ui.selected is
//                         the choice the page keeps while the position is shown (a selected
//                         point or square, else null), ui.select(v) makes it and redraws;
//   key(state, key)       the decision a key press means (or null);
//   sizes: { board, placeholder, move }  the new-game form's default size and hints.
// Decisions with a `button` label (Crumble's stop, Crumo's pass and swap) are buttons below
// the board. A game that registers nothing is drawn as the server's picture with every
// decision a button. The server knows the rules; the page only draws what it is told and sends
// decisions back.
"use strict";

const CrumbleBoard = (() => {
  const games = {};
  let id = null;
  let state = null;
  let search = null; // the running EventSource
  let busy = false;
  let renders = 0; // state updates drawn, for scripts that drive the page
  // A game's selection, and the position it was made in (ply, turn in progress, moves).
  let selected = null;
  let selectedAt = null;
  const $ = (sel) => document.querySelector(sel);

  function registerGame(name, hooks) { games[name] = hooks; }

  // A game with no script of its own: the picture the server drew, every decision a button.
  const plain = {
    draw: () => {},
    key: () => null,
    sizes: { board: "", placeholder: "its one board", move: "" },
  };
  const hooksOf = (name) => games[name] || plain;

  // For the games' scripts: an SVG element `name` with attributes `attrs`, appended to `parent`.
  function el(parent, name, attrs) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }

  // For the games' scripts: makes `node` the place where decision `d` is clicked (it plays
  // `d`) and hovered (the page shows its text; `onHover(true|false)` adds a game's preview).
  // The data attributes are what scripts that drive the page look for.
  function target(node, d, ui, onHover) {
    node.classList.add("target");
    node.setAttribute("data-d", d.d);
    node.setAttribute("data-kind", d.kind);
    if (d.point !== undefined) node.setAttribute("data-point", d.point);
    node.addEventListener("click", (ev) => { ev.stopPropagation(); ui.decide(d.d); });
    node.addEventListener("mouseenter", () => { ui.hover(d.text); if (onHover) onHover(true); });
    node.addEventListener("mouseleave", () => { ui.hover(""); if (onHover) onHover(false); });
    el(node, "title").textContent = d.text;
  }

  // Puts a picture the server drew (a whole <svg> document) into the board's SVG, for the
  // games whose pictures are the program's own. Its style sheet is scoped to the board: a
  // <style> inside inline SVG applies to the whole page.
  function picture(svg, text) {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    svg.setAttribute("viewBox", root.getAttribute("viewBox"));
    svg.innerHTML = "";
    for (const child of [...root.childNodes]) svg.appendChild(document.importNode(child, true));
    for (const style of svg.querySelectorAll("style")) {
      style.textContent = style.textContent.replace(/([^{}]+)\{/g, (m, sel) =>
        sel.split(",").map((x) => `#${svg.id} ${x.trim()}`).join(", ") + " {");
    }
  }

  function showError(msg) {
    const e = $("#error");
    e.textContent = msg;
    e.hidden = !msg;
  }

  // One API call: JSON in and out; a refusal shows its reason in the page and returns null.
  async function api(method, path, body, raw) {
    const opts = { method, headers: {} };
    if (raw !== undefined) {
      opts.body = raw;
      opts.headers["Content-Type"] = "application/octet-stream";
    } else if (body !== undefined) {
      opts.body = JSON.stringify(body);
      opts.headers["Content-Type"] = "application/json";
    }
    let r;
    try {
      r = await fetch(path, opts);
    } catch (e) {
      showError("the server cannot be reached: " + e.message);
      return null;
    }
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (!r.ok) {
      showError((data && data.error) || ("the server answered " + r.status));
      if (r.status === 404 && data && /no session/.test(data.error)) id = null;
      return null;
    }
    showError("");
    return data;
  }

  const sessionPath = (p) => `/api/s/${id}/${p}`;

  // Sends a state-changing call and redraws with its answer.
  async function act(method, p, body, raw) {
    const s = await api(method, sessionPath(p), body, raw);
    if (s) setState(s);
    return s;
  }

  function setState(s) {
    state = s;
    renders += 1;
    if (!search) clearAnalysis(); // the last search was of another position
    render();
    refreshValues();
  }

  function ui() {
    const at = `${state.ply}/${state.building}/${state.moves.length}`;
    if (selectedAt !== at) { selected = null; selectedAt = at; }
    const priors = (state.eval && state.eval.priors) || null;
    return {
      decide: (d) => decide(d),
      hover: (text) => { $("#hover-text").textContent = text || ""; },
      heat: $("#heat-toggle").checked,
      priors,
      decisions: state.decisions.map((d, k) => ({ d, p: priors ? priors[k] : 0 })),
      selected,
      select: (v) => { selected = v; render(); },
    };
  }

  function render() {
    if (!state) return;
    const g = hooksOf(state.game);
    $("#status").textContent = state.status + (state.over ? "" : `, you play ${state.human}`);
    $("#thinking").hidden = !state.thinking && !busy;
    if (state.svg) picture($("#board"), state.svg);
    g.draw($("#board"), state, ui());
    $("#building").textContent = state.building || "";
    $("#hover-text").textContent = "";
    const btns = $("#decision-btns");
    btns.innerHTML = "";
    state.decisions.forEach((dec, k) => {
      if (!dec.button) return;
      const p = state.eval && state.eval.priors ? state.eval.priors[k] : null;
      const b = document.createElement("button");
      b.className = "decision-btn";
      b.dataset.kind = dec.kind;
      b.title = dec.text;
      b.textContent = dec.button + (p != null ? ` ${(100 * p).toFixed(0)}%` : "");
      b.onclick = () => decide(dec.d);
      btns.appendChild(b);
    });
    renderMoves();
    renderValue();
    renderBook();
  }

  // The opening book's values and moves for the position shown (serve --book).
  function renderBook() {
    const b = state.book;
    $("#book-panel").hidden = !b;
    if (!b) return;
    const tb = $("#book-moves tbody");
    tb.innerHTML = "";
    const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(3);
    const signed2 = (x) => (x >= 0 ? "+" : "") + x.toFixed(2);
    const proof = (p) => (p === 1 ? "win" : p === 0 ? "draw" : p === -1 ? "loss" : "");
    if (!b.in_book) {
      $("#book-info").textContent = state.over ? "the game is over"
        : state.turn_start ? `not in the book (${b.positions} positions)`
          : "the book speaks at the start of a turn";
      return;
    }
    const v = b.values;
    $("#book-info").textContent =
      `${signed(v.value)} [${signed(v.lower)}, ${signed(v.upper)}]${v.proven == null ? "" : " " + proof(v.proven)} for ${state.to_move}` +
      ` · ${b.searches} searches · ${b.agent} at ${b.simulations} simulations`;
    for (const o of b.options) {
      const tr = document.createElement("tr");
      tr.className = o.in_book ? "in-book" : "other";
      tb.appendChild(tr);
      const name = o.in_book ? o.move + (o.transposition ? " (transposition)" : "")
        : `other moves (best: ${o.move})`;
      const cells = [name, signed(o.values.value),
        `[${signed2(o.values.lower)}, ${signed2(o.values.upper)}]`, proof(o.values.proven),
        (100 * o.prior).toFixed(1) + "%", o.visits];
      for (const t of cells) tr.appendChild(document.createElement("td")).textContent = t;
      if (o.in_book) {
        tr.firstChild.title = "play this move";
        tr.firstChild.onclick = async () => {
          if (busy) return;
          stopSearch();
          const s = await act("POST", "move", { text: o.move });
          if (s) await maybeReply();
        };
      }
    }
  }

  function renderValue() {
    const e = state.eval;
    const fill = $("#value-fill");
    const num = $("#value-num");
    if (!e) {
      num.textContent = state.over ? state.status : (state.eval_error || "");
      fill.style.width = "50%";
      return;
    }
    fill.style.width = `${(50 * (e.black + 1)).toFixed(1)}%`;
    const side = state.to_move;
    num.textContent = `${e.value >= 0 ? "+" : ""}${e.value.toFixed(2)} for ${side} (${state.evaluator})`;
    num.dataset.value = e.black.toFixed(4);
  }

  function renderMoves() {
    const ol = $("#moves");
    ol.innerHTML = "";
    state.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.textContent = `${m.by === "black" ? "●" : "○"} ${m.text}`;
      if (m.value != null) {
        const v = document.createElement("span");
        v.className = "val";
        v.textContent = ` ${m.value >= 0 ? "+" : ""}${m.value.toFixed(2)}`;
        li.appendChild(v);
      }
      if (i + 1 === state.ply) li.className = "current";
      li.onclick = () => goto(i + 1);
      ol.appendChild(li);
    });
    $("#ply-label").textContent = `${state.ply} / ${state.moves.length}`;
  }

  async function decide(d) {
    if (busy) return;
    stopSearch();
    const s = await act("POST", "decide", { d });
    if (s) await maybeReply();
  }

  // After the person's move the agent answers, when it is its turn and replies are on.
  async function maybeReply() {
    if (!state || state.over || !$("#auto-reply").checked) return;
    if (!state.turn_start || state.to_move === state.human) return;
    if (state.ply !== state.moves.length) return; // looking back in the game: no reply
    await agentMove();
  }

  async function agentMove() {
    if (busy) return;
    busy = true;
    stopSearch();
    $("#thinking").hidden = false;
    await act("POST", "agent", {});
    busy = false;
    $("#thinking").hidden = true;
  }

  async function goto(ply) {
    if (!state || busy || ply < 0 || ply > state.moves.length) return;
    stopSearch();
    await act("POST", "goto", { ply });
  }

  function agentString() {
    const kind = $("#new-agent-kind").value;
    const sims = $("#new-sims").value;
    if (kind === "random") return "random";
    if (kind === "default") return null; // the game's own default (or --agent)
    return `${kind}:${sims}`;
  }

  async function newGame(ev) {
    if (ev) ev.preventDefault();
    stopSearch();
    const body = { game: $("#new-game").value, human: $("#new-human").value };
    const board = $("#new-board").value.trim();
    if (board) body.board = board;
    const agent = agentString();
    if (agent) body.agent = agent;
    const pos = $("#new-position").value.trim();
    if (pos) body.position = pos;
    const s = await act("POST", "new", body);
    if (s) await maybeReply();
  }

  // ---- analysis: a live search as server-sent events
  function stopSearch() {
    if (!search) return;
    search.close();
    search = null;
    api("POST", sessionPath("stop"), {});
    $("#an-stop").disabled = true;
    $("#an-start").disabled = false;
  }

  function startSearch() {
    if (!state || state.over) { showError("the game is over: nothing to analyse"); return; }
    stopSearch();
    const sims = Number($("#an-sims").value) || 1000;
    const es = new EventSource(sessionPath(`search?sims=${sims}`));
    search = es;
    $("#an-stop").disabled = false;
    $("#an-start").disabled = true;
    $("#an-info").textContent = "searching…";
    const onData = (ev, done) => {
      const a = JSON.parse(ev.data);
      showAnalysis(a);
      if (done) {
        es.close();
        if (search === es) search = null;
        $("#an-stop").disabled = true;
        $("#an-start").disabled = false;
      }
    };
    es.addEventListener("update", (ev) => onData(ev, false));
    es.addEventListener("done", (ev) => onData(ev, true));
    es.addEventListener("error", (ev) => {
      if (ev.data) showError(JSON.parse(ev.data).error);
      es.close();
      if (search === es) search = null;
      $("#an-stop").disabled = true;
      $("#an-start").disabled = false;
    });
  }

  function clearAnalysis() {
    $("#candidates tbody").innerHTML = "";
    $("#pv").textContent = "";
    $("#an-info").textContent = "";
  }

  function showAnalysis(a) {
    $("#an-info").textContent =
      `${a.visits} visits, ${a.seconds.toFixed(1)} s${a.done ? (a.stopped ? ", stopped" : ", done") : ""}`;
    const tb = $("#candidates tbody");
    tb.innerHTML = "";
    for (const c of a.candidates) {
      const tr = document.createElement("tr");
      const cells = [c.move, c.visits, (c.value >= 0 ? "+" : "") + c.value.toFixed(2),
        (100 * c.prior).toFixed(1) + "%"];
      for (const t of cells) {
        const td = document.createElement("td");
        td.textContent = t;
        tr.appendChild(td);
      }
      tb.appendChild(tr);
    }
    $("#pv").textContent = a.pv.join("  ");
    $("#value-fill").style.width = `${(50 * (a.black + 1)).toFixed(1)}%`;
    $("#value-num").textContent =
      `${a.value >= 0 ? "+" : ""}${a.value.toFixed(2)} for ${a.to_move} (search)`;
  }

  // ---- the value graph over the game
  let valuesTimer = null;
  function refreshValues() {
    clearTimeout(valuesTimer);
    valuesTimer = setTimeout(async () => {
      if (!id) return;
      const r = await fetch(sessionPath("values"));
      if (!r.ok) return;
      const data = await r.json();
      drawGraph(data.values);
    }, 150);
  }

  function drawGraph(values) {
    const svg = $("#graph");
    const n = Math.max(values.length - 1, 1);
    const X = (i) => 8 + (384 * i) / n;
    const Y = (v) => 60 - 52 * v;
    let s = `<line x1="0" y1="60" x2="400" y2="60" stroke="#bbb" stroke-dasharray="4 3"/>`;
    const pts = [];
    values.forEach((v, i) => { if (v != null) pts.push(`${X(i).toFixed(1)},${Y(v).toFixed(1)}`); });
    s += `<polyline points="${pts.join(" ")}" fill="none" stroke="#2a6db0" stroke-width="2"/>`;
    values.forEach((v, i) => {
      if (v == null) return;
      const cur = state && i === state.ply;
      s += `<circle class="graph-point" data-ply="${i}" cx="${X(i).toFixed(1)}" cy="${Y(v).toFixed(1)}" r="${cur ? 5 : 3}" fill="${cur ? "#d7301f" : "#2a6db0"}"/>`;
    });
    svg.innerHTML = s;
    svg.onclick = (ev) => {
      const r = svg.getBoundingClientRect();
      const x = ((ev.clientX - r.left) / r.width) * 400;
      const ply = Math.round(((x - 8) / 384) * n);
      goto(Math.max(0, Math.min(values.length - 1, ply)));
    };
  }

  // ---- records
  async function loadFile(file) {
    if (!file) return;
    stopSearch();
    const bytes = await file.arrayBuffer();
    const index = Number($("#file-index").value) || 0;
    await act("POST", `load?index=${index}`, undefined, bytes);
  }

  async function saveRecord() {
    const r = await fetch(sessionPath("record"));
    if (!r.ok) { showError("the game could not be saved"); return; }
    const text = await r.text();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    a.download = `${state ? state.game : "crumble"}-game.rec`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function onKey(ev) {
    if (!state || ev.target.closest("input, textarea, select")) return;
    const g = hooksOf(state.game);
    const d = g.key ? g.key(state, ev.key) : null;
    if (d != null) { ev.preventDefault(); decide(d); return; }
    if (ev.key === "Home") goto(0);
    else if (ev.key === "End") goto(state.moves.length);
    // Within a turn the arrows belong to the game (Crumble's swap steps).
    else if (ev.key === "ArrowLeft" && !state.building) goto(state.ply - 1);
    else if (ev.key === "ArrowRight" && !state.building) goto(state.ply + 1);
  }

  // The form follows the game chosen: its size, the hint of a typed move.
  function formFor(name) {
    const g = hooksOf(name);
    if (!g.sizes) return;
    $("#new-board").value = g.sizes.board;
    $("#new-board").placeholder = g.sizes.placeholder;
    $("#move-text").placeholder = g.sizes.move ? `type a move, e.g. ${g.sizes.move}` : "type a move";
  }

  async function start() {
    $("#new-form").addEventListener("submit", newGame);
    $("#new-game").onchange = () => formFor($("#new-game").value);
    $("#move-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      stopSearch();
      const s = await act("POST", "move", { text: $("#move-text").value });
      if (s) { $("#move-text").value = ""; await maybeReply(); }
    });
    $("#undo-btn").onclick = () => { stopSearch(); act("POST", "undo", {}); };
    $("#agent-btn").onclick = agentMove;
    $("#nav-first").onclick = () => goto(0);
    $("#nav-prev").onclick = () => state && goto(state.ply - 1);
    $("#nav-next").onclick = () => state && goto(state.ply + 1);
    $("#nav-last").onclick = () => state && goto(state.moves.length);
    $("#heat-toggle").onchange = render;
    $("#an-start").onclick = startSearch;
    $("#an-stop").onclick = stopSearch;
    $("#save-btn").onclick = saveRecord;
    $("#file-input").onchange = (ev) => loadFile(ev.target.files[0]);
    const drop = $("#drop");
    document.addEventListener("dragover", (ev) => { ev.preventDefault(); drop.classList.add("over"); });
    document.addEventListener("dragleave", () => drop.classList.remove("over"));
    document.addEventListener("drop", (ev) => {
      ev.preventDefault();
      drop.classList.remove("over");
      loadFile(ev.dataTransfer.files[0]);
    });
    document.addEventListener("keydown", onKey);
    const s = await api("POST", "/api/session", {});
    if (!s) return;
    id = s.id;
    $("#new-game").value = s.state.game;
    formFor(s.state.game);
    setState(s.state);
  }

  return {
    registerGame, start, picture, el, target,
    get state() { return state; },
    get renders() { return renders; },
    get busy() { return busy; },
  };
})();
