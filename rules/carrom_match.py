"""Boards into games into a match (ICF §22, §29-33).

- The break alternates board by board (§22a-i); game 2 is opened by the player who did not
  open game 1 (§22a-ii), game 3 by the first player again (§22a-iii). The extra board on a tie
  (§29b) is broken by the toss winner: the umpire's "set_breaker"; until then the alternation
  goes on.
- A game ends when a player reaches the format's points (§29a: 25) or, after the format's last
  board (§29a: 8), with the leader winning; a tie there calls one more board (§29b).
- The match is best of three games (§30) or per format.
- Sides change at the end of every game (§31) and, in the deciding game only (the ICF original
  of §33; the Italian translation drops "in the third game"), once after the format's board
  (§33a: 4) or as soon as a player reaches the format's points (§33a-b: 13), whichever is first.
  A format with fixed seats (FIC §15) never changes sides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.base import BoardResult, Ruling
from rules.carrom_reasons import FoulReason
from rules.carrom_state import MatchState, frozen_map, new_board, opposite_side
from rules.formats import CarromFormat

__all__ = ["end_game", "end_match", "finish_board", "first_breaker_of_game", "swap_seats"]


def first_breaker_of_game(first_break: str, other: str, game: int) -> str:
    """Who breaks first in `game` (ICF §22a): the first player in odd games, the other in even ones.

    Examples:
        >>> [first_breaker_of_game("A", "B", g) for g in (1, 2, 3)]
        ['A', 'B', 'A']
    """
    return first_break if game % 2 == 1 else other


def swap_seats(seats: Mapping[str, str]) -> dict[str, str]:
    """Every player moves to the opposite side (singles change of sides, ICF §31).

    Examples:
        >>> swap_seats({"S": "A", "N": "B"})
        {'S': 'B', 'N': 'A'}
    """
    return {opposite_side(side): name for side, name in sorted(seats.items())}


def _game_winner(points: dict[str, int], board_no: int, fmt: CarromFormat) -> str | None:
    (a, pa), (b, pb) = points.items()
    if max(pa, pb) >= fmt.game_points:
        return a if pa > pb else b
    if fmt.max_boards is not None and board_no >= fmt.max_boards and pa != pb:
        return a if pa > pb else b
    return None


def _ruling(reason: FoulReason, player: str | None, events: tuple[str, ...],
            law: str | None = None) -> Ruling:
    return Ruling(reason, law or reason.law, events, player, reason.is_foul())


def _mid_change_due(state: MatchState, points: dict[str, int], fmt: CarromFormat) -> bool:
    if fmt.seats_fixed or state.mid_change_done or state.game != fmt.deciding_game:
        return False
    by_board = fmt.change_after_board is not None and state.board.number >= fmt.change_after_board
    by_points = fmt.change_at_points is not None and max(points.values()) >= fmt.change_at_points
    return by_board or by_points


def _next_board(state: MatchState, points: dict[str, int], fmt: CarromFormat,
                events: tuple[str, ...]) -> tuple[MatchState, list[Ruling]]:
    rulings: list[Ruling] = []
    board_no = state.board.number
    extra = fmt.max_boards is not None and board_no >= fmt.max_boards
    if extra:
        rulings.append(_ruling(FoulReason.EXTRA_BOARD, None, events))
    seats, mid_done = dict(state.seats), state.mid_change_done
    if _mid_change_due(state, points, fmt):
        seats, mid_done = swap_seats(seats), True
        rulings.append(_ruling(FoulReason.CHANGE_SIDES, None, events, "ICF §33a"))
    breaker = state.other(state.board.white)
    board = new_board(board_no + 1, breaker, state.players, extra=extra)
    return replace(state, board=board, points=frozen_map(points), seats=frozen_map(seats),
                   mid_change_done=mid_done), rulings


def _next_game(state: MatchState, games: dict[str, int], fmt: CarromFormat,
               events: tuple[str, ...]) -> tuple[MatchState, list[Ruling]]:
    game = state.game + 1
    a, b = state.players
    breaker = first_breaker_of_game(state.first_break, state.other(state.first_break), game)
    seats, rulings = dict(state.seats), []
    if not fmt.seats_fixed:
        seats = swap_seats(seats)
        rulings.append(_ruling(FoulReason.CHANGE_SIDES, None, events))
    return replace(state, game=game, points=frozen_map({a: 0, b: 0}), games=frozen_map(games),
                   board=new_board(1, breaker, state.players), seats=frozen_map(seats),
                   mid_change_done=False), rulings


def finish_board(state: MatchState, result: BoardResult, fmt: CarromFormat,
                 events: tuple[str, ...]) -> tuple[MatchState, list[Ruling], str | None]:
    """Record `result`, then start the next board, the next game, or end the match.

    Returns:
        (new state, rulings about game/match/sides, match winner or None).
    """
    points = dict(state.points)
    points[result.winner] += result.points
    state = replace(state, results=(*state.results, result))
    winner = _game_winner(points, state.board.number, fmt)
    if winner is None:
        new_state, rulings = _next_board(state, points, fmt, events)
        return new_state, rulings, None
    return end_game(replace(state, points=frozen_map(points)), winner, fmt, events)


def end_game(state: MatchState, winner: str, fmt: CarromFormat,
             events: tuple[str, ...], *,
             law: str | None = None) -> tuple[MatchState, list[Ruling], str | None]:
    """`winner` takes the game in play; start the next game or end the match (ICF §29a, §30)."""
    games = dict(state.games)
    games[winner] += 1
    rulings = [_ruling(FoulReason.GAME_WON, winner, events, law)]
    state = replace(state, game_winners=(*state.game_winners, winner))
    if games[winner] >= fmt.games_to_win:
        rulings.append(_ruling(FoulReason.MATCH_WON, winner, events, law))
        return replace(state, games=frozen_map(games), winner=winner), rulings, winner
    new_state, more = _next_game(state, games, fmt, events)
    return new_state, rulings + more, None


def end_match(state: MatchState, winner: str, events: tuple[str, ...], law: str,
              reason: FoulReason) -> tuple[MatchState, list[Ruling], str]:
    """`winner` takes the whole match at once (ICF §100 concession, §104 loss of the match)."""
    return replace(state, winner=winner), [_ruling(reason, state.other(winner), events, law),
                                           _ruling(FoulReason.MATCH_WON, winner, events, law)], winner

