"""Korona umpire decisions: what the camera cannot see, entered as log lines.

Kinds (the session itself handles "start_match", "undo" and "correct"):

- ``{"umpire": "foul", "player": "A", "reason": "double_hit"}``: a call against a player, any
  `KoronaReason` whose sanction is loss of the turn or worse (warnings use "warning"). Against
  the player on turn it ends the turn like a stroke would; against the other player a penalty
  disc is placed at once and his next turn is skipped (§24.8, §24.1.15), a loss of the turn
  skips his next turn; a lost game or match ends it.
- ``{"umpire": "warning", "player": "A", "law": "korona §26.3"}``: a warning (§26.1-§26.7);
  the third in a match loses the match (§26.8, §22.5).
- ``{"umpire": "colours", "white": "A"}``: who plays the light discs, before the first stroke
  (default: the player seated S, or W).
- ``{"umpire": "annul_dues", "player": "A"}``: owed penalty discs forgotten while play went on
  are annulled (§24.6 note).
- ``{"umpire": "reset_position"}``: the board was pushed before the game started: set up again
  (§20.32, §23.1.2 note).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.base import Ruling, Step
from rules.korona_laws import KoronaReason, Sanction
from rules.korona_place import place_dues
from rules.korona_state import KoronaState, Pending, initial_layout
from rules.records import UmpireDecision
from tracker.errors import RuleError

if TYPE_CHECKING:
    from rules.korona import KoronaRules

__all__ = ["DECISIONS", "apply_decision"]

R = KoronaReason
DECISIONS: tuple[str, ...] = ("foul", "warning", "colours", "annul_dues", "reset_position")
_WARNING_LAW = re.compile(r"korona §26\.[1-7]")


def apply_decision(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    """Apply one korona umpire decision (see the module docstring)."""
    if state.match_winner is not None:
        raise RuleError(f"umpire {d.kind}: the match is over ({state.match_winner} won)")
    handler = _HANDLERS[d.kind]
    return handler(engine, state, d)


def _player(state: KoronaState, d: UmpireDecision) -> str:
    name = d.get("player")
    if not isinstance(name, str):
        raise RuleError(f"umpire {d.kind}: 'player' must be a player name, got {name!r}")
    return state.player(name).name


def _foul(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    from rules.korona import end_game, finish_turn

    name = _player(state, d)
    try:
        reason = KoronaReason(d.get("reason"))
    except ValueError:
        raise RuleError(f"umpire foul: 'reason' {d.get('reason')!r} is not a korona reason code") from None
    if reason.sanction.rank < Sanction.PENALTY.rank and reason.sanction is not Sanction.LOSE_TURN:
        raise RuleError(f"umpire foul: {reason} is not a foul (warnings use the 'warning' decision)")
    ruling = Ruling(reason, reason.law, (d.event_id,), name, reason.is_foul())
    if name == state.turn:
        return finish_turn(engine, state, name, reason.sanction, [ruling], [])
    if reason.sanction in (Sanction.LOSE_GAME, Sanction.LOSE_MATCH):
        return end_game(
            engine, state, state.other(name).name, [ruling], [], match=reason.sanction is Sanction.LOSE_MATCH
        )
    p = state.player(name)
    pend: list[Pending] = []
    if reason.sanction is Sanction.PENALTY:  # §24.8: placed at once, next turn skipped
        state = state.with_player(replace(p, dues=p.dues + 1))
        state, pend = place_dues(state, state.player(name), engine.geometry, "korona §24.8")
    state = state.with_player(replace(state.player(name), skip_next=True))
    return Step(replace(state, pending=tuple(pend)), (ruling,))


def _warning(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    from rules.korona import end_game

    name = _player(state, d)
    law = d.get("law", R.WARNING.law)
    if not isinstance(law, str) or not _WARNING_LAW.fullmatch(law):
        raise RuleError(f"umpire warning: 'law' must be one of korona §26.1 ... §26.7, got {law!r}")
    p = state.player(name)
    state = state.with_player(replace(p, warnings=p.warnings + 1))
    rulings = [Ruling(R.WARNING, law, (d.event_id,), name, False)]
    if p.warnings + 1 >= 3:
        rulings.append(Ruling(R.THIRD_WARNING, R.THIRD_WARNING.law, (d.event_id,), name, True))
        return end_game(engine, state, state.other(name).name, rulings, [], match=True)
    return Step(replace(state, pending=()), tuple(rulings))


def _colours(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    if state.strokes:
        raise RuleError("umpire colours: only before the first stroke of the match")
    white = state.player(d.get("white") if isinstance(d.get("white"), str) else "").name
    a, b = (replace(p, colour="white" if p.name == white else "black") for p in state.players)
    return Step(replace(state, players=(a, b), layout=initial_layout((a, b), engine.geometry)))


def _annul(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    name = _player(state, d)
    state = state.with_player(replace(state.player(name), dues=0))
    return Step(
        replace(state, pending=()), (Ruling(R.DUES_ANNULLED, R.DUES_ANNULLED.law, (d.event_id,), name),)
    )


def _reset(engine: KoronaRules, state: KoronaState, d: UmpireDecision) -> Step[KoronaState]:
    if state.game_strokes:
        raise RuleError(
            "umpire reset_position: the game has started; a pushed board is a 'foul' "
            "with reason board_pushed (§23.1.2)"
        )
    state = replace(state, layout=initial_layout(state.players, engine.geometry), pending=())
    return Step(state, (Ruling(R.POSITION_RESET, R.POSITION_RESET.law, (d.event_id,)),))


_HANDLERS = {
    "foul": _foul,
    "warning": _warning,
    "colours": _colours,
    "annul_dues": _annul,
    "reset_position": _reset,
}
