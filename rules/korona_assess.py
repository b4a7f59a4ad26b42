"""Pure korona predicates: what one stroke means under §20, §21, §23-§25.

`assess_stroke(stroke, view)` reads a `KoronaStroke` and what the engine knows (`StrokeView`)
and returns an `Assessment`: every call with its law and events, the discs put back where they
were, the off-board discs that go to the centre circle, and the pocketed counts. It holds no
state and decides nothing about penalty-disc placement or the turn order (rules/korona.py does).

Interpretations (the text leaves these open):
- A direct stroke whose first contact is not an own free disc "knocks out" every own blocked disc
  that leaves its blocked position (pocketed and off-board included): each is put back (§21.5)
  and two or more lose the game (§23.1.1).
- A rebound whose first disc contact is an own and an opponent disc at once is legal (§21.8 asks
  only that an own disc be touched first).
- A rail of unknown side counts as the opposite rail (no §24.1.6 call on a guess).
- An own disc touched first whose id is unknown counts as free while the player has free discs.
- A direct stroke that touches nothing when every own disc is blocked is not penalised (§24.1.1
  needs free discs; §24.1.6 speaks of rebounds); it only ends the turn (§25.1.1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.base import stroke_event_id
from rules.korona_geometry import OPPOSITE, KoronaGeometry
from rules.korona_laws import KoronaReason, Sanction
from rules.korona_record import Contact, Gone, KoronaStroke
from rules.records import DiscPos

__all__ = ["Assessment", "Call", "Restore", "StrokeFacts", "StrokeView", "assess_stroke", "compute_facts"]

R = KoronaReason


@dataclass(frozen=True, slots=True)
class StrokeView:
    """What the engine knows when a stroke arrives.

    Attributes:
        seat: the striker's side; own: his colour ("white" or "black").
        own_on_board: how many own discs the engine counts on the board.
        before: positions before the stroke (the record's, else the engine's last layout).
        geometry: board geometry; move_tol_mm: a disc displaced more than this has moved.
    """

    seat: str
    own: str
    own_on_board: int
    before: tuple[DiscPos, ...]
    geometry: KoronaGeometry
    move_tol_mm: float = 2.0

    @property
    def opp(self) -> str:
        return "black" if self.own == "white" else "white"


@dataclass(frozen=True, slots=True)
class Call:
    """One decision about the stroke: reason, the law applied, the events it rests on."""

    reason: KoronaReason
    law: str
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Restore:
    """A disc put back where it was before the stroke (board mm)."""

    id: int
    kind: str
    x_mm: float
    y_mm: float
    law: str


@dataclass(frozen=True, slots=True)
class StrokeFacts:
    """Geometry-derived facts of one stroke (ids are disc ids)."""

    own_blocked: frozenset[int]
    opp_blocked: frozenset[int]
    own_free_exists: bool
    group_own_free: tuple[Contact, ...]
    group_own_blocked: tuple[Contact, ...]
    group_opp: tuple[Contact, ...]
    group_in_own_zone: tuple[Contact, ...]
    moved: frozenset[int]
    own_out_of_blocked: tuple[int, ...]
    opp_into_blocked: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Assessment:
    """Everything one stroke decides before placements and turn order."""

    calls: tuple[Call, ...]
    restores: tuple[Restore, ...]
    to_centre: tuple[Gone, ...]
    own_pocketed: int
    opp_pocketed: int
    facts: StrokeFacts

    @property
    def sanction(self) -> Sanction:
        """The most severe sanction among the calls (NONE if there are none)."""
        return max((c.reason.sanction for c in self.calls), key=lambda s: s.rank, default=Sanction.NONE)

    def is_legal(self) -> bool:
        """True for a "määrustepärane" stroke: no penalty-disc offence or worse."""
        return self.sanction.rank < Sanction.PENALTY.rank

    def keeps_turn(self) -> bool:
        return all(c.reason.sanction is Sanction.NONE for c in self.calls)


def _positions(discs: tuple[DiscPos, ...]) -> dict[int, DiscPos]:
    return {d.id: d for d in discs if d.id is not None and d.kind in ("white", "black")}


def _blocked_ids(
    pos: dict[int, DiscPos], kind: str, seat: str, g: KoronaGeometry, given: frozenset[int] | None
) -> frozenset[int]:
    ids = [i for i, d in pos.items() if d.kind == kind]
    if given is not None:
        return frozenset(i for i in ids if i in given)
    if not ids:
        return frozenset()
    xy = np.array([[pos[i].x_mm, pos[i].y_mm] for i in ids])
    return frozenset(np.array(ids)[g.is_blocked(xy, seat)].tolist())


def compute_facts(stroke: KoronaStroke, view: StrokeView) -> StrokeFacts:
    """Blocked discs, first-contact classes and moved discs of one stroke."""
    g, seat, opp_seat = view.geometry, view.seat, OPPOSITE[view.seat]
    before = _positions(stroke.before or view.before)
    after = _positions(stroke.after)
    own_blocked = _blocked_ids(before, view.own, seat, g, stroke.blocked_before)
    opp_blocked = _blocked_ids(before, view.opp, opp_seat, g, stroke.blocked_before)
    free_exists = view.own_on_board - len(own_blocked) > 0
    own_free, own_blk, opp, in_zone = [], [], [], []
    for c in stroke.first_group:
        d = before.get(c.id) if c.id is not None else None
        if c.kind != view.own:
            opp.append(c)
        elif (c.id in own_blocked) if d is not None else not free_exists:
            own_blk.append(c)
        else:
            own_free.append(c)
        if d is not None and g.in_rail_zone(np.array([[d.x_mm, d.y_mm]]), seat)[0]:
            in_zone.append(c)
    gone = {g.id for g in (*stroke.pocketed, *stroke.off_board) if g.id is not None}
    if not stroke.after and stroke.blocked_after is None:
        # No "after" in the record: only the discs known to have left count as moved.
        moved = stroke.moved if stroke.moved is not None else frozenset(gone & set(before))
        out = tuple(sorted(i for i in own_blocked if i in moved))
        into: tuple[int, ...] = ()
    else:
        moved = (
            stroke.moved
            if stroke.moved is not None
            else frozenset(
                i
                for i, d in before.items()
                if i not in after or np.hypot(after[i].x_mm - d.x_mm, after[i].y_mm - d.y_mm) > view.move_tol_mm
            )
        )
        after_own_blocked = _blocked_ids(after, view.own, seat, g, stroke.blocked_after)
        after_opp_blocked = _blocked_ids(after, view.opp, opp_seat, g, stroke.blocked_after)
        out = tuple(sorted(i for i in own_blocked if i not in after_own_blocked and (i in after or i in gone)))
        into = tuple(sorted(i for i in after_opp_blocked if i in before and i not in opp_blocked))
    return StrokeFacts(
        own_blocked,
        opp_blocked,
        free_exists,
        tuple(own_free),
        tuple(own_blk),
        tuple(opp),
        tuple(in_zone),
        moved,
        out,
        into,
    )


def _cid(n: int, c: Contact) -> str:
    return (
        stroke_event_id(n, "striker_contacts", c.index)
        if c.index >= 0
        else stroke_event_id(n, "first_contact")
    )


def _first_contact_calls(s: KoronaStroke, f: StrokeFacts, seat: str) -> list[Call]:
    """§24.1.1-§24.1.3, §24.1.6, §24.1.8, §24.1.11, §21.8: what the striker touched first."""
    n = s.number
    group_ev = tuple(_cid(n, c) for c in s.first_group) or (stroke_event_id(n),)
    calls: list[Call] = []
    if not s.first_known:
        return calls
    if not s.rebound:
        if not s.first_group and f.own_free_exists:
            calls.append(Call(R.NO_OWN_DISC_TOUCHED, R.NO_OWN_DISC_TOUCHED.law, group_ev))
        if f.group_opp:
            calls.append(Call(R.OPPONENT_DISC_FIRST, R.OPPONENT_DISC_FIRST.law, group_ev))
        if f.group_own_blocked:
            calls.append(Call(R.OWN_BLOCKED_DIRECT, R.OWN_BLOCKED_DIRECT.law, group_ev))
        if f.group_in_own_zone:
            calls.append(Call(R.OWN_ZONE_DISC_TOUCHED, R.OWN_ZONE_DISC_TOUCHED.law, group_ev))
        return calls
    cushion_ev = tuple(_cid(n, c) for c in s.cushions)
    opposite = any(c.rail is None or c.rail == OPPOSITE[seat] for c in s.cushions)
    own_first = bool(f.group_own_free or f.group_own_blocked)
    if f.own_free_exists:
        if not s.first_group:
            calls.append(Call(R.NO_OWN_DISC_TOUCHED, "korona §21.8", cushion_ev))
        elif not own_first:
            law = R.REBOUND_OPPONENT_FIRST.law if opposite else "korona §21.8"
            calls.append(Call(R.REBOUND_OPPONENT_FIRST, law, cushion_ev + group_ev))
    elif not opposite and not own_first:
        calls.append(Call(R.BLOCKED_REBOUND_MISSED, R.BLOCKED_REBOUND_MISSED.law, cushion_ev + group_ev))
    return calls


def _restores(s: KoronaStroke, f: StrokeFacts, view: StrokeView) -> tuple[list[Call], list[Restore]]:
    """§21.5, §21.10, §21.13-14, §23.1.1, §23.1.4: after a direct stroke whose first contact was
    not an own free disc."""
    n = s.number
    legal_first = bool(s.first_group) and not f.group_opp and not f.group_own_blocked
    if s.rebound or not s.first_known or not s.first_group or legal_first:
        return [], []
    before = _positions(s.before or view.before)
    calls: list[Call] = []
    restores: list[Restore] = []

    def put_back(ids: tuple[int, ...] | list[int], law: str) -> None:
        for i in ids:
            if i in before and all(r.id != i for r in restores):
                d = before[i]
                restores.append(Restore(i, d.kind, d.x_mm, d.y_mm, law))

    put_back(f.own_out_of_blocked, "korona §21.5")
    ev_after = (stroke_event_id(n, "after"),)
    if len(f.own_out_of_blocked) >= 2:
        calls.append(Call(R.OWN_BLOCKED_TWO_OUT, R.OWN_BLOCKED_TWO_OUT.law, ev_after))
    if f.group_own_blocked:
        others = f.moved - {c.id for c in f.group_own_blocked}
        if len(others) >= 2:
            calls.append(Call(R.OWN_BLOCKED_DIRECT_MOVED_TWO, R.OWN_BLOCKED_DIRECT_MOVED_TWO.law, ev_after))
    if f.opp_into_blocked:
        put_back(f.opp_into_blocked, "korona §21.10")
        calls.append(Call(R.OPPONENT_INTO_BLOCKED, R.OPPONENT_INTO_BLOCKED.law, ev_after))
    opp_off = [g for g in s.off_board if g.kind == view.opp]
    if f.group_opp and opp_off:
        ids = [g.id for g in opp_off if g.id is not None]
        put_back(ids, "korona §21.13")
        events = tuple(stroke_event_id(n, "off_board", g.index) for g in opp_off)
        calls.append(Call(R.OPPONENT_OFF_BOARD_DIRECT, R.OPPONENT_OFF_BOARD_DIRECT.law, events))
    return calls, restores


def _striker_calls(s: KoronaStroke) -> list[Call]:
    n = s.number
    calls = []
    if s.striker_pocketed:
        calls.append(
            Call(R.STRIKER_POCKETED, R.STRIKER_POCKETED.law, (stroke_event_id(n, "striker_pocketed"),))
        )
    if s.striker_off_board:
        calls.append(
            Call(R.STRIKER_OFF_BOARD, R.STRIKER_OFF_BOARD.law, (stroke_event_id(n, "striker_off_board"),))
        )
    calls.extend(
        Call(r, r.law, (stroke_event_id(n, "umpire_calls", i),)) for i, r in enumerate(s.umpire_calls)
    )
    return calls


def _turn_calls(
    s: KoronaStroke,
    f: StrokeFacts,
    view: StrokeView,
    own_p: list[Gone],
    opp_p: list[Gone],
    to_centre: tuple[Gone, ...],
    *,
    ended: bool,
) -> list[Call]:
    """§25.1.1-§25.1.4 after a legal stroke, or §20.9 when the turn goes on."""
    n = s.number
    calls = []
    if not own_p:
        ev = tuple(stroke_event_id(n, "pocketed", g.index) for g in opp_p) or (stroke_event_id(n),)
        calls.append(Call(R.NO_OWN_POCKETED, R.NO_OWN_POCKETED.law, ev))
    elif opp_p:
        ev = tuple(stroke_event_id(n, "pocketed", g.index) for g in opp_p)
        calls.append(Call(R.OPPONENT_POCKETED, R.OPPONENT_POCKETED.law, ev))
    if to_centre:
        ev = tuple(stroke_event_id(n, "off_board", g.index) for g in to_centre)
        calls.append(Call(R.DISC_OFF_BOARD, R.DISC_OFF_BOARD.law, ev))
    beyond = s.striker_beyond_zone_line
    if beyond is None and s.striker_rest is not None:
        beyond = bool(view.geometry.striker_beyond_zone_line(np.array([s.striker_rest]), view.seat)[0])
    if beyond and not f.own_blocked:
        calls.append(
            Call(
                R.STRIKER_RETURNED_TO_ZONE,
                R.STRIKER_RETURNED_TO_ZONE.law,
                (stroke_event_id(n, "striker_rest"),),
            )
        )
    if not calls and own_p and not ended:
        ev = tuple(stroke_event_id(n, "pocketed", g.index) for g in own_p)
        calls.append(Call(R.OWN_POCKETED, R.OWN_POCKETED.law, ev))
    return calls


def _centre_order(s: KoronaStroke, off: list[Gone]) -> tuple[Gone, ...]:
    """§20.19: the disc the striker touched first goes to the centre first, then record order."""
    first_ids = {c.id for c in s.first_group if c.id is not None}
    return tuple(sorted(off, key=lambda g: (g.id not in first_ids, g.index)))


def assess_stroke(stroke: KoronaStroke, view: StrokeView) -> Assessment:
    """Every call one stroke earns, with laws and events, plus what must be put back.

    Args:
        stroke: the korona view of the stroke record.
        view: the engine's knowledge (seat, colour, counts, last layout, geometry).

    Returns:
        The `Assessment`; its `calls` are in the order: first contact, restores/game loss,
        striker and umpire calls, then the turn (§25) or §20.9 for a legal stroke.
    """
    facts = compute_facts(stroke, view)
    calls = _first_contact_calls(stroke, facts, view.seat)
    more, restores = _restores(stroke, facts, view)
    calls += more + _striker_calls(stroke)
    restored = {r.id for r in restores}
    own_p = [g for g in stroke.pocketed if g.kind == view.own and (g.id is None or g.id not in restored)]
    opp_p = [g for g in stroke.pocketed if g.kind == view.opp and (g.id is None or g.id not in restored)]
    to_centre = _centre_order(stroke, [g for g in stroke.off_board if g.id is None or g.id not in restored])
    partial = Assessment(tuple(calls), tuple(restores), to_centre, len(own_p), len(opp_p), facts)
    if partial.is_legal():
        ended = any(c.reason.sanction.ends_turn() for c in calls)
        calls += _turn_calls(stroke, facts, view, own_p, opp_p, to_centre, ended=ended)
    return Assessment(tuple(calls), tuple(restores), to_centre, len(own_p), len(opp_p), facts)
