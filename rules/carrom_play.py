"""Carrom strokes outside the main pocketing table: break attempts, early break, dues, checks.

- ICF §17-18: a break stroke that touches no coin is an attempt; after three the break passes to
  the opponent, who keeps the black coins (§18b); an improper stroke or the striker pocketed
  without touching a coin loses the break at once, with no penalty (§18c).
- ICF §20: a break before the umpire's "go" (umpire call "early_break"): every coin pocketed
  goes back, one penalty coin, the turn passes.
- ICF §45b, §51a, §56: a due is placed as soon as a coin of the debtor's colour is off the
  board (in a pocket); until then it waits. Dues are settled after every line, the debtor's
  opponent placing them (§45a; §51b-ii when his own stroke made them available).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.base import Placement, Ruling, Step
from rules.carrom_predicates import event_ids, is_improper, is_striker_pocketed
from rules.carrom_reasons import FoulReason
from rules.carrom_state import COINS_PER_COLOUR, BoardState, MatchState, QueenState, frozen_map
from rules.formats import CarromFormat
from rules.records import StrokeRecord
from tracker.errors import RuleError

__all__ = ["check_counts", "play_break_attempt", "play_early_break", "settle_all_dues"]

SpotFn = Callable[[list[str], StrokeRecord, str], list[tuple[float, float]]]


def check_counts(board: BoardState, record: StrokeRecord) -> None:
    """Reject a record that pockets or loses more coins than the board holds.

    Raises:
        RuleError: naming the stroke, the kind and both counts.
    """
    for colour in ("white", "black"):
        n = record.count_pocketed(colour) + record.count_off_board(colour)
        if n > board.on_board[colour]:
            raise RuleError(f"stroke {record.stroke}: {n} {colour} coin(s) pocketed or off the board, "
                            f"but only {board.on_board[colour]} on the board")
    nq = record.count_pocketed("queen") + record.count_off_board("queen")
    if nq > 1:
        raise RuleError(f"stroke {record.stroke}: the queen is listed {nq} times")
    if nq and board.queen is not QueenState.ON_BOARD:
        raise RuleError(f"stroke {record.stroke}: the queen is not on the board ({board.queen})")


def settle_all_dues(state: MatchState, events: tuple[str, ...], *,
                    first: str) -> tuple[MatchState, list[Placement], list[Ruling]]:
    """Place every due that has a coin available, `first`'s dues first (ICF §51a, §56).

    Returns:
        (new state, placements by the debtors' opponents, DUE_PAID rulings and a DUE_WAITING
        ruling when `first` still owes dues).
    """
    b = state.board
    dues, on_board = dict(b.dues), dict(b.on_board)
    placements, rulings = [], []
    for player in (first, state.other(first)):
        colour = b.colour_of(player)
        pay = min(dues[player], COINS_PER_COLOUR - on_board[colour])
        if pay:
            dues[player] -= pay
            on_board[colour] += pay
            placements.append(Placement(colour, pay, "opponent", state.other(player), "ICF §51a"))
            rulings.append(Ruling(FoulReason.DUE_PAID, "ICF §56" if pay > 1 else "ICF §51a", events, player))
        if dues[player] and player == first:  # §45b: no coin of his colour is available yet
            rulings.append(Ruling(FoulReason.DUE_WAITING, "ICF §45b", events, player))
    if placements or dues != dict(b.dues):
        state = state.with_board(dues=frozen_map(dues), on_board=frozen_map(on_board))
    return state, placements, rulings


def play_break_attempt(state: MatchState, record: StrokeRecord, fmt: CarromFormat) -> Step[MatchState]:
    """A break stroke that touched no coin (ICF §18a-c)."""
    b, ids = state.board, event_ids(record)
    player, other = b.turn, state.other(b.turn)
    if is_improper(record) or is_striker_pocketed(record):  # §18c
        ruling = Ruling(FoulReason.BREAK_VOID, "ICF §18c", ids, player)
        return Step(state.with_board(turn=other, attempts=0), (ruling,))
    attempts = b.attempts + 1
    if attempts >= fmt.break_attempts:  # §18b: the break passes; colours stay
        ruling = Ruling(FoulReason.BREAK_LOST, "ICF §18b", ids, player)
        return Step(state.with_board(turn=other, attempts=0), (ruling,))
    ruling = Ruling(FoulReason.BREAK_MISSED, "ICF §18a", ids, player)
    return Step(state.with_board(attempts=attempts), (ruling,))


def play_early_break(state: MatchState, record: StrokeRecord, spots: SpotFn) -> Step[MatchState]:
    """A break played before the umpire's "go" (ICF §20): coins back, one penalty, turn lost."""
    b, ids = state.board, event_ids(record)
    player, other = b.turn, state.other(b.turn)
    back = ["queen"] * (record.count_pocketed("queen") + record.count_off_board("queen"))
    own = b.colour_of(player)
    for colour in (own, "black" if own == "white" else "white"):
        back += [colour] * (record.count_pocketed(colour) + record.count_off_board(colour))
    dues = dict(b.dues)
    dues[player] += 1
    state = state.with_board(broken=True, attempts=0, turn=other, dues=frozen_map(dues))
    returns = []
    if back:
        where = spots(back, record, state.side_of(other))
        returns = [Placement(k, 1, "umpire", None, "ICF §20", s) for k, s in zip(back, where, strict=True)]
    rulings = [Ruling(FoulReason.EARLY_BREAK, "ICF §20", ids, player, True)]
    state, paid, notes = settle_all_dues(state, ids, first=player)
    return Step(state, tuple(rulings + notes), tuple(returns + paid))
