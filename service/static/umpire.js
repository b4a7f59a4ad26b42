// Umpire console: review queue with clips and confirm/reject, manual fouls, corrections, undo,
// board diagram with the pre-shot ghost and placement spots, and the match sheet.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) { localStorage.setItem("btToken", fromHash); history.replaceState(null, "", location.pathname); }
  let token = localStorage.getItem("btToken") || "";
  let view = null, state = null, discs = [], reviews = [], sheet = [], selected = null, refreshTimer = null;

  function say(text, isError) {
    const el = $("message");
    el.textContent = text;
    el.className = isError ? "error" : "";
    clearTimeout(say.t);
    say.t = setTimeout(() => el.classList.add("hidden"), isError ? 8000 : 3000);
  }

  async function post(action, body) {
    const r = await fetch("/api/umpire/" + action, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify(body || {}),
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const detail = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
      say(action + ": " + detail, true);
      if (r.status === 401) $("token-box").classList.remove("hidden");
      return null;
    }
    say(action.replace(/_/g, " ") + ": done");
    if (data.state) renderState(data.state);
    refresh();
    return data;
  }

  // -- board -------------------------------------------------------------------------------
  fetch("/api/board").then((r) => r.json()).then((g) => { view = new BoardView($("board"), g); draw(); });

  function ghostReview() {
    return reviews.find((r) => r.id === selected) || reviews.find((r) => r.status === "open")
      || [...reviews].reverse().find((r) => r.kind === "foul");
  }

  function spots() {
    const ruling = (state && state.last_ruling) || {};
    const pending = (state && state.rules && state.rules.pending_placements) || [];
    const korona = [...(ruling.penalty || []), ...(ruling.restore || []), ...(ruling.replace || [])];
    const own = korona.length ? korona : (ruling.return || []);
    return [...own, ...pending].filter((s) => s.spot_mm || s.xy_mm || s.x_mm !== undefined);
  }

  function draw() {
    if (!view) return;
    view.drawBoard();
    const g = ghostReview();
    if (g && g.before) view.drawDiscs(g.before, { ghost: true });
    view.drawDiscs(discs);
    const ruling = (state && state.last_ruling) || {};
    view.drawSpots(spots());
    if ((ruling.return || []).some((r) => !r.spot_mm)) view.drawZone(0, 0, view.g.outer_circle_mm / 2 || 100, "centre circle");
    $("placements").textContent = (ruling.return || []).map((s) => (s.count || 1) + " × " + s.kind + " to return, placed by "
      + (s.by || s.placed_by || "?") + (s.law ? " (" + s.law + ")" : "")).join("; ");
  }

  // -- state -------------------------------------------------------------------------------
  function renderState(s) {
    state = s;
    $("game").textContent = s.game || "";
    const v = scoreView(s);
    const names = Object.values(v.seats);
    const parts = names.map((n) => n + " " + (v.points[n] || 0) + (v.dues[n] ? " (due " + v.dues[n] + ")" : ""));
    parts.push("board " + v.board, v.turn ? "to play: " + v.turn : "", boardNote(v));
    $("scoreline").textContent = names.length ? parts.filter(Boolean).join("  ·  ") : "No match: start one";
    document.body.classList.toggle("korona", s.game === "korona");
    for (const sel of document.querySelectorAll(".player-select")) {
      const keep = sel.value;
      sel.innerHTML = names.map((n) => `<option>${escapeHtml(n)}</option>`).join("");
      if (names.includes(keep)) sel.value = keep;
    }
    if (s.source) {
      const el = $("source");
      el.textContent = "camera: " + s.source.state + (s.source.detail ? " (" + s.source.detail + ")" : "");
      el.className = "pill " + ({ ok: "", tracking: "", none: "warn", searching: "warn", ended: "warn" }[s.source.state] ?? "bad");
    }
    const refused = s.refused || [];
    $("refused").classList.toggle("hidden", refused.length === 0);
    $("refused").textContent = refused.length
      ? "Not applied by the rules: " + refused.map((r) => "log " + r.seq + ": " + r.detail).join(" · ") : "";
    if (s.discs) discs = s.discs;
    draw();
  }

  function refresh() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(async () => {
      reviews = await (await fetch("/api/reviews")).json();
      sheet = await (await fetch("/api/sheet")).json();
      renderReviews();
      renderSheet();
      draw();
    }, 150);
  }

  function escapeHtml(t) {
    return String(t).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  function reviewHtml(r) {
    const fouls = ((r.ruling && r.ruling.fouls) || []).map((f) => reasonText(f.reason) + (f.law ? " (" + f.law + ")" : ""));
    const title = r.kind === "foul" ? "Flagged foul: " + (fouls.join(", ") || "?")
      : "Pocket: " + ((r.event && r.event.disc && r.event.disc.kind) || "?") + " in " + ((r.event && r.event.pocket) || "?");
    const video = r.clip ? `<video src="${escapeHtml(r.clip)}#t=0.05" controls muted loop playsinline preload="metadata"></video>` : "";
    const clip = r.kind === "foul" || !video ? video : `<details><summary>clip</summary>${video}</details>`;
    const buttons = r.status === "open"
      ? `<div class="actions"><button class="confirm" data-act="confirm" data-id="${r.id}">Confirm foul</button>
         <button class="reject" data-act="reject" data-id="${r.id}">Reject (no foul)</button></div>` : "";
    return `<div class="review ${r.status}${r.id === selected ? " selected" : ""}" data-id="${r.id}">
      <span class="status">${escapeHtml(r.status)}</span><b>#${r.id}</b> ${escapeHtml(title)}
      ${r.seq ? `<div class="hint">log ${r.seq}</div>` : ""}${clip}${buttons}</div>`;
  }

  function renderReviews() {
    const open = reviews.filter((r) => r.status === "open").length;
    $("review-count").textContent = open ? "(" + open + " open)" : "";
    const rank = (r) => (r.status === "open" ? 0 : r.kind === "foul" ? 1 : 2);
    const items = [...reviews].reverse().sort((a, b) => rank(a) - rank(b)).slice(0, 40);
    $("reviews").innerHTML = items.length ? items.map(reviewHtml).join("") : '<p class="empty">Nothing to review.</p>';
  }

  function who(line) {
    const seats = (state && state.match && state.match.players) || {};
    return line.side ? (seats[line.side] || line.side) : (line.player || "umpire");
  }

  function what(line) {
    if (typeof line.umpire === "string") return line.umpire.replace(/_/g, " ");
    const p = (line.pocketed || []).map((x) => x.kind + (x.pocket ? " " + x.pocket : ""));
    if (line.striker_pocketed) p.push("striker pocketed");
    if (line.striker_off_board) p.push("striker off board");
    return "stroke " + (line.stroke ?? "") + (p.length ? ": " + p.join(", ") : ": nothing pocketed");
  }

  function renderSheet() {
    const rows = sheet.map((s) => {
      const fouls = (s.ruling.fouls || []).map((f) => reasonText(f.reason)).join(", ");
      const pts = Object.entries((s.ruling.score && s.ruling.score.points) || {}).map(([n, p]) => n + " " + p).join(" · ");
      return `<tr class="${fouls ? "foul" : ""}"><td>${s.seq}</td><td>${escapeHtml(who(s.line))}</td>
        <td>${escapeHtml(what(s.line))}</td><td>${escapeHtml(fouls)}</td><td>${escapeHtml(pts)}</td></tr>`;
    });
    document.querySelector("#sheet tbody").innerHTML = rows.reverse().join("");
    const strokes = sheet.filter((s) => typeof s.line.umpire !== "string");
    $("correct-target").innerHTML = strokes.reverse().map((s) => `<option value="${s.seq}">${escapeHtml(what(s.line))} (log ${s.seq})</option>`).join("");
  }

  // -- actions -----------------------------------------------------------------------------
  $("reviews").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-act]");
    if (b) { post(b.dataset.act, { review: Number(b.dataset.id) }); return; }
    const item = e.target.closest(".review");
    if (item) { selected = Number(item.dataset.id); renderReviews(); draw(); }
  });
  $("start-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    const players = { S: f.get("S"), N: f.get("N") };
    if (state && state.match && !window.confirm("Start a new match? The current one stays in the log.")) return;
    post("start_match", { players, first_break: players[f.get("breaks")] });
  });
  $("foul-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    post("foul", { player: f.get("player"), kind: f.get("kind"), reason: f.get("reason") || null,
                   law: f.get("law") || null });
  });
  $("correct-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    let patch;
    try { patch = JSON.parse(f.get("patch")); } catch (err) { say("correction: fields are not valid JSON", true); return; }
    post("correct", { target: Number(f.get("target")), patch });
  });
  $("undo").onclick = () => post("undo");
  $("end-board").onclick = () => post("end_board", { player: $("end-player").value, reason: $("end-reason").value });
  $("end-match").onclick = () => post("end_match", { player: $("end-player").value });
  $("concede").onclick = () => post("concede", { player: $("end-player").value, what: "board" });
  $("token-save").onclick = () => {
    token = $("token-input").value.trim();
    localStorage.setItem("btToken", token);
    location.reload();
  };
  if (!token) $("token-box").classList.remove("hidden");

  const handlers = {
    state: (m) => { renderState(m); if (m.reviews) { reviews = m.reviews; sheet = m.sheet || []; renderReviews(); renderSheet(); draw(); } else refresh(); },
    frame: (m) => { discs = m.discs; draw(); },
    review: () => refresh(),
    clip: () => refresh(),
    error: (m) => { say(m.detail, true); $("token-box").classList.remove("hidden"); },
  };
  connectFeed("/ws/umpire", (m) => { const h = handlers[m.type]; if (h) h(m); },
              (up) => { $("link").textContent = up ? "live" : "offline"; $("link").className = "pill" + (up ? "" : " bad"); },
              () => ({ token }));
})();
