// Stream overlay: score bar, call-outs, mini-board with live discs and the last striker path.
// Query: ?delay=2.5 (seconds, to match the stream delay), ?board=0 (hide the mini-board).
"use strict";

(function () {
  const params = new URLSearchParams(location.search);
  const delay = parseFloat(params.get("delay") || "0") || 0;
  const showBoard = params.get("board") !== "0";
  const $ = (id) => document.getElementById(id);
  let view = null, discs = [], strikerPath = [], lastPath = [], inShot = false, calloutTimer = null;

  if (!showBoard) $("miniboard").classList.add("hidden");
  fetch("/api/board").then((r) => r.json()).then((g) => { view = new BoardView($("miniboard"), g); draw(); });

  function draw() {
    if (!view || !showBoard) return;
    view.drawBoard();
    view.drawPath(inShot ? strikerPath : lastPath);
    view.drawDiscs(discs);
  }

  function renderState(state) {
    const v = scoreView(state);
    const seats = Object.keys(v.seats);
    $("scorebar").classList.toggle("hidden", seats.length === 0);
    const left = seats.includes("S") ? "S" : seats[0], right = seats.includes("N") ? "N" : seats[1];
    for (const [slot, seat] of [["S", left], ["N", right]]) {
      const name = v.seats[seat] || "—";
      $("name-" + slot).textContent = name;
      $("points-" + slot).textContent = v.points[name] !== undefined ? v.points[name] : 0;
      $("games-" + slot).textContent = v.games[name] !== undefined ? v.games[name] : 0;
      const due = v.dues[name] || 0;
      $("dues-" + slot).textContent = due ? "due " + due : "";
      $("player-" + slot).classList.toggle("active", name === v.turn && !v.over);
    }
    $("board-no").textContent = v.over ? "Match won by " + (v.over.winner || "") : "Board " + v.board;
    $("queen").textContent = boardNote(v);
    $("review-flag").classList.toggle("hidden", !state.review);
    if (state.discs) { discs = state.discs; draw(); }
  }

  function callout(kind, title, detail) {
    const el = $("callout");
    el.className = "callout " + kind;
    $("callout-title").textContent = title;
    $("callout-detail").textContent = detail || "";
    clearTimeout(calloutTimer);
    calloutTimer = setTimeout(() => el.classList.add("hidden"), 3500);
  }

  const handlers = {
    state: renderState,
    frame: (m) => {
      discs = m.discs;
      if (inShot) {
        const s = m.discs.find((d) => d[1] === "striker");
        if (s) strikerPath.push([s[2], s[3]]);
      }
      draw();
    },
    event: (m) => {
      const t = m.event.type;
      if (t === "shot_start") { inShot = true; strikerPath = []; }
      if (t === "shot_end") { inShot = false; lastPath = strikerPath; draw(); }
    },
    callout: (m) => {
      if (m.kind === "pocket") callout("pocket", m.disc === "striker" ? "STRIKER POCKETED" : "POCKET",
                                       (m.disc || "") + (m.pocket ? " · " + m.pocket : ""));
      else if (m.kind === "foul") callout("foul", "FOUL", reasonText(m.reason) + (m.law ? " · " + m.law : ""));
      else if (m.kind === "review") callout("review", "FOUL?", "under review");
    },
  };

  connectFeed("/ws/overlay" + (delay > 0 ? "?delay=" + delay : ""),
              (m) => { const h = handlers[m.type]; if (h) h(m); },
              (up) => $("offline").classList.toggle("hidden", up));
})();
