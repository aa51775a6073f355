// otau web's play page (src/web/play_page.rs): the board from board.js, the person's legal moves
// clickable, the controls. Plain JavaScript, no build step, embedded in the binary.
//
// CONTRACT (the browser tests rely on it), besides board.js's:
// - each hole the person may sow from carries class "legal"; in a game without a direction
//   choice it also carries data-move="MOVETEXT" (the protocol token), and clicking it plays it;
// - in Giuthi clicking a legal hole opens #direction, whose buttons #dir-a and #dir-c carry
//   data-move="3a" / "3c" for the directions that are legal (a missing one is hidden);
// - a forced pass is the button #pass (data-move="pass"), shown only when it is the move;
// - the buttons #undo, #new-game, #flip, #analysis, #pgn; #status says whose turn it is.
//
// Every text from the server (engine names, moves, analysis) is set through textContent.
(function () {
  "use strict";
  var token = document.body.getAttribute("data-token");
  var state = null;

  function $(id) { return document.getElementById(id); }

  function post(path, value) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: token, value: value })
    }).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { $("notice").textContent = t; });
    });
  }

  function sideLetter(side) { return side === "south" ? "s" : "n"; }

  function chooseDirection(hole, moves) {
    $("direction-hole").textContent = String(hole);
    ["a", "c"].forEach(function (d) {
      var b = $("dir-" + d);
      var m = moves.filter(function (x) { return x.direction === d; })[0];
      b.hidden = !m;
      b.setAttribute("data-move", m ? m.move : "");
    });
    $("direction").hidden = false;
  }

  function draw(s) {
    state = s;
    var last = s.moves.length ? s.moves[s.moves.length - 1] : null;
    var board = OtauBoard.render({
      position: s.position,
      ply: s.ply,
      last: last ? { side: sideLetter(last.side), move: last.move } : null,
      flip: s.person === "north"
    });
    var me = sideLetter(s.person);
    var byHole = {};
    s.legal.forEach(function (m) {
      if (m.hole == null) return;
      (byHole[m.hole] = byHole[m.hole] || []).push(m);
    });
    Object.keys(byHole).forEach(function (k) {
      var g = board.querySelector('g.hole[data-side="' + me + '"][data-hole="' + k + '"]');
      if (!g) return;
      var moves = byHole[k];
      g.classList.add("legal");
      if (moves[0].direction) {
        g.addEventListener("click", function () { chooseDirection(Number(k), moves); });
      } else {
        g.setAttribute("data-move", moves[0].move);
        g.addEventListener("click", function () { play(moves[0].move); });
      }
    });
    var area = $("board-area");
    area.replaceChildren(board);
    $("direction").hidden = true;
    $("pass").hidden = !s.legal.some(function (m) { return m.move === "pass"; });

    var status;
    if (s.status === "over") {
      status = "Game over: " + s.result + " (" + s.termination + ")";
    } else if (s.status === "engine-to-move") {
      status = s.engines[s.engine] + " is thinking...";
    } else {
      status = "Your move (" + s.person + ")";
    }
    $("status").textContent = status;
    $("notice").textContent = s.notice || "";
    $("analysis").textContent = "Analysis: " + (s.analysis_on ? "on" : "off");

    var select = $("engine");
    if (select.options.length !== s.engines.length) {
      select.replaceChildren();
      s.engines.forEach(function (name, i) {
        var o = document.createElement("option");
        o.value = String(i);
        o.textContent = name;
        select.appendChild(o);
      });
    }
    select.value = String(s.engine);

    var list = $("moves");
    list.replaceChildren();
    s.moves.forEach(function (m) {
      var li = document.createElement("li");
      var text = m.side + " " + m.notation + (m.by === "engine" ? " (engine)" : "");
      if (s.analysis_on && m.analysis) text += "  " + info(m.analysis);
      li.textContent = text;
      list.appendChild(li);
    });

    var box = $("analysis-box");
    box.hidden = !s.analysis_on;
    if (s.analysis_on) {
      var a = s.analysis;
      box.textContent = a
        ? (a.best ? "engine suggests " + a.best + "  " : (a.note || "")) + info(a)
        : (s.status === "person-to-move" ? "analysing..." : "");
    }
  }

  function info(a) {
    var parts = [];
    if (a.depth != null) parts.push("depth " + a.depth);
    if (a.score != null) parts.push("score " + a.score);
    if (a.nodes != null) parts.push("nodes " + a.nodes);
    if (a.pv && a.pv.length) parts.push("pv " + a.pv.join(" "));
    return parts.join(", ");
  }

  function play(move) {
    if (!state || state.status !== "person-to-move") return;
    $("direction").hidden = true;
    post("/move", move);
  }

  ["dir-a", "dir-c", "pass"].forEach(function (id) {
    $(id).addEventListener("click", function () { play($(id).getAttribute("data-move")); });
  });
  $("dir-cancel").addEventListener("click", function () { $("direction").hidden = true; });
  $("undo").addEventListener("click", function () { post("/undo", null); });
  $("new-game").addEventListener("click", function () { post("/new-game", null); });
  $("flip").addEventListener("click", function () { post("/flip", null); });
  $("analysis").addEventListener("click", function () {
    post("/analysis", !(state && state.analysis_on));
  });
  $("engine").addEventListener("change", function () {
    post("/engine", Number($("engine").value));
  });
  $("pgn").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = "/game.pgn";
    a.download = "otau-web.pgn";
    document.body.appendChild(a);
    a.click();
    a.remove();
  });

  // The stream's first event is the current state.
  var events = new EventSource("/events");
  events.onmessage = function (e) { draw(JSON.parse(e.data)); };
})();
