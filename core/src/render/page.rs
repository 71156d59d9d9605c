//! The page around a game's pictures, shared by every game's `view` page (each game's
//! `render::html`): head and style, the board's frames with the status line, the controls and
//! the legend, the players, result and facts, the move list, the value chart and the script
//! that steps through the positions. Each game draws its frames (one element `id="ply-K"` per
//! position, class `ply`, the first also `on`) and its move list; the script only switches
//! frames and updates the text.

use std::fmt::Write as _;

/// One page's parts (see the module documentation); HTML fields are already escaped.
#[derive(Debug)]
pub(crate) struct Page<'a> {
    /// The page's title (plain text).
    pub title: String,
    /// Style rules the game's frames need beyond the shared ones.
    pub extra_css: &'static str,
    /// The board element (`id="board"`) holding the frames (HTML).
    pub board: String,
    /// The number of moves: positions `0..=n`.
    pub n: usize,
    /// The start position's status line and disc class (`black`, `white`, `none`).
    pub first_status: String,
    pub first_disc: &'static str,
    /// What the colours of the board mean (HTML), before the keys.
    pub legend: String,
    /// The players' names (plain text).
    pub black: &'a str,
    pub white: &'a str,
    /// Where the game came from (plain text).
    pub source: Option<&'a str>,
    /// The result line (plain text).
    pub result_text: String,
    /// The facts list's entries, `<div><dt>..</dt><dd>..</dd></div>` (HTML).
    pub facts: String,
    /// The move list (HTML, `id="moves"`, one `class="mv"` element per move).
    pub moves: String,
    /// Values per position, Black's view (see [`super::html`]); the result's value.
    pub values: &'a [Option<f32>],
    pub result: Option<f32>,
    /// The per-position data for the script (JSON, with `</` escaped).
    pub data: String,
}

