"""How a carrom board ends and what it is worth (ICF §24-28, §64, §72-73, §82b, §87b, §100).

Scoring, uniform for every ending: the winner scores the loser's coins left on the board, plus
one coin if the winner demanded the penalty coin of a faulty ending stroke (§72-73 "facendone
esplicita richiesta"), plus the queen if it is credited to the winner: 3 points while the
winner's game score before the board is below the format's cut-off (§25b-i, §27: 22), else 1
point when the queen is all that is left (§72, §73 "vale un singolo punto"), else nothing;
at most 12 (§28). The queen is credited to the board winner unless the loser covered it (§26b-c).

Endings decided by a stroke (P played it, O is the opponent; "faulty" = improper or striker
pocketed, which returns the player's own coins):

- P's last coin, queen covered (before or by this stroke), not faulty: P wins (§25a).
- P's last coin while the queen is on the board: O wins (§73b; FIC §89-90 also with the striker).
- O's last coin (P still has coins): O wins P's coins left (§25a; §73a when P was covering,
  §73b when the queen is on the board or uncovered).
- Both last coins: with the queen in the same stroke (§72b) or while covering (§72a) P wins the
  queen's points, O if faulty (§72, FIC §91); with the queen on the board O wins the queen (§73b);
  queen covered earlier: O wins by 1 if P covered it, by the queen if O did (§73c; FIC §92, §94).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.base import BoardResult
from rules.carrom_reasons import FoulReason
from rules.carrom_state import MatchState, QueenState
from rules.formats import CarromFormat

__all__ = ["EndFacts", "Ending", "find_ending", "forfeit_ending", "queen_points", "score_ending"]


def queen_points(winner_score: int, loser_coins: int, cutoff: int) -> int:
    """Points the queen is worth to a board winner (ICF §25b-i, §27, §72, §73).

    Args:
        winner_score: the winner's game score before the board.
        loser_coins: the loser's coins left on the board.
        cutoff: the format's queen cut-off (22: the queen counts up to 21 inclusive).

    Examples:
        >>> queen_points(21, 4, 22), queen_points(22, 4, 22), queen_points(22, 0, 22)
        (3, 0, 1)
    """
    if winner_score < cutoff:
        return 3
    return 1 if loser_coins == 0 else 0


@dataclass(frozen=True, slots=True)
class Ending:
    """A decided board ending before scoring.

    Attributes:
        winner: board winner; coins: the loser's coins counted; queen_to: who the queen is
        credited to (None: nobody); demanded: add the demanded penalty coin; reason: why.
        queen_by: who pocketed or covered the queen during the board.
    """

    winner: str
    coins: int
    queen_to: str | None
    reason: FoulReason
    demanded: bool = False
    queen_by: str | None = None
    law: str | None = None


@dataclass(frozen=True, slots=True)
class EndFacts:
    """What the ending laws look at after a stroke by `player` (see `StrokeContext`).

    Attributes:
        own_before / opp_before: coins of each colour on the board before the stroke.
        own_after: the player's coins on the board after the stroke's own returns.
        queen_before / queen_by_before: the queen before the stroke.
        queen_after / queen_by_after: the queen after the stroke's rulings.
        faulty: improper stroke or striker pocketed; demanded: the umpire's "demanded" call.
    """

    player: str
    opponent: str
    n_own: int
    n_opp: int
    queen: bool
    own_before: int
    opp_before: int
    own_after: int
    queen_before: QueenState
    queen_by_before: str | None
    queen_after: QueenState
    queen_by_after: str | None
    faulty: bool
    demanded: bool


def _both_last(f: EndFacts) -> Ending:
    pending = f.queen_before is QueenState.PENDING
    demanded = f.faulty and f.demanded
    if f.queen or pending:  # §72a-b
        winner = f.opponent if f.faulty else f.player
        reason = FoulReason.QUEEN_BOTH_LAST if f.queen else FoulReason.QUEEN_COVER_BOTH_LAST
        return Ending(winner, 0, winner, reason, demanded, f.player)
    if f.queen_before is QueenState.ON_BOARD:  # §73b
        return Ending(f.opponent, 0, f.opponent, FoulReason.LAST_COIN_QUEEN_ON_BOARD, demanded)
    if f.queen_by_before == f.player:  # §73c: P covered it, loses by one point
        return Ending(f.opponent, 1, None, FoulReason.BOTH_LAST_QUEEN_COVERED, demanded, f.player)
    return Ending(f.opponent, 0, f.opponent, FoulReason.BOTH_LAST_QUEEN_COVERED, demanded, f.opponent)


def _own_last(f: EndFacts) -> Ending | None:
    if f.queen_after is QueenState.COVERED and not f.faulty:  # §25a
        return Ending(f.player, f.opp_before - f.n_opp, f.queen_by_after, FoulReason.BOARD_WON,
                      queen_by=f.queen_by_after)
    if f.queen_before is QueenState.ON_BOARD and not f.queen:  # §73b
        return Ending(f.opponent, 0, f.opponent, FoulReason.LAST_COIN_QUEEN_ON_BOARD, f.faulty and f.demanded)
    return None  # the faulty stroke's coins go back: the board goes on


def _opp_last(f: EndFacts) -> Ending:
    if f.queen_after is QueenState.COVERED:
        queen_to, reason = f.queen_by_after, FoulReason.OPPONENT_LAST_COIN
    elif f.queen_before is QueenState.PENDING:
        queen_to, reason = f.opponent, FoulReason.COVER_OPPONENT_LAST  # §73a
    else:
        queen_to, reason = f.opponent, FoulReason.LAST_COIN_QUEEN_ON_BOARD  # §73b
    queen_by = f.queen_by_after if f.queen_after is QueenState.COVERED else None
    return Ending(f.opponent, f.own_after, queen_to, reason, f.faulty and f.demanded, queen_by)


def find_ending(f: EndFacts) -> Ending | None:
    """The ending a stroke causes, or None if the board goes on.

    Examples:
        >>> f = EndFacts("A", "B", n_own=1, n_opp=0, queen=False, own_before=1, opp_before=4, own_after=0,
        ...              queen_before=QueenState.COVERED, queen_by_before="A",
        ...              queen_after=QueenState.COVERED, queen_by_after="A", faulty=False, demanded=False)
        >>> e = find_ending(f)
        >>> e.winner, e.coins, e.queen_to, e.reason.law
        ('A', 4, 'A', 'ICF §25a')
    """
    own_zero = f.own_before - f.n_own == 0
    opp_zero = f.opp_before - f.n_opp == 0
    if own_zero and opp_zero:
        return _both_last(f)
    if own_zero:
        return _own_last(f)
    if opp_zero:
        return _opp_last(f)
    return None


def forfeit_ending(state: MatchState, loser: str, reason: FoulReason, *, law: str | None = None) -> Ending:
    """A board lost by `loser` outright (ICF §24, §64, §82b, §87b, §100): his coins on the board
    plus the queen unless he covered it."""
    board = state.board
    winner = state.other(loser)
    covered_by_loser = board.queen is QueenState.COVERED and board.queen_by == loser
    queen_by = board.queen_by if board.queen is QueenState.COVERED else None
    return Ending(winner, board.coins_of(loser), None if covered_by_loser else winner, reason,
                  queen_by=queen_by, law=law)


def score_ending(state: MatchState, ending: Ending, fmt: CarromFormat) -> BoardResult:
    """Turn an `Ending` into a `BoardResult` with its points (ICF §25-28).

    The queen's worth depends on the winner's game score before the board (`state.points`).
    """
    winner_score = state.points[ending.winner]
    qp = queen_points(winner_score, ending.coins, fmt.queen_cutoff) if ending.queen_to == ending.winner else 0
    coins = min(ending.coins + int(ending.demanded), fmt.board_cap)
    points = min(coins + qp, fmt.board_cap)
    return BoardResult(
        winner=ending.winner, points=points, coins=coins, queen_points=points - coins,
        queen_credited_to=ending.queen_to, queen_pocketed_by=ending.queen_by,
        game=state.game, board=state.board.number, breaker=state.board.white,
        law=ending.law or ending.reason.law, reason=ending.reason,
    )
