// Crumble's drawing and clicking hooks for the board page (see app.js). The server sends
// rectangles [x, y, w, h] in grid units of the absolute frame (Black's view, y up); the board
// is drawn from the person's side, so White's view is turned by 180 degrees.
"use strict";

(() => {
  const FILL = { black: "#262626", white: "#f7f4ec" };

  const { el } = CrumbleBoard;

  function draw(svg, s, ui) {
    const G = s.board.grid;
    const white = s.human === "white";
    const M = G * 0.02;
    const lw = G / 320;
    svg.setAttribute("viewBox", `${-M} ${-M} ${G + 2 * M} ${G + 2 * M}`);
    svg.innerHTML = "";
    // Absolute rectangle -> screen rectangle; absolute point -> screen point.
    const R = ([x, y, w, h]) => {
      if (white) { x = G - x - w; y = G - y - h; }
      return { x, y: G - y - h, w, h, cx: x + w / 2, cy: G - y - h / 2 };
    };
    const P = (x, y) => (white ? [G - x, y] : [x, G - y]);
    const defs = el(svg, "defs");
    const marker = el(defs, "marker", {
      id: "arrow-head", viewBox: "0 0 10 10", refX: "7", refY: "5",
      markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse",
    });
    el(marker, "path", { d: "M0,0 L10,5 L0,10 z", fill: "#d7301f" });

    el(svg, "rect", { x: 0, y: 0, width: G, height: G, fill: "#bdb6a6" });
    const pieces = el(svg, "g", { class: "pieces" });
    for (const [x, y, w, h, color] of s.board.pieces) {
      const r = R([x, y, w, h]);
      el(pieces, "rect", {
        x: r.x, y: r.y, width: r.w, height: r.h, fill: FILL[color],
        stroke: "#8a8475", "stroke-width": lw, class: `piece ${color}`,
      });
    }

    // The last move, or the turn in progress.
    const marks = el(svg, "g", { class: "marks", "pointer-events": "none" });
    const outline = (rect, color, width, dash) => {
      const r = R(rect);
      el(marks, "rect", {
        x: r.x, y: r.y, width: r.w, height: r.h, fill: "none", stroke: color,
        "stroke-width": width, "stroke-dasharray": dash || "none",
      });
    };
    const arrow = (parent, a, b, color, width, cls) => {
      const dx = b.cx - a.cx, dy = b.cy - a.cy;
      return el(parent, "line", {
        x1: a.cx, y1: a.cy, x2: a.cx + dx * 0.8, y2: a.cy + dy * 0.8,
        stroke: color, "stroke-width": width, "marker-end": "url(#arrow-head)", class: cls || "",
      });
    };
    if (s.last) {
      const base = s.last.base;
      if (base.cut) {
        const [a, b] = base.cut.map(([x, y]) => P(x, y));
        el(marks, "line", {
          x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#f28e2b", "stroke-width": 3 * lw,
          class: "last-cut",
        });
      } else if (base.outline) {
        outline(base.outline, "#f28e2b", 3 * lw);
      }
      for (let i = 1; i < s.last.path.length; i++) {
        arrow(marks, R(s.last.path[i - 1]), R(s.last.path[i]), "#d7301f", 2.5 * lw, "last-step");
      }
    }
    if (s.pending) outline(s.pending.rect, "#2a6db0", 4 * lw);
    for (const f of s.fresh) outline(f, "#f28e2b", 3 * lw);
    if (s.swapper) outline(s.swapper, "#d7301f", 5 * lw);

    // The network's prior over the decisions, summed per place drawn.
    const priors = s.eval && s.eval.priors;
    if (ui.heat && priors) {
      const heat = new Map();
      s.decisions.forEach((d, k) => {
        if (!d.rect) return;
        const key = d.rect.join(",");
        const e = heat.get(key) || { rect: d.rect, p: 0 };
        e.p += priors[k];
        heat.set(key, e);
      });
      const max = Math.max(1e-9, ...[...heat.values()].map((e) => e.p));
      const hg = el(svg, "g", { class: "heatmap", "pointer-events": "none" });
      for (const e of heat.values()) {
        const r = R(e.rect);
        el(hg, "rect", {
          x: r.x, y: r.y, width: r.w, height: r.h, fill: "#ff6a00",
          opacity: (0.08 + 0.6 * (e.p / max)).toFixed(3), class: "heat", "data-p": e.p.toFixed(4),
        });
        if (e.p >= 0.02 && e.p / max > 0.2) {
          const t = el(hg, "text", {
            // Above the middle: the join dots sit in the lower corner, the split bars across.
            x: r.cx, y: r.y + Math.min(r.w, r.h) * 0.3, "text-anchor": "middle",
            "font-size": Math.max(G / 40, Math.min(r.w, r.h) * 0.22), fill: "#c0392b",
            "font-family": "sans-serif", "font-weight": "bold",
          });
          t.textContent = `${(100 * e.p).toFixed(0)}%`;
        }
      }
    }

    // The legal decisions, each where it is clicked.
    const targets = el(svg, "g", { class: "targets" });
    const preview = el(svg, "g", { class: "preview", "pointer-events": "none" });
    // Hovering a decision outlines the pieces it would make.
    const hook = (node, d) => {
      CrumbleBoard.target(node, d, ui, (on) => {
        preview.innerHTML = "";
        for (const f of on ? d.preview || [] : []) {
          const r = R(f);
          el(preview, "rect", {
            x: r.x, y: r.y, width: r.w, height: r.h, fill: "none", stroke: "#2a6db0",
            "stroke-width": 3 * lw, "stroke-dasharray": `${4 * lw} ${3 * lw}`,
          });
        }
      });
      node.querySelector("title").textContent = `${d.kind} ${d.text}`;
    };
    for (const d of s.decisions) {
      if (d.kind === "split-h" || d.kind === "split-v") {
        const r = R(d.rect);
        const horiz = d.kind === "split-h";
        const g = el(targets, "g", { opacity: 0.55 });
        el(g, "rect", horiz
          ? { x: r.x, y: r.cy - r.h * 0.14, width: r.w, height: r.h * 0.28, fill: "transparent" }
          : { x: r.cx - r.w * 0.14, y: r.y, width: r.w * 0.28, height: r.h, fill: "transparent" });
        el(g, "line", horiz
          ? { x1: r.x + r.w * 0.08, y1: r.cy, x2: r.x + r.w * 0.92, y2: r.cy }
          : { x1: r.cx, y1: r.y + r.h * 0.08, x2: r.cx, y2: r.y + r.h * 0.92 });
        g.lastChild.setAttribute("stroke", "#2a6db0");
        g.lastChild.setAttribute("stroke-width", 3 * lw);
        g.lastChild.setAttribute("stroke-dasharray", `${5 * lw} ${3 * lw}`);
        hook(g, d);
      } else if (d.kind === "join") {
        const [x, y, w, h] = d.rect;
        const rad = Math.min(w, h) * 0.13;
        const [cx, cy] = P(x + rad * 1.6, y + rad * 1.6);
        const c = el(targets, "circle", {
          cx, cy, r: rad, fill: "#2a9d8f", stroke: "#fff", "stroke-width": lw, opacity: 0.75,
        });
        hook(c, d);
      } else if (d.kind === "end") {
        const r = R(d.rect);
        const g = el(targets, "g", { opacity: 0.5 });
        el(g, "rect", { x: r.x, y: r.y, width: r.w, height: r.h, fill: "#2a6db0", "fill-opacity": 0.12 });
        el(g, "circle", { cx: r.cx, cy: r.cy, r: Math.min(r.w, r.h) * 0.1, fill: "#2a6db0" });
        hook(g, d);
      } else if (d.kind === "step" && d.rect) {
        const a = R(d.from), b = R(d.rect);
        const g = el(targets, "g", { opacity: 0.8 });
        const wide = arrow(g, a, b, "transparent", 14 * lw);
        wide.removeAttribute("marker-end");
        arrow(g, a, b, "#d7301f", 4 * lw);
        // A disc at the arrow's head: a grip that is never a line of zero width.
        el(g, "circle", {
          cx: a.cx + (b.cx - a.cx) * 0.7, cy: a.cy + (b.cy - a.cy) * 0.7, r: 7 * lw,
          fill: "#d7301f", "fill-opacity": 0.25,
        });
        hook(g, d);
      }
    }
  }

  // Arrow keys step the swapping piece (the key's direction as the person sees the board);
  // Enter stops. Only a key that names exactly one decision acts.
  function key(s, k) {
    const white = s.human === "white";
    const dirs = { ArrowUp: "N", ArrowDown: "S", ArrowRight: "E", ArrowLeft: "W" };
    const flip = { N: "S", S: "N", E: "W", W: "E" };
    if (k === "Enter") {
      const stop = s.decisions.find((d) => d.kind === "stop");
      return stop ? stop.d : null;
    }
    if (!(k in dirs) || s.phase !== "swap") return null;
    const dir = white ? flip[dirs[k]] : dirs[k];
    const steps = s.decisions.filter((d) => d.kind === "step" && d.dir === dir);
    return steps.length === 1 ? steps[0].d : null;
  }

  CrumbleBoard.registerGame("crumble", { draw, key });
})();
