"""Carrom umpire decisions: what the camera cannot see (see the list in rules/carrom.py).

Each handler is a pure function (state, decision, format) -> Step, dispatched by name through
`DECISIONS`. A decision that cannot apply raises `RuleError` naming the field at fault.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from rules.base import Placement, Ruling, Step
from rules.carrom_ending import Ending, forfeit_ending, score_ending
from rules.carrom_match import end_game, end_match, finish_board
from rules.carrom_play import settle_all_dues
from rules.carrom_reasons import FoulReason
from rules.carrom_state import MatchState, QueenState, frozen_map, new_board
from rules.formats import CarromFormat
from rules.records import UmpireDecision
from tracker.errors import RuleError

__all__ = ["DECISIONS", "finish_with"]

Handler = Callable[[MatchState, UmpireDecision, CarromFormat], Step[MatchState]]

_LOSE_BOARD = {
    "left_seat": FoulReason.LEFT_SEAT,
    "appeal": FoulReason.PLAYED_DURING_APPEAL,
    "disturbed": FoulReason.BOARD_DISTURBED,
}


def finish_with(state: MatchState, ending: Ending, fmt: CarromFormat, events: tuple[str, ...],
                rulings: list[Ruling]) -> Step[MatchState]:
    """Score `ending`, record it and move on to the next board, game or the end of the match."""
    result = score_ending(state, ending, fmt)
    if not any(r.reason == ending.reason for r in rulings):
        rulings = [*rulings, Ruling(ending.reason, result.law, events, result.winner)]
    new_state, more, winner = finish_board(state, result, fmt, events)
    return Step(new_state, tuple(rulings + more), (), board_over=result, match_over=winner)


def _player(state: MatchState, d: UmpireDecision) -> str:
    name = d.get("player")
    if name not in state.players:
        raise RuleError(f"{d.kind}: 'player' must be one of {', '.join(state.players)}, got {name!r}")
    return str(name)


def _law(d: UmpireDecision, default: str) -> str:
    law = d.get("law", default)
    if not isinstance(law, str) or not law:
        raise RuleError(f"{d.kind}: 'law' must be an article such as 'ICF §87a', got {law!r}")
    return law


def _live(state: MatchState, d: UmpireDecision) -> None:
    if state.winner is not None:
        raise RuleError(f"{d.kind}: the match is over ({state.winner} won)")


def _penalise(state: MatchState, d: UmpireDecision, *, lose_turn: bool, reason: FoulReason,
              law: str) -> Step[MatchState]:
    _live(state, d)
    player, ids = _player(state, d), (d.event_id,)
    b = state.board
    dues = dict(b.dues)
    dues[player] += 1
    changes: dict[str, object] = {"dues": frozen_map(dues)}
    returns: list[Placement] = []
    if lose_turn and b.turn == player:
        changes["turn"] = state.other(player)
        if b.queen is QueenState.PENDING:  # §69: the cover can no longer be made
            changes.update(queen=QueenState.ON_BOARD, queen_by=None)
            returns.append(Placement("queen", 1, "umpire", None, "ICF §69"))
    state = state.with_board(**changes)
    state, paid, notes = settle_all_dues(state, ids, first=player)
    return Step(state, (Ruling(reason, law, ids, player, True), *notes), tuple(returns + paid))


def _foul(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §37a: one penalty coin; the turn is lost if the player is on turn."""
    return _penalise(state, d, lose_turn=True, reason=FoulReason.FOUL, law=_law(d, "ICF §37a"))


