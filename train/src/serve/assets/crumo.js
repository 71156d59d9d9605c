// Crumo's drawing and clicking hooks for the board page (see app.js). The server sends the
// position's picture (the one `crumble show --svg` draws) and each legal decision placed on
// it in the picture's units. A placement is one decision of a point and a height: clicking
// an empty point only opens its heights (the page's choice), and a height plays. A move is
// two decisions: the stack it takes pieces from, then the point they go to. Pass and swap
// are buttons below the board (app.js).
"use strict";

(() => {
  const { el } = CrumbleBoard;

  function draw(svg, s, ui) {
    const S = s.step;
    const onBoard = ui.decisions.filter((m) => m.d.at);

    // The prior summed per point: its placements, the move from its stack, or the move to it.
    const byPoint = new Map();
    for (const m of onBoard) {
      const e = byPoint.get(m.d.point) || { at: m.d.at, p: 0, point: m.d.point, place: [], other: [] };
      e.p += m.p;
      (m.d.kind === "place" ? e.place : e.other).push(m);
      byPoint.set(m.d.point, e);
    }
    const max = Math.max(1e-9, ...[...byPoint.values()].map((e) => e.p));
    if (ui.heat && ui.priors) {
      const heat = el(svg, "g", { class: "heatmap", "pointer-events": "none" });
      for (const e of byPoint.values()) {
        el(heat, "circle", {
          cx: e.at[0], cy: e.at[1], r: S * 0.46, fill: "#ff6a00",
          opacity: (0.08 + 0.55 * (e.p / max)).toFixed(3), class: "heat", "data-p": e.p.toFixed(4),
        });
        if (e.p >= 0.02 && e.p / max > 0.2) {
          const t = el(heat, "text", {
            x: e.at[0], y: e.at[1] - S * 0.38, "text-anchor": "middle", "font-size": S * 0.24,
            fill: "#c0392b", "font-weight": "bold", "font-family": "sans-serif",
          });
          t.textContent = `${(100 * e.p).toFixed(0)}%`;
        }
      }
    }
    if (s.pending) {
      el(svg, "circle", {
        cx: s.pending[0], cy: s.pending[1], r: S * 0.44, fill: "none", stroke: "#2a6db0",
        "stroke-width": 6, class: "pending", "pointer-events": "none",
      });
    }

    const targets = el(svg, "g", { class: "targets" });
    for (const e of byPoint.values()) {
      // A stack to move from, or a point to move to: one decision.
      for (const m of e.other) {
        const c = el(targets, "circle", {
          cx: e.at[0], cy: e.at[1], r: S * 0.4, fill: "#2a6db022", stroke: "#2a6db0",
          "stroke-width": 3, "stroke-dasharray": m.d.kind === "to" ? "6 4" : "none",
        });
        CrumbleBoard.target(c, m.d, ui);
      }
      // An empty point to place on: a click shows its heights.
      if (e.place.length && !e.other.length) {
        const sel = e.point === ui.selected;
        const c = el(targets, "circle", {
          cx: e.at[0], cy: e.at[1], r: S * 0.3, fill: sel ? "#2a9d8f55" : "transparent",
          stroke: sel ? "#2a9d8f" : "#2a9d8f66", "stroke-width": sel ? 4 : 2,
          class: "target point-select", "data-point": e.point,
        });
        el(c, "title").textContent = `${e.point}: place a stack`;
        c.addEventListener("click", (ev) => {
          ev.stopPropagation();
          ui.select(sel ? null : e.point);
        });
      }
    }
    // The heights of the selected point, in a row above it.
    const e = ui.selected && byPoint.get(ui.selected);
    if (e) {
      const n = e.place.length;
      const w = S * 0.5;
      const x0 = e.at[0] - (n * w) / 2;
      const y0 = e.at[1] - S * 0.95;
      const row = el(svg, "g", { class: "heights" });
      el(row, "rect", {
        x: x0 - 4, y: y0 - 4, width: n * w + 8, height: w + 8, rx: 6, fill: "#fbfaf6",
        stroke: "#2a9d8f", "stroke-width": 2,
      });
      e.place.forEach((m, i) => {
        const g = el(row, "g", {});
        el(g, "rect", {
          x: x0 + i * w + 2, y: y0 + 2, width: w - 4, height: w - 4, rx: 4,
          fill: `rgba(255,106,0,${(0.1 + 0.7 * (m.p / max)).toFixed(3)})`, stroke: "#2a9d8f",
        });
        const t = el(g, "text", {
          x: x0 + i * w + w / 2, y: y0 + w * 0.68, "text-anchor": "middle", "font-size": w * 0.5,
          "font-weight": "bold", "font-family": "sans-serif", fill: "#222",
        });
        t.textContent = m.d.height;
        CrumbleBoard.target(g, m.d, ui);
      });
    }
  }

  const sizes = { board: "5", placeholder: "2 to 13", move: "3e5" };
  CrumbleBoard.registerGame("crumo", { draw, key: () => null, sizes });
})();
