"""What one carrom stroke does to coins, queen, dues and turn (ICF §21, §45-50, §65-71).

`assess_pocketing(ctx)` is a pure function of a `StrokeContext` (the facts of the stroke and the
few bits of state the laws look at). It dispatches on (improper, striker pocketed) through a
dict of handlers; each handler follows the articles it cites, in their order.

Readings (ICF text, settled with FIC where noted):
- An improper stroke costs one penalty coin whatever it pocketed (§37a, §49, §50a-b; §50b does
  not add the striker's pegno to it). The §71 cases (queen or cover attempt with the striker)
  add one more (§71 preamble), and the turn is always lost.
- Opponent's coins pocketed always count for the opponent (§47, §49), also in improper strokes.
- The queen pocketed with the striker while other coins of the player are off the board keeps
  the turn (§71a-b) even if opponent's coins went in too (§71b is the specific article).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.base import Ruling
from rules.carrom_reasons import FoulReason
from rules.carrom_state import QueenState

__all__ = ["PocketingOutcome", "StrokeContext", "assess_pocketing"]


@dataclass(frozen=True, slots=True)
class StrokeContext:
    """Facts of one stroke as the laws see them.

    Attributes:
        player: who played; opponent: the other player.
        n_own / n_opp: coins of the player's / opponent's colour pocketed.
        queen: the queen was pocketed.
        striker: the striker was pocketed.
        improper: the umpire called the stroke improper.
        pending: the player pocketed the queen earlier and must cover it with this stroke.
        all_own_on_board: every coin of the player's colour was on the board before the stroke.
        due_before: the player owed a penalty coin before the stroke (ICF §68b).
        queen_state / queen_by: the queen before the stroke.
        events: ids of the stroke (for the rulings).
    """

    player: str
    opponent: str
    n_own: int
    n_opp: int
    queen: bool
    striker: bool
    improper: bool
    pending: bool
    all_own_on_board: bool
    due_before: bool
    queen_state: QueenState = QueenState.ON_BOARD
    queen_by: str | None = None
    events: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PocketingOutcome:
    """What the stroke decides.

    Attributes:
        own_returned: the player's pocketed coins that go back (placed by the opponent).
        queen_returned: the queen goes back to the centre (placed by the umpire).
        new_dues: penalty coins the player now owes.
        keep_turn: the player plays again.
        queen / queen_by: the queen's state after the stroke.
        rulings: the decisions, in order.
    """

    own_returned: int
    queen_returned: bool
    new_dues: int
    keep_turn: bool
    queen: QueenState
    queen_by: str | None
    rulings: tuple[Ruling, ...]


def _r(ctx: StrokeContext, reason: FoulReason, *, player: str | None = None) -> Ruling:
    who = ctx.player if player is None else player
    return Ruling(reason, reason.law, ctx.events, who, reason.is_foul())


def _out(ctx: StrokeContext, *, own_back: int = 0, queen_back: bool = False, dues: int = 0, keep: bool,
         queen: QueenState | None = None, reasons: tuple[FoulReason, ...]) -> PocketingOutcome:
    if queen is None:  # unchanged, except that a returned queen is back on the board
        queen, by = (QueenState.ON_BOARD, None) if queen_back else (ctx.queen_state, ctx.queen_by)
    else:
        by = None if queen is QueenState.ON_BOARD else ctx.player
    return PocketingOutcome(own_back, queen_back, dues, keep, queen, by, tuple(_r(ctx, x) for x in reasons))


def _improper(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §37a, §49, §50a-b, §71 preamble: own coins and queen back, one penalty, turn lost."""
    reasons: list[FoulReason] = []
    if ctx.n_own and ctx.striker:
        reasons.append(FoulReason.IMPROPER_STRIKER_OWN)  # §50b
    elif ctx.n_own:
        reasons.append(FoulReason.IMPROPER_OWN_COINS)  # §50a
    if ctx.n_opp:
        reasons.append(FoulReason.IMPROPER_OPPONENT_COINS)  # §49
    if not reasons:
        # §45a / §37a
        reasons.append(FoulReason.STRIKER_POCKETED if ctx.striker else FoulReason.IMPROPER_STROKE)
    dues = 1
    queen_involved = ctx.queen or ctx.pending
    if queen_involved and ctx.striker:
        reasons.append(FoulReason.IMPROPER_QUEEN)  # §71 preamble: one more penalty coin
        dues += 1
    if ctx.pending and not ctx.queen:
        reasons.append(FoulReason.QUEEN_NOT_COVERED)  # §69: the cover failed
    return _out(ctx, own_back=ctx.n_own, queen_back=queen_involved, dues=dues, keep=False,
                reasons=tuple(reasons))