def _technical_foul(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §36a-b: one penalty coin; the player on turn plays on."""
    return _penalise(state, d, lose_turn=False, reason=FoulReason.TECHNICAL_FOUL, law=_law(d, "ICF §36"))


def _waive_dues(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §53, §60: the whole of a player's dues is cancelled (never a part)."""
    _live(state, d)
    player = _player(state, d)
    if not state.board.dues[player]:
        raise RuleError(f"waive_dues: {player} owes no penalty coin")
    dues = dict(state.board.dues)
    dues[player] = 0
    ruling = Ruling(FoulReason.DUES_WAIVED, _law(d, "ICF §60"), (d.event_id,), player)
    return Step(state.with_board(dues=frozen_map(dues)), (ruling,))


def _lose_board(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §64, §82b, §87b: the player loses the board by his coins and the queen."""
    _live(state, d)
    player, why = _player(state, d), d.get("reason")
    if why not in _LOSE_BOARD:
        raise RuleError(f"lose_board: 'reason' must be one of {', '.join(_LOSE_BOARD)}, got {why!r}")
    reason = _LOSE_BOARD[why]
    ruling = Ruling(reason, reason.law, (d.event_id,), player, True)
    return finish_with(state, forfeit_ending(state, player, reason), fmt, (d.event_id,), [ruling])


def _concede(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §100: a player concedes the board, the game or the match."""
    _live(state, d)
    player, what, ids = _player(state, d), d.get("what", "board"), (d.event_id,)
    ruling = Ruling(FoulReason.CONCEDED, "ICF §100", ids, player)
    if what == "board":
        return finish_with(state, forfeit_ending(state, player, FoulReason.CONCEDED), fmt, ids, [ruling])
    if what == "game":
        new_state, more, winner = end_game(state, state.other(player), fmt, ids, law="ICF §100")
        return Step(new_state, (ruling, *more), match_over=winner)
    if what == "match":
        new_state, more, winner = end_match(state, state.other(player), ids, "ICF §100", FoulReason.CONCEDED)
        return Step(new_state, tuple(more), match_over=winner)
    raise RuleError(f"concede: 'what' must be board, game or match, got {what!r}")


def _lose_match(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §104: an act of indiscipline loses the whole match."""
    _live(state, d)
    player = _player(state, d)
    new_state, more, winner = end_match(state, state.other(player), (d.event_id,), _law(d, "ICF §104"),
                                        FoulReason.MATCH_FORFEITED)
    return Step(new_state, tuple(more), match_over=winner)


def _set_breaker(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §13, §29b: who breaks this board (toss); only before its first stroke."""
    _live(state, d)
    player = _player(state, d)
    if state.board.strokes:
        raise RuleError("set_breaker: the board has already started")
    board = new_board(state.board.number, player, state.players, extra=state.board.extra)
    ruling = Ruling(FoulReason.BREAKER_SET, _law(d, "ICF §29b"), (d.event_id,), player)
    return Step(replace(state, board=board), (ruling,))


def _replay_board(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §98, §101, §103: the board is cancelled and played again, same breaker."""
    _live(state, d)
    b = state.board
    board = new_board(b.number, b.white, state.players, extra=b.extra)
    ruling = Ruling(FoulReason.BOARD_REPLAYED, _law(d, "ICF §98"), (d.event_id,), None)
    return Step(replace(state, board=board), (ruling,))


def _set_seats(state: MatchState, d: UmpireDecision, fmt: CarromFormat) -> Step[MatchState]:
    """ICF §33c: a change of sides made late (or any seating put right by the umpire)."""
    seats = d.get("players")
    if not isinstance(seats, Mapping) or sorted(seats.values()) != sorted(state.players) or \
            set(seats) not in ({"N", "S"}, {"E", "W"}):
        raise RuleError(f"set_seats: 'players' must seat {' and '.join(state.players)} on two opposite sides")
    ruling = Ruling(FoulReason.SEATS_SET, _law(d, "ICF §33c"), (d.event_id,), None)
    return Step(replace(state, seats=frozen_map(seats)), (ruling,))


DECISIONS: dict[str, Handler] = {
    "foul": _foul,
    "technical_foul": _technical_foul,
    "waive_dues": _waive_dues,
    "lose_board": _lose_board,
    "concede": _concede,
    "lose_match": _lose_match,
    "set_breaker": _set_breaker,
    "replay_board": _replay_board,
    "set_seats": _set_seats,
}
