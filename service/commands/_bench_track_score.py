"""Scoring of tracker events against simulator ground truth (contract-1 dicts on both sides)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Score", "score_events", "count_id_switches"]


@dataclass
class Score:
    """Counts summed over runs; ratios are computed at the end."""

    pocket_tp: int = 0
    pocket_pred: int = 0
    pocket_true: int = 0
    off_tp: int = 0
    off_pred: int = 0
    off_true: int = 0
    shots_true: int = 0
    shots_pred: int = 0
    shots_matched: int = 0
    first_ok: int = 0
    exact: int = 0
    hand_false: int = 0
    id_switches: int = 0
    direct_ok: int = 0
    first_disc_ok: int = 0
    rest_ok: int = 0
    placed_tp: int = 0
    placed_pred: int = 0
    placed_true: int = 0
    rest_extra: int = 0
    rest_missing: int = 0
    failures: list[str] = field(default_factory=list)
    cases: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: Score) -> None:
        for k, v in vars(other).items():
            if k in ("failures", "cases"):
                getattr(self, k).extend(v)
            else:
                setattr(self, k, getattr(self, k) + v)

    def fail(self, category: str, text: str) -> None:
        """Record one failure case under `category` (e.g. "pocketed missed")."""
        self.cases.append((category, text))
        self.failures.append(f"[{category}] {text}")

    def buckets(self) -> dict[str, list[str]]:
        """Failure cases by category, largest bucket first."""
        out: dict[str, list[str]] = {}
        for cat, text in self.cases:
            out.setdefault(cat, []).append(text)
        return dict(sorted(out.items(), key=lambda kv: -len(kv[1])))

    def ratios(self) -> dict[str, float]:
        def r(a: int, b: int) -> float:
            return a / b if b else 1.0
        return {
            "pocket_precision": r(self.pocket_tp, self.pocket_pred),
            "pocket_recall": r(self.pocket_tp, self.pocket_true),
            "off_board_precision": r(self.off_tp, self.off_pred),
            "off_board_recall": r(self.off_tp, self.off_true),
            "segmentation": r(self.shots_matched, self.shots_true + self.shots_pred - self.shots_matched),
            "first_contact": r(self.first_ok, self.shots_true),
            "exact_shots": r(self.exact, self.shots_true),
            "id_switches_per_shot": self.id_switches / max(self.shots_true, 1),
            "hand_false_events": float(self.hand_false),
            "direct_rebound": r(self.direct_ok, self.shots_true),
            "first_disc": r(self.first_disc_ok, self.shots_true),
            "rest_right": r(self.rest_ok, self.shots_true),
            "placed_precision": r(self.placed_tp, self.placed_pred),
            "placed_recall": r(self.placed_tp, self.placed_true),
            "rest_extra_per_shot": self.rest_extra / max(self.shots_true, 1),
            "rest_missing_per_shot": self.rest_missing / max(self.shots_true, 1),
        }


def _pairs(truth: list[dict[str, Any]], pred: list[dict[str, Any]],
           cost: Callable[[dict[str, Any], dict[str, Any]], float | None], tol: float) -> list[tuple[int, int]]:
    """Pairs (truth index, pred index), one to one: each truth event in turn takes the unused
    prediction of least `cost` (None: not a candidate) within `tol`."""
    pairs, used = [], set()
    for i, te in enumerate(truth):
        best, best_c = -1, tol + 1e-9
        for j, pe in enumerate(pred):
            c = None if j in used else cost(te, pe)
            if c is not None and c <= best_c:
                best, best_c = j, c
        if best >= 0:
            used.add(best)
            pairs.append((i, best))
    return pairs


def _match(truth: list[dict[str, Any]], pred: list[dict[str, Any]], key: str, tol_s: float) -> list[tuple[int, int]]:
    return _pairs(truth, pred, lambda te, pe: abs(pe["t"] - te["t"]) if _key(pe, key) == _key(te, key) else None,
                  tol_s)


def _key(ev: dict[str, Any], key: str) -> tuple[Any, ...]:
    if key == "pocket":
        return (ev["disc"]["kind"], ev["pocket"])
    if key == "off":
        return (ev["disc"]["kind"],)
    return ()


# a disc's rest position this far (mm) from the truth's is somewhere else
REST_TOL_MM = 10.0


# a disc put on the board by hand is reported this long after the truth's moment at most (s): once
# the hand has let go and the disc has been seen standing
PLACED_TOL_S = 1.0


def _match_placed(truth: list[dict[str, Any]], pred: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Pairs (truth index, pred index) of `placed` events: the same kind, within `REST_TOL_MM` of
    each other, the prediction at most `PLACED_TOL_S` away in time (one to one, nearest in place)."""
    def dist(te: dict[str, Any], pe: dict[str, Any]) -> float | None:
        if pe["disc"]["kind"] != te["disc"]["kind"] or abs(pe["t"] - te["t"]) > PLACED_TOL_S:
            return None
        return float(np.hypot(pe["x_mm"] - te["x_mm"], pe["y_mm"] - te["y_mm"]))

    return _pairs(truth, pred, dist, REST_TOL_MM)


