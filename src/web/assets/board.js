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
// - a board saying whose is what: each store is <g class="store" data-side="s|n"
//   data-owner="NAME">, with the owner's name in its text; each row has a
//   <text class="owner" data-side="s|n"> naming its player ("South: L5", "North: you") and
//   where its store is; the side to move is said in words in <tspan class="to-move-words">
//   ("South (L5) to move") as well as by the blue outline (the legend under the board says so);
// - a Giuthi relay's lap is a board with data-lap="K" and data-laps="N" (K of N laps of the
//   move that leads to data-ply); its data-position is the lap's board written as a position
//   (the lap's holes, the piles and side to move of the position before the move: the rules
//   core's Giuthi::relay_lap_positions); its .lap-words say the lap and its direction;
// - the game viewer has buttons with ids first, prev, next, last, and lap-prev, lap-next (shown
//   when the ply's move has laps; the arrow keys Up and Down do the same);
// - finished games are listed as elements with class="finished-game" and data-game="N".
//
// Scores are shown in stones from South's view everywhere (the server turns every engine's
// own-view score round: src/web/game.rs, score_view); SCORE_NOTE says so on each page.
//
// Every text from the data (engine names, info strings, positions) goes into the page through
// textContent or attributes, never parsed as HTML.
//
// API (window.OtauBoard):
//   parse(position)  -> {game, holes, south: [..], north: [..], stores: [s, n],
//                        tuzdiks: [s, n] | null (hole numbers, 0 = none), side: "s" | "n",
//                        fullmove}; throws on a string it cannot read.
//   render(view)     -> the board element (a div.board holding an svg and its legend). view:
//                        {position, ply, game (N, optional), last: {side, move} (optional: the
//                        move that led here, a protocol token), flip (optional: North at the
//                        bottom), names: {s, n} (optional: the players, e.g. an engine's name
//                        or "you"), lap: {k, of, move} (optional: lap k of `of` of the move
//                        `move`, sown from this position's side to move)}.
//                        Holes are <g class="hole" data-side="s|n" data-hole="k">;
//                        the last move's origin hole also has class "last".
//   originHole(move) -> the hole number a protocol token starts from (5, 3a -> 3), or null.
//   sideName(side, names) -> "South (L5)" ("s" or "south"; the name left out when unknown).
//   lapDirection(move, k) -> the direction of lap k of a Giuthi move ("3a": lap 1
//                        anticlockwise, lap 2 clockwise, ...: each lap turns round).
//   lapWords(lap)    -> "lap 2 of 4 of South's 3a, sown clockwise".
//   moveWords(m, names) -> a move in words: "North (L5): hole 7 (76), -16.57 stones (North
//                        ahead), depth 7, 0.142 s"; m: {side, move, notation, book,
//                        score (a score_view), depth, time_ms}.
//   SCORE_NOTE       -> the sentence each page shows saying how scores read.
//   text(tag, content, cls) -> a new element `tag` holding `content` as text (textContent, never
//                        HTML), of class `cls` if given; the pages' scripts make their text with it.
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

  var SCORE_NOTE = "Scores are in stones (100 centi-stones) from South's view: + means South is ahead, - North.";

  function sideName(side, names) {
    var s = side === "s" || side === "south" ? "s" : "n";
    var word = s === "s" ? "South" : "North";
    var name = names && names[s];
    return name != null && name !== "" ? word + " (" + name + ")" : word;
  }

  function lapDirection(move, k) {
    var first = /c$/.test(String(move)) ? 1 : 0;
    return (first + k - 1) % 2 === 0 ? "anticlockwise" : "clockwise";
  }

  function lapWords(lap, side) {
    return "lap " + lap.k + " of " + lap.of + (side ? " of " + (side === "s" ? "South" : "North") + "'s " : " of ") +
      lap.move + ", sown " + lapDirection(lap.move, lap.k);
  }

  function moveWords(m, names) {
    var words = sideName(m.side, names) + ": ";
    var hole = originHole(m.move);
    if (hole == null) words += m.move;
    else {
      words += "hole " + hole;
      if (/a$/.test(m.move)) words += " anticlockwise";
      else if (/c$/.test(m.move)) words += " clockwise";
      if (m.notation && m.notation !== m.move) words += " (" + m.notation + ")";
    }
    var parts = [words];
    if (m.book) parts.push("from the opening");
    if (m.score && m.score.text) parts.push(m.score.text);
    if (m.depth != null) parts.push("depth " + m.depth);
    if (m.time_ms != null) parts.push((m.time_ms / 1000).toFixed(3) + " s");
    return parts.join(", ");
  }

  // A name short enough for a store (the full one is in the store's title).
  function short(name, max) {
    name = String(name);
    return name.length > max ? name.slice(0, max - 1) + "\u2026" : name;
  }

  // An arrow along a row, from x0 to x1 at height y (the way anticlockwise sowing runs there).
  function arrow(svg, x0, x1, y) {
    var g = el("g", { "class": "direction" });
    g.appendChild(el("title", {}, "anticlockwise (a)"));
    g.appendChild(el("line", { x1: x0, y1: y, x2: x1, y2: y }));
    var d = x1 > x0 ? -7 : 7;
    g.appendChild(el("polygon", { points: x1 + "," + y + " " + (x1 + d) + "," + (y - 4) + " " + (x1 + d) + "," + (y + 4) }));
    svg.appendChild(g);
  }

  function render(view) {
    var p = parse(view.position);
    var n = p.holes;
    var names = view.names || {};
    var cell = 52, r = 21, storeW = 64, pad = 8;
    var width = 2 * storeW + n * cell + 2 * pad;
    // Caption, the far row's owner, its direction arrow and hole numbers above the rows; hole
    // numbers, the arrow and the near row's owner below.
    var top0 = 62;
    var height = top0 + 2 * cell + 66;
    var div = document.createElement("div");
    div.className = "board";
    div.setAttribute("data-game-id", p.game);
    div.setAttribute("data-position", String(view.position).trim());
    div.setAttribute("data-ply", String(view.ply == null ? 0 : view.ply));
    if (view.game != null) div.setAttribute("data-game", String(view.game));
    if (view.lap) {
      div.setAttribute("data-lap", String(view.lap.k));
      div.setAttribute("data-laps", String(view.lap.of));
    }
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
        if (side === lastSide && k === lastHole && !view.lap) cls.push("last");
        if (side === p.side) cls.push("to-move");
        hole(svg, x, isTop ? topY : bottomY, r, tuzdikOn(side, k) ? "X" : row[k - 1], side, k, cls.join(" "), !isTop);
      }
      // The row's owner, in words, with where its store is and whether it is to move.
      var words = (side === "s" ? "South" : "North") + (names[side] != null ? ": " + short(names[side], 24) : "") +
        " \u2014 holes 1\u2013" + n + (isTop ? " right to left, store at left" : " left to right, store at right") +
        (side === p.side ? " \u2014 to move" : "");
      svg.appendChild(el("text", { x: pad + 4, y: isTop ? 33 : top0 + 2 * cell + 56,
        "class": "owner" + (side === p.side ? " to-move" : ""), "data-side": side }, words));
    });
    if (/^giuthi/.test(p.game)) {
      // Anticlockwise: along the bottom row left to right, along the top row right to left.
      var x0 = pad + storeW + 10, x1 = pad + storeW + n * cell - 10;
      arrow(svg, x1, x0, 45);
      arrow(svg, x0, x1, top0 + 2 * cell + 38);
    }
    // Stores: the top player's at the left, the bottom player's at the right (the way the
    // stones go round, anticlockwise).
    [[top, pad], [bottom, pad + storeW + n * cell + 4]].forEach(function (s) {
      var side = s[0], x = s[1];
      var owner = names[side] != null ? String(names[side]) : (side === "s" ? "South" : "North");
      var g = el("g", { "class": "store" + (side === p.side ? " to-move" : ""), "data-side": side, "data-owner": owner });
      g.appendChild(el("title", {}, (side === "s" ? "South" : "North") + "'s store: " + owner));
      g.appendChild(el("rect", { x: x, y: top0 + 4, width: storeW - 8, height: 2 * cell - 8, rx: 12 }));
      g.appendChild(el("text", { x: x + (storeW - 8) / 2, y: top0 + 20, "class": "store-owner", "text-anchor": "middle" },
        short(owner, 8)));
      g.appendChild(el("text", { x: x + (storeW - 8) / 2, y: top0 + cell + 6, "class": "count", "text-anchor": "middle" },
        p.stores[side === "s" ? 0 : 1]));
      svg.appendChild(g);
    });
    var caption = el("text", { x: pad, y: 16, "class": "caption" }, p.game + "  move " + p.fullmove + ": ");
    var mover = view.lap ? sideName(p.side, names) + " sowing, " + lapWords(view.lap) : sideName(p.side, names) + " to move";
    caption.appendChild(el("tspan", { "class": view.lap ? "lap-words" : "to-move-words" }, mover));
    svg.appendChild(caption);
    div.appendChild(svg);
    var legend = document.createElement("div");
    legend.className = "board-legend";
    var says = "Blue outline: the side to move.";
    if (/^giuthi/.test(p.game)) {
      says += " Arrows: anticlockwise (a), along the bottom row left to right and the top row right to left" +
        " (up the mover's hole numbers); clockwise (c) the other way.";
    }
    legend.textContent = says;
    div.appendChild(legend);
    return div;
  }

  // An HTML element holding `content` as text (never parsed as HTML), of class `cls` if given:
  // the one way the pages' scripts put the data's text into the page.
  function text(tag, content, cls) {
    var e = document.createElement(tag);
    if (content != null) e.textContent = String(content);
    if (cls) e.className = cls;
    return e;
  }

  window.OtauBoard = {
    parse: parse, render: render, originHole: originHole, sideName: sideName,
    lapDirection: lapDirection, lapWords: lapWords, moveWords: moveWords, text: text,
    SCORE_NOTE: SCORE_NOTE
  };
})();
