// otau board renderer: plain JavaScript and SVG, no build step, embedded in the binary
// (src/web/assets/board.js) and inlined into the HTML report.
//
// CONTRACT (the browser tests and every page rely on it; protocol/arena.md, "Watching a run"):
// - every board is an element with class="board" carrying
//     data-game-id   the otau game id (the position string's first field, e.g. toguz-kumalak),
//     data-position  the exact position string the arena records for the shown ply (as in the
//                    JSON-lines records and the `position` command),
//     data-ply       the ply shown: 0 is the game's start position as recorded (its opening's
//                    `start`), each opening move and engine move adds one;
//   boards of games in progress on the live page also carry data-game="N", N the game's number
//   in the run (the records' `index` + 1, as the progress lines print it);
// - the game viewer has buttons with ids first, prev, next, last;
// - finished games are listed as elements with class="finished-game" and data-game="N".
//
// Every text from the data (engine names, info strings, positions) goes into the page through
// textContent or attributes, never parsed as HTML.
//
// API (window.OtauBoard):
//   parse(position)  -> {game, holes, south: [..], north: [..], stores: [s, n],
//                        tuzdiks: [s, n] | null (hole numbers, 0 = none), side: "s" | "n",
//                        fullmove}; throws on a string it cannot read.
//   render(view)     -> the board element (a div.board holding an svg). view:
//                        {position, ply, game (N, optional), last: {side, move} (optional: the
//                        move that led here, a protocol token), flip (optional: North at the
//                        bottom)}. Holes are <g class="hole" data-side="s|n" data-hole="k">;
//                        the last move's origin hole also has class "last".
//   originHole(move) -> the hole number a protocol token starts from (5, 3a -> 3), or null.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function parse(position) {
    var f = String(position).trim().split(/\s+/);
    if (f.length < 5) throw new Error("not a position string: " + position);
    var rows = f[1].split("/");
    if (rows.length !== 2) throw new Error("holes field: " + f[1]);
    var south = rows[0].split(",").map(Number);
    var north = rows[1].split(",").map(Number);
    var stores = f[2].split("/").map(Number);
    var i = 3;
    var tuzdiks = null;
    if (f[i] && f[i].indexOf("/") >= 0) {
      tuzdiks = f[i].split("/").map(function (t) { return t === "-" ? 0 : Number(t); });
      i++;
    }
    var side = f[i];
    return {
      game: f[0].toLowerCase(),
      holes: south.length,
      south: south,
      north: north,
      stores: stores,
      tuzdiks: tuzdiks,
      side: side,
      fullmove: Number(f[i + 1])
    };
  }

  function originHole(move) {
    var m = /^([0-9]+)/.exec(String(move || ""));
    return m ? Number(m[1]) : null;
  }

  function el(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // One hole: a circle, its count, and its number beside it.
  function hole(svg, x, y, r, count, side, number, classes, labelBelow) {
    var g = el("g", { "class": "hole " + classes, "data-side": side, "data-hole": String(number) });
    g.appendChild(el("circle", { cx: x, cy: y, r: r }));
    g.appendChild(el("text", { x: x, y: y + 5, "class": "count", "text-anchor": "middle" }, count));
    g.appendChild(el("text", { x: x, y: labelBelow ? y + r + 13 : y - r - 5, "class": "label", "text-anchor": "middle" }, number));
    svg.appendChild(g);
  }

  function render(view) {
    var p = parse(view.position);
    var n = p.holes;
    var cell = 52, r = 21, storeW = 64, pad = 8;
    var width = 2 * storeW + n * cell + 2 * pad;
    var top0 = 40; // below the caption and the far row's hole numbers
    var height = top0 + 2 * cell + 26;
    var div = document.createElement("div");
    div.className = "board";
    div.setAttribute("data-game-id", p.game);
    div.setAttribute("data-position", String(view.position).trim());
    div.setAttribute("data-ply", String(view.ply == null ? 0 : view.ply));
    if (view.game != null) div.setAttribute("data-game", String(view.game));
    var svg = el("svg", { viewBox: "0 0 " + width + " " + height, width: width, height: height, role: "img" });
    svg.appendChild(el("title", {}, view.position));
    svg.appendChild(el("rect", { x: 0, y: 0, width: width, height: height, rx: 10, "class": "frame" }));
    var flip = !!view.flip;
    // The top row is the far player's: North unless flipped. Each row is counted from its
    // owner's left, so the far row runs right to left on screen.
    var top = flip ? "s" : "n", bottom = flip ? "n" : "s";
    var topY = top0 + cell / 2, bottomY = top0 + cell + cell / 2;
    var lastSide = view.last ? view.last.side : null;
    var lastHole = view.last ? originHole(view.last.move) : null;
    function rowOf(side) { return side === "s" ? p.south : p.north; }
    function tuzdikOn(side, k) {
      // South's tuzdik is a hole of North's row, and the other way round.
      if (!p.tuzdiks) return false;
      return side === "n" ? p.tuzdiks[0] === k : p.tuzdiks[1] === k;
    }
    [top, bottom].forEach(function (side) {
      var row = rowOf(side);
      var isTop = side === top;
      for (var k = 1; k <= n; k++) {
        var col = isTop ? n - k : k - 1;
        var x = pad + storeW + col * cell + cell / 2;
        var cls = [];
        if (tuzdikOn(side, k)) cls.push("tuzdik");
        if (side === lastSide && k === lastHole) cls.push("last");
        if (side === p.side) cls.push("to-move");
        hole(svg, x, isTop ? topY : bottomY, r, tuzdikOn(side, k) ? "X" : row[k - 1], side, k, cls.join(" "), !isTop);
      }
    });
    // Stores: the top player's at the left, the bottom player's at the right (the way the
    // stones go round, anticlockwise).
    [[top, pad], [bottom, pad + storeW + n * cell + 4]].forEach(function (s) {
      var side = s[0], x = s[1];
      var g = el("g", { "class": "store" + (side === p.side ? " to-move" : ""), "data-side": side });
      g.appendChild(el("rect", { x: x, y: top0 + 4, width: storeW - 8, height: 2 * cell - 8, rx: 12 }));
      g.appendChild(el("text", { x: x + (storeW - 8) / 2, y: top0 + cell + 6, "class": "count", "text-anchor": "middle" },
        p.stores[side === "s" ? 0 : 1]));
      svg.appendChild(g);
    });
    var mover = p.side === "s" ? "South" : "North";
    svg.appendChild(el("text", { x: pad, y: 16, "class": "caption" },
      p.game + "  move " + p.fullmove + ", " + mover + " to play"));
    div.appendChild(svg);
    return div;
  }

  window.OtauBoard = { parse: parse, render: render, originHole: originHole };
})();
