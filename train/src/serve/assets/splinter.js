// Splinter's drawing and clicking hooks for the board page (see app.js). The server sends the
// position's picture (the one `crumble show --svg` draws) and each legal decision placed on
// it in the picture's units: a move as the centres of the square it leaves and the square it
// steps to, a splinter choice as the squares of the group that would stay. A move is one
// decision, so clicking a piece only selects it (the page's choice, not the game's); its
// arrows then play.
"use strict";

(() => {
  const { el } = CrumbleBoard;

  function draw(svg, s, ui) {
    const C = s.cell;
    const moves = ui.decisions.filter((m) => m.d.kind === "move");
    const keeps = ui.decisions.filter((m) => m.d.kind === "keep");

    // The prior summed per piece (its moves), or per group (a splinter choice).
    const heat = el(svg, "g", { class: "heatmap", "pointer-events": "none" });
    const bySquare = new Map();
    for (const m of moves) {
      const e = bySquare.get(m.d.square) || { at: m.d.from, p: 0, square: m.d.square };
      e.p += m.p;
      bySquare.set(m.d.square, e);
    }
    const max = Math.max(1e-9, ...[...bySquare.values()].map((e) => e.p), ...keeps.map((m) => m.p));
    const label = (x, y, p) => {
      if (p < 0.02 || p / max < 0.2) return;
      const t = el(heat, "text", {
        x, y: y - C * 0.3, "text-anchor": "middle", "font-size": C * 0.26,
        fill: "#c0392b", "font-weight": "bold", "font-family": "sans-serif",
      });
      t.textContent = `${(100 * p).toFixed(0)}%`;
    };
    if (ui.heat && ui.priors) {
      for (const e of bySquare.values()) {
        el(heat, "rect", {
          x: e.at[0] - C / 2, y: e.at[1] - C / 2, width: C, height: C, fill: "#ff6a00",
          opacity: (0.08 + 0.55 * (e.p / max)).toFixed(3), class: "heat", "data-p": e.p.toFixed(4),
        });
        label(e.at[0], e.at[1], e.p);
      }
      for (const m of keeps) {
        for (const [x, y] of m.d.squares) {
          el(heat, "rect", {
            x: x - C / 2, y: y - C / 2, width: C, height: C, fill: "#ff6a00",
            opacity: (0.08 + 0.55 * (m.p / max)).toFixed(3), class: "heat", "data-p": m.p.toFixed(4),
          });
        }
        label(m.d.squares[0][0], m.d.squares[0][1], m.p);
      }
    }

    const targets = el(svg, "g", { class: "targets" });
    // Pieces that can move: a click selects one and shows its arrows.
    for (const e of bySquare.values()) {
      const sel = e.square === ui.selected;
      const r = el(targets, "rect", {
        x: e.at[0] - C / 2 + 3, y: e.at[1] - C / 2 + 3, width: C - 6, height: C - 6,
        fill: "transparent", stroke: sel ? "#2a6db0" : "#2a6db080", "stroke-width": sel ? 5 : 2,
        class: "target piece-select", "data-square": e.square,
      });
      el(r, "title").textContent = `${e.square}: show its moves`;
      r.addEventListener("click", (ev) => {
        ev.stopPropagation();
        ui.select(sel ? null : e.square);
      });
    }
    if (ui.selected) {
      for (const m of moves.filter((x) => x.d.square === ui.selected && x.d.to)) {
        const [x1, y1] = m.d.from;
        const [x2, y2] = m.d.to;
        const g = el(targets, "g", { opacity: 0.85 });
        el(g, "line", {
          x1, y1, x2: x1 + (x2 - x1) * 0.8, y2: y1 + (y2 - y1) * 0.8,
          stroke: "#2a6db0", "stroke-width": C * 0.09, "stroke-linecap": "round",
        });
        el(g, "circle", {
          cx: x1 + (x2 - x1) * 0.8, cy: y1 + (y2 - y1) * 0.8, r: C * 0.18, fill: "#2a6db0",
        });
        if (ui.priors) {
          const t = el(g, "text", {
            x: x1 + (x2 - x1) * 0.8, y: y1 + (y2 - y1) * 0.8 + C * 0.07, "text-anchor": "middle",
            "font-size": C * 0.18, fill: "#fff", "font-family": "sans-serif",
          });
          t.textContent = (100 * m.p).toFixed(0);
        }
        CrumbleBoard.target(g, m.d, ui);
      }
    }
    // A splinter choice: each group that may stay, clicked on any of its squares.
    for (const m of keeps) {
      const g = el(targets, "g", { opacity: 0.6 });
      for (const [x, y] of m.d.squares) {
        el(g, "rect", {
          x: x - C / 2 + 4, y: y - C / 2 + 4, width: C - 8, height: C - 8, fill: "#2a9d8f33",
          stroke: "#2a9d8f", "stroke-width": 4,
        });
      }
      CrumbleBoard.target(g, m.d, ui);
    }
  }

  const sizes = { board: "15x18", placeholder: "WxH, 5-26 x 6-26", move: "h9-h10" };
  CrumbleBoard.registerGame("splinter", { draw, key: () => null, sizes });
})();
