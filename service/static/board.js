// Board diagram on a canvas, in board millimetres (origin at the centre, y towards the bottom).
// Carrom: base lines, base circles, centre and outer circles. Korona: rail zones with end lines.
"use strict";

const DISC_COLOURS = { white: "#f3ead2", black: "#1d1d1d", queen: "#c4122f", striker: "#3c8dde" };

class BoardView {
  constructor(canvas, geometry) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.g = geometry;
    this.frameMm = 70;
  }

  // Transform so that board mm map onto the canvas with the frame around the playing surface.
  setup() {
    const c = this.ctx, w = this.canvas.width, h = this.canvas.height;
    const total = this.g.size_mm + 2 * this.frameMm;
    const s = Math.min(w, h) / total;
    c.setTransform(s, 0, 0, s, w / 2, h / 2);
    this.scale = s;
    return s;
  }

  drawBoard(alpha) {
    const c = this.ctx, g = this.g, half = g.size_mm / 2, f = this.frameMm;
    this.setup();
    c.clearRect(-half - f, -half - f, g.size_mm + 2 * f, g.size_mm + 2 * f);
    c.globalAlpha = alpha === undefined ? 1 : alpha;
    c.fillStyle = "#5a3820";
    c.fillRect(-half - f, -half - f, g.size_mm + 2 * f, g.size_mm + 2 * f);
    c.fillStyle = "#e9cf98";
    c.fillRect(-half, -half, g.size_mm, g.size_mm);
    c.globalAlpha = 1;
    c.strokeStyle = "#6b3d1f";
    c.lineWidth = 2;
    for (const [x, y] of g.pockets_mm) this.circle(x, y, g.pocket_radius_mm, "#111", null);
    if (g.centre_circle_mm > 0) this.circle(0, 0, g.centre_circle_mm / 2, null, "#a0342a");
    if (g.outer_circle_mm > 0) this.circle(0, 0, g.outer_circle_mm / 2, null, "#6b3d1f");
    if (g.base_line_length_mm > 0) this.drawBaseLines();
    if (g.rail_zone_depth_mm > 0) this.drawRailZones();
  }

  // For each side, the same drawing rotated by a quarter turn.
  eachSide(draw) {
    const c = this.ctx;
    for (let k = 0; k < 4; k++) {
      c.save();
      c.rotate((k * Math.PI) / 2);
      draw();
      c.restore();
    }
  }

  drawBaseLines() {
    const g = this.g, half = g.size_mm / 2, L = g.base_line_length_mm / 2;
    const outer = half - g.base_line_outer_from_edge_mm, inner = outer - g.base_line_gap_mm;
    this.eachSide(() => {
      this.line(-L, outer, L, outer, "#3b2412", 1.5);
      this.line(-L, inner, L, inner, "#3b2412", 1.5);
      for (const x of [-L, L]) this.circle(x, (outer + inner) / 2, g.base_circle_mm / 2, "#a0342a", "#3b2412");
    });
  }

  drawRailZones() {
    const g = this.g, half = g.size_mm / 2, d = g.rail_zone_depth_mm, L = g.rail_zone_length_mm / 2;
    this.eachSide(() => {
      this.ctx.fillStyle = "rgba(60, 120, 200, 0.12)";
      this.ctx.fillRect(-L, half - d, 2 * L, d);
      this.line(-L, half - d, L, half - d, "#2c5d9c", 2);
      this.line(-L, half - d, -L, half, "#2c5d9c", 2);
      this.line(L, half - d, L, half, "#2c5d9c", 2);
    });
  }

  line(x0, y0, x1, y1, colour, width) {
    const c = this.ctx;
    c.strokeStyle = colour;
    c.lineWidth = width;
    c.beginPath();
    c.moveTo(x0, y0);
    c.lineTo(x1, y1);
    c.stroke();
  }

  circle(x, y, r, fill, stroke) {
    const c = this.ctx;
    c.beginPath();
    c.arc(x, y, r, 0, 2 * Math.PI);
    if (fill) { c.fillStyle = fill; c.fill(); }
    if (stroke) { c.strokeStyle = stroke; c.lineWidth = 1.5; c.stroke(); }
  }

  radius(kind) {
    return kind === "striker" ? this.g.striker_radius_mm : this.g.man_radius_mm;
  }

  // discs: [[id, kind, x_mm, y_mm], ...] (frame messages) or [{kind, x_mm, y_mm}, ...] (records).
  drawDiscs(discs, opts) {
    const o = opts || {};
    const c = this.ctx;
    c.globalAlpha = o.alpha === undefined ? 1 : o.alpha;
    for (const d of discs || []) {
      const [kind, x, y] = Array.isArray(d) ? [d[1], d[2], d[3]] : [d.kind, d.x_mm, d.y_mm];
      if (!isFinite(x) || !isFinite(y)) continue;
      if (o.ghost) {
        c.setLineDash([6, 5]);
        this.circle(x, y, this.radius(kind), null, DISC_COLOURS[kind] === "#1d1d1d" ? "#000" : "#555");
        c.setLineDash([]);
      } else {
        this.circle(x, y, this.radius(kind), DISC_COLOURS[kind] || "#888", "rgba(0,0,0,0.6)");
      }
    }
    c.globalAlpha = 1;
  }

  drawPath(points, colour) {
    if (!points || points.length < 2) return;
    const c = this.ctx;
    c.strokeStyle = colour || "rgba(60,141,222,0.9)";
    c.lineWidth = 3;
    c.setLineDash([10, 6]);
    c.beginPath();
    c.moveTo(points[0][0], points[0][1]);
    for (const [x, y] of points.slice(1)) c.lineTo(x, y);
    c.stroke();
    c.setLineDash([]);
  }

  // A placement zone (returned coins placed anywhere inside it): a gold ring with a label.
  drawZone(x, y, r, label) {
    const c = this.ctx;
    c.setLineDash([12, 8]);
    this.circle(x, y, r, "rgba(255,215,0,0.18)", "#b8860b");
    c.setLineDash([]);
    c.fillStyle = "#6b4a07";
    c.font = "bold 24px sans-serif";
    c.fillText("return coins: " + label, x - r, y - r - 10);
  }

  // Placement spots (returned coins, penalty discs): a ringed cross with a label.
  drawSpots(spots) {
    const c = this.ctx;
    for (const s of spots || []) {
      const p = s.spot_mm || s.xy_mm || (s.x_mm !== undefined ? [s.x_mm, s.y_mm] : null);
      if (!p) continue;
      const r = this.radius(s.kind) + 6;
      this.circle(p[0], p[1], r, "rgba(255,215,0,0.35)", "#b8860b");
      this.line(p[0] - r, p[1], p[0] + r, p[1], "#b8860b", 2);
      this.line(p[0], p[1] - r, p[0], p[1] + r, "#b8860b", 2);
      c.fillStyle = "#3b2412";
      c.font = "bold 26px sans-serif";
      c.fillText((s.count > 1 ? s.count + "× " : "") + (s.kind || "") + (s.placed_by ? " (" + s.placed_by + ")" : ""),
                 p[0] + r + 4, p[1] + 8);
    }
  }
}
