// otau evaluation graph: both engines' recorded scores by ply, drawn as inline SVG under the
// game viewer (viewer.js calls it; the live page, `view` and the HTML report show it).
//
// What it draws (protocol/arena.md, "Watching a run"):
// - x: the ply, 0 (the record's start position) to the game's last ply, the opening's plies
//   included, as the viewer counts them; y: the score in stones from South's side (up: South
//   better), whichever engine reported it: a score the engine sent from its own side (the
//   mover's, as recorded) is negated for North's moves.
// - one series an engine, South's and North's, a point at each ply whose move has a recorded
//   score, joined by a line through its exact scores only;
// - the y range is the largest exact |score| rounded up to whole stones, at least 1 and at
//   most CLIP_STONES: a score beyond it is drawn on the edge as a hollow square ("clipped"),
//   a mate score on the edge as a filled triangle pointing out ("mate"), and a bound
//   (`lowerbound`/`upperbound`: the score is only at least / at most the number) as a hollow
//   triangle pointing the way the true score lies, never joined by the line;
// - the end: a dashed line at the last ply, labelled with how the game ended ("adjudicated:
//   resign at ply 57" or "end: rules at ply 80"); the viewer's current ply: a grey line.
//
// CONTRACT (the browser tests read it): the graph is <svg class="eval-graph"> with
// data-zero-y (the y of score 0), data-stone-px (pixels a stone) and data-clip (stones); each
// recorded score is an element of class "point" with data-ply, data-side ("s"|"n"),
// data-score (the record's text: "cp 35", "mate -4", "cp -5000 lowerbound") and data-south
// (the score from South's side: centi-stones, or "M4"/"M-4" for a mate), and data-y (its drawn
// y); the end marker is <g class="ending" data-ply data-kind data-adjudicated="true|false">;
// the current ply's line is class "cursor" with data-ply.
//
// API (window.OtauGraph):
//   render(game, onPly) -> a div.eval-graph-box holding the svg and its legend, for `game` as
//                          viewer.js gets it; a click on the graph calls onPly(ply).
//   mark(box, ply)      -> moves the cursor of a box render made to `ply`.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var CLIP_STONES = 20;
  var W = 640, H = 200, LEFT = 44, RIGHT = 12, TOP = 14, BOTTOM = 22;
  var COLOUR = { s: "#c0392b", n: "#2a6ad0" };

  function el(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, String(attrs[k]));
    if (text != null) e.textContent = String(text);
    return e;
  }

  // The record's text of a typed score (graph.rs's ply_score).
  function scoreText(s) {
    var t = s.mate != null ? "mate " + s.mate : "cp " + s.cp;
    if (s.bound) t += " " + s.bound + "bound";
    return t;
  }

  // The recorded scores as points: {ply, side, score, sign (+1 South, -1 North)}.
  function points(game) {
    var out = [];
    (game.positions || []).forEach(function (p, ply) {
      if (ply > 0 && p.recorded_score) out.push({ ply: ply, side: p.side, score: p.recorded_score, sign: p.side === "s" ? 1 : -1 });
    });
    return out;
  }

  function render(game, onPly) {
    var box = document.createElement("div");
    box.className = "eval-graph-box";
    var last = Math.max(1, (game.positions || []).length - 1);
    var pts = points(game);
    var biggest = 0;
    pts.forEach(function (p) {
      if (p.score.cp != null && !p.score.bound) biggest = Math.max(biggest, Math.abs(p.score.cp));
    });
    var clip = Math.min(CLIP_STONES, Math.max(1, Math.ceil(biggest / 100)));
    var plotH = H - TOP - BOTTOM, plotW = W - LEFT - RIGHT;
    var zeroY = TOP + plotH / 2, stonePx = plotH / 2 / clip;
    function x(ply) { return LEFT + plotW * ply / last; }
    function y(stones) { return zeroY - stones * stonePx; }
    var svg = el("svg", {
      "class": "eval-graph", viewBox: "0 0 " + W + " " + H, width: W, height: H,
      "data-zero-y": zeroY, "data-stone-px": stonePx, "data-clip": clip
    });
    svg.appendChild(el("rect", { x: LEFT, y: TOP, width: plotW, height: plotH, fill: "#fff", stroke: "#bbb" }));
    [clip, 0, -clip].forEach(function (v) {
      svg.appendChild(el("line", { x1: LEFT, x2: LEFT + plotW, y1: y(v), y2: y(v), stroke: v === 0 ? "#888" : "#ddd" }));
      svg.appendChild(el("text", { x: LEFT - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 10 }, (v > 0 ? "+" : "") + v));
    });
    svg.appendChild(el("text", { x: LEFT, y: H - 6, "font-size": 10 }, "ply 0"));
    svg.appendChild(el("text", { x: LEFT + plotW, y: H - 6, "font-size": 10, "text-anchor": "end" }, "ply " + last));

    ["s", "n"].forEach(function (side) {
      var mine = pts.filter(function (p) { return p.side === side; });
      var path = [];
      mine.forEach(function (p) {
        var s = p.score, px = x(p.ply), py, shape, south;
        if (s.mate != null) {
          var m = s.mate * p.sign;
          south = "M" + m;
          py = y(m > 0 ? clip : -clip);
          shape = "mate";
        } else {
          var cp = s.cp * p.sign;
          south = String(cp);
          var stones = Math.max(-clip, Math.min(clip, cp / 100));
          py = y(stones);
          shape = Math.abs(cp) > clip * 100 ? "clipped" : "exact";
          // A lower bound from the mover's side is an upper bound from the other side.
          if (s.bound) shape = (s.bound === "lower") === (p.sign > 0) ? "at-least" : "at-most";
        }
        var attrs = {
          "class": "point " + shape, "data-ply": p.ply, "data-side": side,
          "data-score": scoreText(s), "data-south": south, "data-y": py
        };
        var mark, c = COLOUR[side], r = 3;
        if (shape === "exact") {
          attrs.cx = px; attrs.cy = py; attrs.r = r; attrs.fill = c;
          mark = el("circle", attrs);
        } else if (shape === "clipped") {
          attrs.x = px - r; attrs.y = py - r; attrs.width = 2 * r; attrs.height = 2 * r;
          attrs.fill = "#fff"; attrs.stroke = c;
          mark = el("rect", attrs);
        } else {
          // Triangles: a mate points out of the range, a bound the way the true score lies.
          var up = shape === "mate" ? py < zeroY : shape === "at-least";
          var d = up ? -1 : 1;
          attrs.points = [px - 4, py - d * 2, px + 4, py - d * 2, px, py + d * 5].join(" ");
          attrs.fill = shape === "mate" ? c : "#fff";
          attrs.stroke = c;
          mark = el("polygon", attrs);
        }
        mark.appendChild(el("title", {}, (side === "s" ? "South " : "North ") + "ply " + p.ply + ": " + scoreText(s) + " (mover's side)"));
        svg.appendChild(mark);
        if (shape !== "at-least" && shape !== "at-most") path.push((path.length ? "L" : "M") + px.toFixed(1) + " " + py.toFixed(1));
      });
      if (path.length > 1) {
        var line = el("path", { "class": "series", "data-side": side, d: path.join(" "), fill: "none", stroke: COLOUR[side], "stroke-width": 1.2 });
        svg.insertBefore(line, svg.querySelector(".point"));
      }
    });

    var end = game.ending || {};
    var endPly = (game.positions || []).length - 1;
    var g = el("g", { "class": "ending", "data-ply": endPly, "data-kind": end.kind || "", "data-adjudicated": !!end.adjudicated });
    g.appendChild(el("line", { x1: x(endPly), x2: x(endPly), y1: TOP, y2: TOP + plotH, stroke: "#333", "stroke-dasharray": "4 3" }));
    g.appendChild(el("text", { x: x(endPly) - 3, y: TOP + 10, "text-anchor": "end", "font-size": 10 },
      (end.adjudicated ? "adjudicated: " : "end: ") + (end.kind || "?") + " at ply " + endPly));
    svg.appendChild(g);
    var cursor = el("line", { "class": "cursor", "data-ply": endPly, x1: x(endPly), x2: x(endPly), y1: TOP, y2: TOP + plotH, stroke: "#999", "stroke-width": 2, opacity: 0.6 });
    svg.appendChild(cursor);
    svg.addEventListener("click", function (e) {
      var rect = svg.getBoundingClientRect();
      var sx = (e.clientX - rect.left) * W / rect.width;
      var ply = Math.round((sx - LEFT) / plotW * last);
      if (onPly) onPly(Math.max(0, Math.min(endPly, ply)));
    });
    box.appendChild(svg);
    var legend = document.createElement("div");
    legend.className = "eval-graph-legend";
    legend.textContent = "Scores in stones from South's side (up: South better; a North engine's own score negated): " +
      "South " + game.south + " red, North " + game.north + " blue. " +
      (pts.length ? "Dots exact; hollow triangles bounds (at least / at most); filled triangles mates; hollow squares beyond +/-" + clip + "." :
        "No move of this game has a recorded score.");
    box.appendChild(legend);
    box.otauGraph = { cursor: cursor, x: x };
    return box;
  }

  function mark(box, ply) {
    var g = box && box.otauGraph;
    if (!g) return;
    g.cursor.setAttribute("x1", g.x(ply));
    g.cursor.setAttribute("x2", g.x(ply));
    g.cursor.setAttribute("data-ply", String(ply));
  }

  window.OtauGraph = { render: render, mark: mark };
})();