/// A number with at most two decimals and no trailing zeros.
pub(crate) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Text for HTML element content and attribute values.
pub(crate) fn esc(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The value chart: a line through the known values, a zero line, the result, a cursor.
fn chart_svg(s: &mut String, values: &[Option<f32>], n: usize, result: Option<f32>) {
    const W: f64 = 600.0;
    const H: f64 = 130.0;
    const L: f64 = 34.0;
    const R: f64 = 10.0;
    const T: f64 = 10.0;
    const B: f64 = 10.0;
    let x = |k: usize| L + (W - L - R) * k as f64 / n.max(1) as f64;
    let y = |v: f32| T + (H - T - B) * (1.0 - f64::from(v.clamp(-1.0, 1.0))) / 2.0;
    let _ = write!(
        s,
        r#"<svg id="chart" viewBox="0 0 {W} {H}" role="img" aria-label="search value per position, Black's view" data-left="{L}" data-right="{}" data-n="{n}">"#,
        W - R
    );
    let _ = write!(
        s,
        r#"<rect class="win-b" x="{L}" y="{T}" width="{}" height="{}"/><rect class="win-w" x="{L}" y="{}" width="{}" height="{}"/>"#,
        W - L - R,
        num((H - T - B) / 2.0),
        num(y(0.0)),
        W - L - R,
        num((H - T - B) / 2.0)
    );
    for (v, t) in [(1.0, "+1"), (0.0, "0"), (-1.0, "\u{2212}1")] {
        let _ = write!(
            s,
            r#"<line class="grid" x1="{L}" y1="{0}" x2="{1}" y2="{0}"/><text class="axis" x="{2}" y="{3}" text-anchor="end">{t}</text>"#,
            num(y(v)),
            W - R,
            L - 5.0,
            num(y(v) + 5.0)
        );
    }
    let _ = write!(
        s,
        r#"<text class="zone" x="{}" y="{}">Black winning</text><text class="zone" x="{}" y="{}">White winning</text>"#,
        L + 6.0,
        T + 15.0,
        L + 6.0,
        H - B - 6.0
    );
    // One line through every known value: it joins them across positions without one (a
    // play record has values only where the agent moved).
    let pts: Vec<(f64, f64)> = (0..=n)
        .filter_map(|k| values.get(k).copied().flatten().map(|v| (x(k), y(v))))
        .collect();
    if pts.len() > 1 {
        let line: Vec<String> = pts
            .iter()
            .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
            .collect();
        let _ = write!(s, r#"<polyline class="val" points="{}"/>"#, line.join(" "));
    }
    if n <= 120 {
        for (a, b) in &pts {
            let _ = write!(
                s,
                r#"<circle class="dot" cx="{}" cy="{}" r="2.2"/>"#,
                num(*a),
                num(*b)
            );
        }
    }
    if let Some(v) = result {
        let _ = write!(
            s,
            r#"<rect class="result" x="{}" y="{}" width="8" height="8"><title>result</title></rect>"#,
            num(x(n) - 4.0),
            num(y(v) - 4.0)
        );
    }
    let _ = write!(
        s,
        r#"<line id="cursor" x1="{0}" y1="{T}" x2="{0}" y2="{1}"/></svg>"#,
        num(x(0)),
        H - B
    );
}

/// The whole page.
pub(crate) fn write(p: &Page) -> String {
    let n = p.n;
    let mut s = String::with_capacity(4096 + p.board.len() + p.moves.len());
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"generator\" content=\"crumble view\">\
         <title>{}</title><style>{CSS}{}</style></head><body><main>\n",
        esc(&p.title),
        p.extra_css
    );

    // Left: board, status, controls, legend.
    s.push_str("<section id=\"left\"><div class=\"card\">");
    s.push_str(&p.board);
    let _ = write!(
        s,
        r#"<div id="status"><span id="disc" class="disc {}"></span><span id="status-text">{}</span></div><div id="last">start position</div>"#,
        p.first_disc,
        esc(&p.first_status)
    );
    let _ = write!(
        s,
        concat!(
            r#"<div id="controls"><button id="first" title="start (Home)"><svg viewBox="0 0 16 16"><path d="M3 3h2v10H3zM13 3v10L6 8z"/></svg></button>"#,
            r#"<button id="prev" title="back (&#x2190;)"><svg viewBox="0 0 16 16"><path d="M11 3v10L4 8z"/></svg></button>"#,
            r#"<button id="play" title="play / pause (space)"><svg viewBox="0 0 16 16"><path class="i-play" d="M5 3v10l8-5z"/><path class="i-pause" d="M4 3h3v10H4zM9 3h3v10H9z"/></svg></button>"#,
            r#"<button id="next" title="forward (&#x2192;)"><svg viewBox="0 0 16 16"><path d="M5 3v10l7-5z"/></svg></button>"#,
            r#"<button id="end" title="end (End)"><svg viewBox="0 0 16 16"><path d="M11 3h2v10h-2zM3 3v10l7-5z"/></svg></button>"#,
            r#"<input id="slider" type="range" min="0" max="{n}" value="0" step="1" aria-label="position">"#,
            r#"<span id="counter">0 / {n}</span></div>"#
        ),
        n = n
    );
    let _ = write!(
        s,
        r#"<p class="legend">{}<br>Keys: <kbd>&#x2190;</kbd> <kbd>&#x2192;</kbd> step, <kbd>PgUp</kbd> <kbd>PgDn</kbd> ten, <kbd>Home</kbd> <kbd>End</kbd>, <kbd>space</kbd> play.</p></div></section>"#,
        p.legend
    );

    // Right: the game's facts, the moves, the chart.
    s.push_str("\n<section id=\"right\"><div class=\"card\" id=\"info\">");
    let _ = write!(
        s,
        r#"<h1><span class="disc black" style="display:inline-block;vertical-align:-3px"></span> {} <span class="sub">vs</span> <span class="disc white" style="display:inline-block;vertical-align:-3px"></span> {}</h1>"#,
        esc(p.black),
        esc(p.white)
    );
    if let Some(src) = p.source {
        let _ = write!(s, r#"<p class="sub">{}</p>"#, esc(src));
    }
    let _ = write!(s, r#"<div id="result">{}</div><dl>"#, esc(&p.result_text));
    s.push_str(&p.facts);
    s.push_str("</dl></div>\n<div class=\"card\" id=\"movecard\">");
    s.push_str(&p.moves);
    s.push_str("</div>\n");
    let values: Vec<Option<f32>> = p.values.iter().take(n + 1).copied().collect();
    if values.iter().any(Option::is_some) {
        s.push_str(r#"<div class="card" id="chartcard"><p class="chart-title" title="the search's value of each position for Black; the square is the result">Search value, Black's view (click to jump)</p>"#);
        chart_svg(&mut s, &values, n, p.result);
        s.push_str("</div>");
    }
    s.push_str("</section></main>\n");
    let _ = write!(
        s,
        "<script type=\"application/json\" id=\"crumble-data\">{}</script>\n<script>{JS}</script>\n</body></html>\n",
        p.data
    );
    s
}

const CSS: &str = r###"
:root{--bg:#efeae0;--panel:#fbf9f4;--ink:#222;--soft:#6b6457;--line:#d9d2c3;--accent:#c2410c;--cur:#fde7c8}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{display:flex;gap:20px;padding:16px 20px;align-items:flex-start;flex-wrap:wrap}
h1{font-size:21px;margin:0 0 2px}
.sub{color:var(--soft);font-size:13px;margin:0}
#left{flex:0 1 auto;width:min(100%,calc(100vh - 205px),760px);min-width:300px}
#right{flex:1 1 320px;max-width:480px;min-width:280px;display:flex;flex-direction:column;gap:12px;height:calc(100vh - 40px);min-height:480px}
#movecard{flex:1 1 auto;min-height:150px;display:flex;flex-direction:column;padding:0;overflow:hidden}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
#board{width:100%;height:auto;display:block}
#board .ply{display:none}#board .ply.on{display:inline}
#board .b{fill:#262626;stroke:#7d7d7d;stroke-width:1.2}
#board .w{fill:#f7f4ec;stroke:#9a9a9a;stroke-width:1.2}
#board .edge{fill:none;stroke:#3a3a3a;stroke-width:3}
#board .win{fill:#2f9e44;fill-opacity:.42;stroke:#2b8a3e;stroke-width:2.5}
#board .cut{fill:none;stroke:#f08c00;stroke-width:6;stroke-linecap:round;opacity:.95}
#board .step{stroke:#e03131;stroke-width:5;stroke-linecap:round}
#board .start{fill:#e03131}
#board .lb,#board .lw{font-size:21px;font-family:ui-monospace,Menlo,Consolas,monospace}
#board .lb{fill:#3b3b3b}#board .lw{fill:#8d877a}
#status{display:flex;align-items:center;gap:10px;font-size:18px;font-weight:600;margin:8px 2px 0}
.disc{width:20px;height:20px;border-radius:50%;border:2px solid #555;flex:none}
.disc.black{background:#262626}.disc.white{background:#f7f4ec}.disc.none{background:repeating-linear-gradient(45deg,#262626 0 5px,#f7f4ec 5px 10px)}
#last{color:var(--soft);margin:2px 2px 0 32px;font-size:14px;font-family:ui-monospace,Menlo,Consolas,monospace}
#controls{display:flex;align-items:center;gap:6px;margin-top:10px}
#controls button{font-size:15px;min-width:38px;height:32px;border:1px solid #bdb5a4;background:#fff;border-radius:6px;cursor:pointer}
#controls button:hover{background:var(--cur)}
#controls button svg{width:14px;height:14px;fill:#333;display:block;margin:auto}
#play .i-pause{display:none}#play.playing .i-pause{display:inline}#play.playing .i-play{display:none}
#slider{flex:1;accent-color:var(--accent)}
#counter{font-variant-numeric:tabular-nums;color:var(--soft);min-width:74px;text-align:right;font-size:14px}
.legend{color:var(--soft);font-size:12.5px;margin:8px 2px 0}
kbd{font:12px ui-monospace,Menlo,Consolas,monospace;border:1px solid #c8c0b0;border-bottom-width:2px;border-radius:4px;padding:0 4px;background:#fff}
#info dl{display:flex;flex-wrap:wrap;gap:2px 6px;margin:8px 0 0;font-size:13.5px}
#info dl div{display:flex;gap:5px;white-space:nowrap;margin-right:12px}#info dt{color:var(--soft)}#info dd{margin:0;font-weight:500}
#result{font-size:17px;font-weight:700;margin-top:4px}
#moves{flex:1 1 auto;min-height:0;overflow:auto;position:relative;padding:0}
#moves table{border-collapse:collapse;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:14.5px}
#moves th{position:sticky;top:0;background:var(--panel);text-align:left;color:var(--soft);font:600 12px system-ui,sans-serif;text-transform:uppercase;letter-spacing:.05em;padding:4px 6px;border-bottom:1px solid var(--line)}
#moves td{padding:2px 6px;vertical-align:top}
#moves tr:nth-child(even) td{background:#f4f0e7}
#moves td.num{color:var(--soft);text-align:right;width:3.2em}
#moves .mv{cursor:pointer;padding:1px 5px;border-radius:4px;display:inline-block}
#moves .mv:hover{background:#eee3cf}
#moves .mv.cur{background:var(--accent);color:#fff}
#moves .vb{color:var(--soft);font-size:12px}
#moves .cmt td,#moves p.cmt{font:italic 13px system-ui,sans-serif;color:#5b5446;padding:0 6px 4px}
#final{font-weight:700;margin:6px 10px 8px;font-family:ui-monospace,Menlo,Consolas,monospace}
#chart{width:100%;height:auto;display:block;cursor:pointer}
#chart .win-b{fill:#e4dfd3}#chart .win-w{fill:#f8f6f0}
#chart .grid{stroke:#c9c1b1;stroke-width:1}
#chart .axis{font-size:12px;fill:#6b6457}#chart .zone{font-size:11px;fill:#8d877a}
#chart .val{fill:none;stroke:#1f5fbf;stroke-width:2;stroke-linejoin:round}
#chart .dot{fill:#1f5fbf}
#chart .result{fill:var(--accent)}
#cursor{stroke:var(--accent);stroke-width:2}
.chart-title{font-size:13px;color:var(--soft);margin:0 0 4px}
@media (max-width:900px){#right{max-width:none;height:auto}#moves{max-height:55vh}}
"###;

const JS: &str = r###"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("crumble-data").textContent);
  var n = data.plies.length - 1;
  var frames = [], marks = [];
  for (var k = 0; k <= n; k++) frames.push(document.getElementById("ply-" + k));
  document.querySelectorAll("#moves .mv").forEach(function (m) {
    marks[+m.dataset.ply] = m;
    m.addEventListener("click", function () { go(+m.dataset.ply); });
  });
  var slider = document.getElementById("slider");
  var statusText = document.getElementById("status-text");
  var disc = document.getElementById("disc");
  var last = document.getElementById("last");
  var counter = document.getElementById("counter");
  var list = document.getElementById("moves");
  var chart = document.getElementById("chart");
  var cursor = document.getElementById("cursor");
  var playBtn = document.getElementById("play");
  var cur = -1, timer = null;

  function xOf(k) {
    var l = +chart.dataset.left, r = +chart.dataset.right;
    return l + (r - l) * k / Math.max(1, n);
  }
  function keepVisible(el) {
    var top = el.offsetTop, bottom = top + el.offsetHeight, head = 28;
    if (top - head < list.scrollTop) list.scrollTop = top - head - 4;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
  }
  function go(k) {
    k = Math.max(0, Math.min(n, Math.round(k)));
    if (k === cur) return;
    if (cur >= 0) {
      frames[cur].classList.remove("on");
      if (marks[cur]) marks[cur].classList.remove("cur");
    }
    cur = k;
    frames[k].classList.add("on");
    if (marks[k]) { marks[k].classList.add("cur"); keepVisible(marks[k].closest("tr")); }
    else if (k === 0) list.scrollTop = 0;
    slider.value = k;
    var p = data.plies[k];
    statusText.textContent = p.status;
    disc.className = "disc " + p.disc;
    last.textContent = p.last ? "last move " + p.last : "start position";
    counter.textContent = k + " / " + n;
    if (cursor) { var x = xOf(k); cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); }
    if (history.replaceState) { try { history.replaceState(null, "", "#ply=" + k); } catch (e) {} }
    if (k === n) stop();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; playBtn.classList.remove("playing"); } }
  function play() {
    if (timer) { stop(); return; }
    if (cur >= n) go(0);
    playBtn.classList.add("playing");
    timer = setInterval(function () { go(cur + 1); }, 900);
  }
  function fromHash() {
    var m = /ply=(\d+)/.exec(location.hash);
    return m ? +m[1] : null;
  }
  slider.addEventListener("input", function () { stop(); go(+slider.value); });
  document.getElementById("first").addEventListener("click", function () { stop(); go(0); });
  document.getElementById("prev").addEventListener("click", function () { stop(); go(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); go(cur + 1); });
  document.getElementById("end").addEventListener("click", function () { stop(); go(n); });
  playBtn.addEventListener("click", play);
  if (chart) chart.addEventListener("click", function (e) {
    var box = chart.getBoundingClientRect(), vb = chart.viewBox.baseVal;
    var x = (e.clientX - box.left) * vb.width / box.width;
    var l = +chart.dataset.left, r = +chart.dataset.right;
    stop(); go((x - l) / (r - l) * n);
  });
  // Capture phase: the keys step the game wherever the focus is (the slider's own arrow-key
  // handling would otherwise step twice).
  window.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (step) { stop(); go(cur + step); }
    else if (e.key === "Home") { stop(); go(0); }
    else if (e.key === "End") { stop(); go(n); }
    else if (e.key === " ") play();
    else return;
    e.preventDefault();
  }, true);
  window.addEventListener("hashchange", function () { var h = fromHash(); if (h !== null) go(h); });
  var h = fromHash();
  go(h !== null ? h : data.start);
})();
"###;