def _striker_queen(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §68c, §71a, §71b: the queen pocketed with the striker in a proper stroke."""
    if ctx.all_own_on_board:  # §68c: at the break or with all own coins on the board
        return _out(ctx, own_back=ctx.n_own, queen_back=True, dues=1, keep=False,
                    reasons=(FoulReason.QUEEN_STRIKER_ALL_ON_BOARD,))
    if ctx.n_own:  # §71a: queen and coin back, one penalty, turn kept
        return _out(ctx, own_back=ctx.n_own, queen_back=True, dues=1, keep=True,
                    reasons=(FoulReason.QUEEN_OWN_STRIKER,))
    return _out(ctx, queen_back=True, dues=1, keep=True, reasons=(FoulReason.QUEEN_STRIKER,))  # §71b


def _striker_cover(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §71c, §71d: the striker pocketed while trying to cover the queen."""
    if ctx.n_own:  # §71d: coins back plus one, turn kept, cover still due next stroke
        return _out(ctx, own_back=ctx.n_own, dues=1, keep=True, queen=QueenState.PENDING,
                    reasons=(FoulReason.COVER_STRIKER_OWN,))
    reasons = (FoulReason.COVER_STRIKER_ALONE,) if not ctx.n_opp else (
        FoulReason.STRIKER_WITH_OPPONENT, FoulReason.QUEEN_NOT_COVERED)  # §47 + §69
    return _out(ctx, queen_back=True, dues=1, keep=False, reasons=reasons)  # §71c


def _striker(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §45a, §46, §47, §48 (and the queen cases of §68c, §71)."""
    if ctx.queen:
        return _striker_queen(ctx)
    if ctx.pending:
        return _striker_cover(ctx)
    if ctx.n_own and ctx.n_opp:
        return _out(ctx, own_back=ctx.n_own, dues=1, keep=True, reasons=(FoulReason.STRIKER_WITH_BOTH,))
    if ctx.n_own:
        return _out(ctx, own_back=ctx.n_own, dues=1, keep=True, reasons=(FoulReason.STRIKER_WITH_OWN,))
    if ctx.n_opp:
        return _out(ctx, dues=1, keep=False, reasons=(FoulReason.STRIKER_WITH_OPPONENT,))
    return _out(ctx, dues=1, keep=False, reasons=(FoulReason.STRIKER_POCKETED,))


def _queen_proper(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §65, §68a-b, §70, §70a: the queen pocketed in a proper stroke without the striker."""
    base = _plain_reasons(ctx)
    if ctx.due_before:  # §68b
        return _out(ctx, queen_back=True, keep=False, reasons=(*base, FoulReason.QUEEN_WHILE_DUE))
    if ctx.all_own_on_board and ctx.n_own == 0:  # §68a
        return _out(ctx, queen_back=True, keep=False, reasons=(*base, FoulReason.QUEEN_BEFORE_OWN_COIN))
    if ctx.all_own_on_board and ctx.n_own == 1:  # §70a: one coin with the queen at the start must be covered
        return _out(ctx, keep=True, queen=QueenState.PENDING,
                    reasons=(*base, FoulReason.QUEEN_MUST_BE_COVERED))
    if ctx.n_own:  # §70 (and §70a: more than one coin covers)
        return _out(ctx, keep=True, queen=QueenState.COVERED, reasons=(*base, FoulReason.QUEEN_COVERED))
    # §65: pocketed after an own coin, to be covered next stroke
    return _out(ctx, keep=True, queen=QueenState.PENDING, reasons=(*base, FoulReason.QUEEN_PENDING_COVER))


def _plain_reasons(ctx: StrokeContext) -> tuple[FoulReason, ...]:
    out = []
    if ctx.n_own:
        out.append(FoulReason.OWN_COIN_POCKETED)
    if ctx.n_opp:
        out.append(FoulReason.OPPONENT_COIN_POCKETED)
    return tuple(out)


def _proper(ctx: StrokeContext) -> PocketingOutcome:
    """ICF §21, §69, §86a and the glossary's cover: a proper stroke, striker not pocketed."""
    if ctx.queen:
        return _queen_proper(ctx)
    base = _plain_reasons(ctx)
    if ctx.pending and ctx.n_own:
        return _out(ctx, keep=True, queen=QueenState.COVERED, reasons=(*base, FoulReason.QUEEN_COVERED))
    if ctx.pending:
        return _out(ctx, queen_back=True, keep=False, reasons=(*base, FoulReason.QUEEN_NOT_COVERED))
    if ctx.n_own:
        return _out(ctx, keep=True, reasons=base)
    return _out(ctx, keep=False, reasons=base or (FoulReason.TURN_LOST,))


_HANDLERS: dict[tuple[bool, bool], Callable[[StrokeContext], PocketingOutcome]] = {
    (True, True): _improper,
    (True, False): _improper,
    (False, True): _striker,
    (False, False): _proper,
}


def assess_pocketing(ctx: StrokeContext) -> PocketingOutcome:
    """Rule on what a stroke pocketed.

    Examples:
        >>> ctx = StrokeContext("A", "B", n_own=0, n_opp=0, queen=False, striker=True, improper=False,
        ...                     pending=False, all_own_on_board=True, due_before=False)
        >>> out = assess_pocketing(ctx)
        >>> out.new_dues, out.keep_turn, out.rulings[0].law
        (1, False, 'ICF §45a')
    """
    return _HANDLERS[(ctx.improper, ctx.striker)](ctx)