def compare_rest(truth: Sequence[dict[str, Any]], pred: Sequence[dict[str, Any]], *,
                 tol_mm: float = REST_TOL_MM) -> tuple[int, int, int]:
    """(extra, missing, wrong kind) of a predicted rest list against the truth's: each truth disc
    is paired with a predicted one within `tol_mm` (one to one, nearest overall); predicted discs
    left over are extra (a phantom on the board), truth discs left over are missing, pairs of
    different kinds are wrong.

    Examples:
        >>> t = [{"kind": "white", "x_mm": 0.0, "y_mm": 0.0}, {"kind": "black", "x_mm": 50.0, "y_mm": 0.0}]
        >>> compare_rest(t, [{"kind": "white", "x_mm": 1.0, "y_mm": 0.5}, {"kind": "queen", "x_mm": 50.0, "y_mm": 2.0},
        ...                  {"kind": "white", "x_mm": 0.0, "y_mm": 300.0}])
        (1, 0, 1)
    """
    from scipy.optimize import linear_sum_assignment

    if not truth or not pred:
        return len(pred), len(truth), 0
    a = np.array([[d["x_mm"], d["y_mm"]] for d in truth], np.float64)
    b = np.array([[d["x_mm"], d["y_mm"]] for d in pred], np.float64)
    dist = np.hypot(*(a[:, None, :] - b[None, :, :]).transpose(2, 0, 1))
    rows, cols = linear_sum_assignment(np.where(dist <= tol_mm, dist, 1e6))
    close = dist[rows, cols] <= tol_mm
    rows, cols = rows[close], cols[close]
    wrong = sum(truth[i]["kind"] != pred[j]["kind"] for i, j in zip(rows, cols, strict=True))
    return len(pred) - len(rows), len(truth) - len(rows), int(wrong)


def _where(ev: dict[str, Any]) -> str:
    return f"shot {ev.get('shot')} frame {ev.get('frame')} t {ev['t']:.3f}"


def _near(ev: dict[str, Any], others: list[dict[str, Any]], kind: str) -> list[tuple[float, Any]]:
    key = "pocket" if kind == "pocketed" else "off"
    return [(round(o["t"], 3), _key(o, key)) for o in others if abs(o["t"] - ev["t"]) < 1.0]


