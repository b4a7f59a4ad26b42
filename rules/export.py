"""Match results in the shape of the SoL tournament manager (one SoL "match" per game).

SoL stores, per board, ``coins1``/``coins2`` (the coins credited to the winner, the other side
0) and ``queen`` ("1" or "2": which competitor the queen counts for), and per match the two
scores and who broke first (``breaker``: "1" or "2"). Competitor 1 is the player seated first at
the start of the match. A board whose whole score is the queen (ICF §72, §73b-c) has no coins;
`points1`/`points2` carry the board's full score so nothing is lost.
"""

from __future__ import annotations

from typing import Any

from rules.base import BoardResult
from rules.carrom_match import first_breaker_of_game
from rules.carrom_state import MatchState
from rules.formats import CarromFormat

__all__ = ["sol_board", "sol_export"]


def _flag(player: str | None, players: tuple[str, str]) -> str | None:
    if player is None:
        return None
    return "1" if player == players[0] else "2"


def sol_board(result: BoardResult, players: tuple[str, str]) -> dict[str, Any]:
    """One board in SoL form.

    Examples:
        >>> from rules.carrom_reasons import FoulReason
        >>> r = BoardResult("B", 7, 4, 3, "B", "B", 1, 2, "B", "ICF §25a", FoulReason.BOARD_WON)
        >>> sol_board(r, ("A", "B"))
        {'number': 2, 'coins1': 0, 'coins2': 4, 'queen': '2', 'points1': 0, 'points2': 7, 'law': 'ICF §25a'}
    """
    first = result.winner == players[0]
    queen = _flag(result.queen_credited_to, players) if result.queen_points else None
    return {
        "number": result.board,
        "coins1": result.coins if first else 0,
        "coins2": 0 if first else result.coins,
        "queen": queen,
        "points1": result.points if first else 0,
        "points2": 0 if first else result.points,
        "law": result.law,
    }


def sol_export(state: MatchState, fmt: CarromFormat) -> dict[str, Any]:
    """The match so far: one entry per game (finished or in play) with its boards and scores."""
    players = state.players
    other = state.other(state.first_break)
    games = []
    for game in range(1, state.game + 1):
        boards = [r for r in state.results if r.game == game]
        score = {p: sum(r.points for r in boards if r.winner == p) for p in players}
        winner = state.game_winners[game - 1] if game <= len(state.game_winners) else None
        games.append({
            "game": game,
            "competitor1": players[0], "competitor2": players[1],
            "score1": score[players[0]], "score2": score[players[1]],
            "breaker": _flag(first_breaker_of_game(state.first_break, other, game), players),
            "winner": _flag(winner, players),
            "boards": [sol_board(r, players) for r in boards],
        })
    return {
        "format": fmt.name, "competitor1": players[0], "competitor2": players[1],
        "first_break": _flag(state.first_break, players),
        "games": games, "games1": state.games[players[0]], "games2": state.games[players[1]],
        "winner": _flag(state.winner, players),
    }
