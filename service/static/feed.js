// Live feed over a WebSocket that reconnects on its own with exponential backoff (0.5 s .. 10 s).
// Every message carries captured_at and sent_at (wall-clock seconds); the feed keeps the last
// capture-to-browser latencies in window.btLatency for diagnostics.
"use strict";

window.btLatency = [];

function connectFeed(path, onMessage, onStatus, firstMessage) {
  let backoff = 500;
  function open() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + path);
    ws.onopen = () => {
      backoff = 500;
      if (firstMessage) ws.send(JSON.stringify(firstMessage()));
      onStatus(true);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (err) { return; }
      if (msg.captured_at) {
        window.btLatency.push(Date.now() / 1000 - msg.captured_at);
        if (window.btLatency.length > 600) window.btLatency.shift();
      }
      onMessage(msg);
    };
    ws.onclose = () => {
      onStatus(false);
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 10000);
    };
    ws.onerror = () => ws.close();
  }
  open();
}

// Players by seat and the figures of the score bar, from a state message.
function scoreView(state) {
  const match = state.match || {};
  const seats = match.players || {};
  const ruling = state.last_ruling || {};
  const rules = state.rules || {};
  const score = ruling.score || rules.score || {};
  const points = score.points || rules.points || {};
  const games = score.games || rules.games || {};
  const dues = ruling.dues || rules.dues || {};
  const queen = ruling.queen || rules.queen || {};
  let turn = rules.turn !== undefined ? rules.turn : ruling.next;
  if (turn && typeof turn === "object") turn = turn.player || turn.name || turn.side;
  if (turn && seats[turn]) turn = seats[turn];
  const onBoard = ruling.on_board || rules.on_board || null;
  return { seats, points, games, dues, queen, turn, onBoard,
           board: score.board || rules.board || 1, game: score.game || rules.game || 1,
           over: ruling.match_over || rules.match_over || null };
}

function queenText(q) {
  if (!q || !q.state) return "";
  const by = q.by ? " (" + q.by + ")" : "";
  return { on_board: "Queen on board", pending_cover: "Queen to cover" + by, covered: "Queen covered" + by }[q.state]
    || ("Queen " + q.state.replace(/_/g, " ") + by);
}

// The centre line under the board number: queen status (carrom) or discs left (korona).
function boardNote(v) {
  if (v.queen && v.queen.state) return queenText(v.queen);
  if (v.onBoard) return "on board: " + Object.entries(v.onBoard).map(([n, k]) => n + " " + k).join(" · ");
  return "";
}

function reasonText(reason) {
  return String(reason || "foul").replace(/_/g, " ");
}