def _shots(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    starts = {e["shot"]: e for e in events if e["type"] == "shot_start"}
    ends = {e["shot"]: e for e in events if e["type"] == "shot_end"}
    out = []
    for n, s in sorted(starts.items()):
        e = ends.get(n)
        body = [x for x in events if x.get("shot") == n and x["type"] in ("pocketed", "off_board")]
        out.append({"start": s, "end": e, "body": body})
    return out


def _outcome(shot: dict[str, Any], first: Any = None) -> tuple[Any, ...]:
    """(pocketed and off-board kinds, first contact, cushion before contact) of a shot; `first`
    overrides the first contact (see `_tied_first`)."""
    pk = sorted((e["disc"]["kind"], e.get("pocket") or "-") for e in shot["body"])
    end = shot["end"] or {}
    fc = end.get("first_contact") if first is None else first
    return (tuple(pk), fc, bool(end.get("cushion_before_contact")))


# contacts of the striker this close in time (s) are one: the simulator steps at 480 Hz, and a
# striker driven into the gap between two discs meets both in the same step
_TIE_S = 5e-4


def _tied_first(truth: Sequence[dict[str, Any]], shot: int, first: Any) -> set[Any]:
    """Kinds the striker met first in truth shot `shot`: its first contact's, and those of disc
    contacts in the same simulation step (either is right: the truth lists them in some order)."""
    if first in (None, "cushion"):
        return {first}
    hits = []
    for e in truth:
        if e["type"] != "contact" or e.get("shot") != shot:
            continue
        a, b = e.get("a", {}), e.get("b", {})
        if a.get("kind") == "striker" and "kind" in b:
            hits.append((e["t"], b["kind"]))
        elif b.get("kind") == "striker" and "kind" in a:
            hits.append((e["t"], a["kind"]))
    if not hits:
        return {first}
    t1 = min(t for t, _ in hits)
    return {first} | {k for t, k in hits if t <= t1 + _TIE_S}


def score_events(truth: Sequence[dict[str, Any]], pred: Sequence[dict[str, Any]], *, fps: float,
                 label: str = "") -> Score:
    """Compare predicted events with ground truth of one run."""
    sc = Score()
    frame = 1.0 / fps
    for kind, key in (("pocketed", "pocket"), ("off_board", "off")):
        te = [e for e in truth if e["type"] == kind]
        pe = [e for e in pred if e["type"] == kind]
        pairs = _match(te, pe, key, 2 * frame + 1e-6)
        tp = len(pairs)
        if kind == "pocketed":
            sc.pocket_tp, sc.pocket_pred, sc.pocket_true = tp, len(pe), len(te)
        else:
            sc.off_tp, sc.off_pred, sc.off_true = tp, len(pe), len(te)
        hit_t, hit_p = {i for i, _ in pairs}, {j for _, j in pairs}
        for i, e in enumerate(te):
            if i not in hit_t:
                sc.fail(f"{kind} missed", f"{label} {_where(e)} {_key(e, key)}; pred near: {_near(e, pe, kind)}")
        for j, e in enumerate(pe):
            if j not in hit_p:
                sc.fail(f"{kind} false", f"{label} {_where(e)} {_key(e, key)}; truth near: {_near(e, te, kind)}")
    t_placed, p_placed = [e for e in truth if e["type"] == "placed"], [e for e in pred if e["type"] == "placed"]
    pairs = _match_placed(t_placed, p_placed)
    sc.placed_tp, sc.placed_pred, sc.placed_true = len(pairs), len(p_placed), len(t_placed)
    for category, events, paired in (("placed missed", t_placed, {i for i, _ in pairs}),
                                     ("placed false", p_placed, {j for _, j in pairs})):
        for e in (e for k, e in enumerate(events) if k not in paired):
            sc.fail(category, f"{label} t {e['t']:.3f} {e['disc']['kind']} at ({e['x_mm']:.0f}, {e['y_mm']:.0f})")
    ts, ps = _shots(truth), _shots(pred)
    sc.shots_true, sc.shots_pred = len(ts), len(ps)
    used: set[int] = set()
    for t_shot in ts:
        t0 = t_shot["start"]["t"]
        cands = [j for j, p in enumerate(ps) if j not in used and abs(p["start"]["t"] - t0) <= 3 * frame + 1e-6]
        if not cands:
            near = [round(p["start"]["t"], 3) for p in ps if abs(p["start"]["t"] - t0) < 1.0]
            sc.fail("shot start missed", f"{label} shot {t_shot['start']['shot']} frame "
                    f"{t_shot['start'].get('frame')} t {t0:.3f}; pred starts near: {near}")
            continue
        j = cands[0]
        used.add(j)
        sc.shots_matched += 1
        p_shot = ps[j]
        tend, pend = t_shot["end"] or {}, p_shot["end"] or {}
        tied = _tied_first(truth, t_shot["start"]["shot"], tend.get("first_contact"))
        fc_ok = pend.get("first_contact") in tied
        sc.first_ok += fc_ok
        if not fc_ok:
            sc.fail("first contact wrong", f"{label} shot {t_shot['start']['shot']} t {t0:.3f}: truth "
                    f"{tend.get('first_contact')} pred {pend.get('first_contact')}")
        sc.first_disc_ok += tend.get("first_disc") == pend.get("first_disc")
        sc.direct_ok += tend.get("stroke") == pend.get("stroke")
        if _outcome(t_shot, pend.get("first_contact") if fc_ok else None) == _outcome(p_shot):
            sc.exact += 1
        else:
            sc.fail("shot not exact", f"{label} shot {t_shot['start']['shot']}: truth {_outcome(t_shot)} "
                    f"pred {_outcome(p_shot)}")
        extra, missing, wrong = compare_rest(tend.get("rest") or [], pend.get("rest") or [])
        sc.rest_extra += extra
        sc.rest_missing += missing
        if extra or missing or wrong:
            sc.fail("rest wrong", f"{label} shot {t_shot['start']['shot']} t {t0:.3f}: {extra} extra, "
                    f"{missing} missing, {wrong} of the wrong kind")
        else:
            sc.rest_ok += 1
    for j, p_shot in enumerate(ps):
        if j not in used:
            sc.fail("shot start false", f"{label} shot {p_shot['start']['shot']} frame "
                    f"{p_shot['start'].get('frame')} t {p_shot['start']['t']:.3f}")
    intervals = [(s["start"]["t"] - 2 * frame, (s["end"] or {"t": 1e9})["t"]) for s in ts]
    for e in pred:
        if e["type"] in ("pocketed", "off_board", "shot_start"):
            if not any(a <= e["t"] <= b for a, b in intervals):
                sc.hand_false += 1
                sc.fail("event between shots", f"{label} {e['type']} frame {e.get('frame')} t {e['t']:.3f}")
    return sc


def count_id_switches(pairs: Iterable[tuple[np.ndarray, np.ndarray]]) -> int:
    """Times a truth disc's track id changed, over a sequence of (truth ids, track ids) per frame."""
    last: dict[int, int] = {}
    switches = 0
    for truth_ids, track_ids in pairs:
        for t, k in zip(truth_ids.tolist(), track_ids.tolist(), strict=True):
            if t < 0 or k < 0:
                continue
            if t in last and last[t] != k:
                switches += 1
            last[t] = k
    return switches
