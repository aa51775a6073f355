// otau game viewer: replays one game move by move (buttons first, prev, next, last and the
// arrow keys, Home and End) with each move's engine comment. Used by the live page, the view
// page and the HTML report. Needs board.js. Contract: board.js's header.
//
// API (window.OtauViewer):
//   show(section, game) renders `game` (the JSON of /game?n=N, or an element of the report's
//   embedded list: {game, id, south, north, result, termination, positions: [{position,
//   move, side, notation, comment, book}], error}) into `section`, at its last ply.
(function () {
  "use strict";
  var current = null;

  function text(tag, content, cls) {
    var e = document.createElement(tag);
    if (content != null) e.textContent = String(content);
    if (cls) e.className = cls;
    return e;
  }

  function show(section, game) {
    while (section.firstChild) section.removeChild(section.firstChild);
    section.hidden = false;
    section.setAttribute("data-game", String(game.game));
    section.appendChild(text("h2", "Game " + game.game + ": " + game.south + " vs " + game.north +
      "  " + game.result + " (" + game.termination + ")"));
    var controls = text("div", null, "controls");
    var buttons = {};
    [["first", "|<"], ["prev", "<"], ["next", ">"], ["last", ">|"]].forEach(function (b) {
      var button = text("button", b[1]);
      button.id = b[0];
      button.type = "button";
      buttons[b[0]] = button;
      controls.appendChild(button);
    });
    var where = text("span", "", "where");
    controls.appendChild(where);
    var close = text("button", "close");
    close.type = "button";
    controls.appendChild(close);
    section.appendChild(controls);
    var holder = text("div");
    section.appendChild(holder);
    var comment = text("div", "", "comment");
    section.appendChild(comment);
    if (game.error) section.appendChild(text("p", "The record stops here: " + game.error));
    // The evaluation graph (graph.js), when the page has it: a click on it goes to that ply.
    var graph = window.OtauGraph ? window.OtauGraph.render(game, function (to) { go(to); }) : null;
    if (graph) section.appendChild(graph);
    var positions = game.positions || [];
    var last = positions.length - 1;
    var ply = last;
    // Plies count from the game's start position, the opening's included, as every games table
    // and the PGN's PlyCount count them; say how many of them the opening played.
    var opening = positions.filter(function (p) { return p.book; }).length;
    var openingNote = opening > 0 ? " (" + opening + " from the opening)" : "";

    function draw() {
      var p = positions[ply];
      var view = { position: p.position, ply: ply };
      if (ply > 0) view.last = { side: p.side, move: p.move };
      while (holder.firstChild) holder.removeChild(holder.firstChild);
      holder.appendChild(window.OtauBoard.render(view));
      where.textContent = " ply " + ply + " of " + last + openingNote + "  ";
      var words = [];
      if (ply > 0) {
        words.push((p.side === "s" ? "South " : "North ") + p.notation);
        if (p.book) words.push("{book}");
        if (p.comment) words.push("{" + p.comment + "}");
      } else {
        words.push("start position");
      }
      comment.textContent = words.join(" ");
      buttons.first.disabled = buttons.prev.disabled = ply === 0;
      buttons.next.disabled = buttons.last.disabled = ply === last;
      if (graph) window.OtauGraph.mark(graph, ply);
    }
    function go(to) {
      ply = Math.max(0, Math.min(last, to));
      draw();
    }
    buttons.first.onclick = function () { go(0); };
    buttons.prev.onclick = function () { go(ply - 1); };
    buttons.next.onclick = function () { go(ply + 1); };
    buttons.last.onclick = function () { go(last); };
    close.onclick = function () { section.hidden = true; current = null; };
    current = { go: go, ply: function () { return ply; }, last: last, section: section };
    if (last >= 0) draw();
  }

  document.addEventListener("keydown", function (e) {
    if (!current || current.section.hidden) return;
    var k = e.key;
    if (k === "ArrowLeft") current.go(current.ply() - 1);
    else if (k === "ArrowRight") current.go(current.ply() + 1);
    else if (k === "Home") current.go(0);
    else if (k === "End") current.go(current.last);
    else return;
    e.preventDefault();
  });

  // The report: games embedded as JSON in <script type="application/json" id="otau-games">,
  // listed in #otau-game-list as rows of class "finished-game".
  function embedded() {
    var data = document.getElementById("otau-games");
    var list = document.getElementById("otau-game-list");
    var section = document.getElementById("viewer");
    if (!data || !list || !section) return;
    var games = JSON.parse(data.textContent);
    games.forEach(function (g) {
      var row = text("tr", null, "finished-game");
      row.setAttribute("data-game", String(g.game));
      [g.game, g.south, g.north, g.result, g.termination, g.plies].forEach(function (v) {
        row.appendChild(text("td", v));
      });
      row.onclick = function () { show(section, g); section.scrollIntoView(); };
      list.appendChild(row);
    });
  }

  window.OtauViewer = { show: show, embedded: embedded };
})();
