"""The closed set of carrom ruling reasons, each with the article it applies (ICF laws).

Articles are those of ../shared/rules/carrom-icf-it.rst ("ICF §45a"); FIC articles
(carrom-fic-it.md) are cited where they settle a reading the ICF text leaves open.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["FoulReason", "LAW"]


class FoulReason(StrEnum):
    """Why a carrom ruling was made. `is_foul()` tells the penalising ones apart."""

    # break (§17-20)
    BREAK_MISSED = "break_missed"
    BREAK_LOST = "break_lost"
    BREAK_VOID = "break_void"
    EARLY_BREAK = "early_break"
    # turn (§21, §24, §86)
    OWN_COIN_POCKETED = "own_coin_pocketed"
    OPPONENT_COIN_POCKETED = "opponent_coin_pocketed"
    TURN_LOST = "turn_lost"
    OUT_OF_TURN = "out_of_turn"
    # fouls (§36-37)
    TECHNICAL_FOUL = "technical_foul"
    FOUL = "foul"
    # coins off the board (§38), striker off the board (§77)
    COIN_OFF_BOARD = "coin_off_board"
    QUEEN_OFF_BOARD = "queen_off_board"
    STRIKER_OFF_BOARD = "striker_off_board"
    # striker pocketed and improper strokes (§45-50)
    STRIKER_POCKETED = "striker_pocketed"
    STRIKER_WITH_OWN = "striker_with_own"
    STRIKER_WITH_OPPONENT = "striker_with_opponent"
    STRIKER_WITH_BOTH = "striker_with_both"
    IMPROPER_OPPONENT_COINS = "improper_opponent_coins"
    IMPROPER_OWN_COINS = "improper_own_coins"
    IMPROPER_STRIKER_OWN = "improper_striker_own"
    IMPROPER_STROKE = "improper_stroke"
    IMPROPER_QUEEN = "improper_queen"
    # dues (§45b, §51-60)
    DUE_PAID = "due_paid"
    DUE_WAITING = "due_waiting"
    DUES_WAIVED = "dues_waived"
    # queen (§65-71)
    QUEEN_BEFORE_OWN_COIN = "queen_before_own_coin"
    QUEEN_WHILE_DUE = "queen_while_due"
    QUEEN_STRIKER_ALL_ON_BOARD = "queen_striker_all_on_board"
    QUEEN_PENDING_COVER = "queen_pending_cover"
    QUEEN_COVERED = "queen_covered"
    QUEEN_MUST_BE_COVERED = "queen_must_be_covered"
    QUEEN_NOT_COVERED = "queen_not_covered"
    QUEEN_OWN_STRIKER = "queen_own_striker"
    QUEEN_STRIKER = "queen_striker"
    COVER_STRIKER_ALONE = "cover_striker_alone"
    COVER_STRIKER_OWN = "cover_striker_own"
    # board endings (§25-28, §72-73) and forfeits (§24, §64, §82, §87, §100, §104)
    BOARD_WON = "board_won"
    OPPONENT_LAST_COIN = "opponent_last_coin"
    QUEEN_COVER_BOTH_LAST = "queen_cover_both_last"
    QUEEN_BOTH_LAST = "queen_both_last"
    COVER_OPPONENT_LAST = "cover_opponent_last"
    LAST_COIN_QUEEN_ON_BOARD = "last_coin_queen_on_board"
    BOTH_LAST_QUEEN_COVERED = "both_last_queen_covered"
    LEFT_SEAT = "left_seat"
    PLAYED_DURING_APPEAL = "played_during_appeal"
    BOARD_DISTURBED = "board_disturbed"
    CONCEDED = "conceded"
    MATCH_FORFEITED = "match_forfeited"
    BOARD_REPLAYED = "board_replayed"
    BREAKER_SET = "breaker_set"
    SEATS_SET = "seats_set"
    # game and match (§22, §29-33)
    GAME_WON = "game_won"
    EXTRA_BOARD = "extra_board"
    MATCH_WON = "match_won"
    CHANGE_SIDES = "change_sides"

    def is_foul(self) -> bool:
        """True for reasons that penalise the player they name."""
        return self in _FOULS

    @property
    def law(self) -> str:
        """The article this reason applies, e.g. "ICF §45a"."""
        return LAW[self]


_FOULS = frozenset({
    FoulReason.EARLY_BREAK, FoulReason.OUT_OF_TURN, FoulReason.TECHNICAL_FOUL, FoulReason.FOUL,
    FoulReason.STRIKER_POCKETED, FoulReason.STRIKER_WITH_OWN, FoulReason.STRIKER_WITH_OPPONENT,
    FoulReason.STRIKER_WITH_BOTH, FoulReason.IMPROPER_OPPONENT_COINS, FoulReason.IMPROPER_OWN_COINS,
    FoulReason.IMPROPER_STRIKER_OWN, FoulReason.IMPROPER_STROKE, FoulReason.IMPROPER_QUEEN,
    FoulReason.QUEEN_BEFORE_OWN_COIN, FoulReason.QUEEN_WHILE_DUE, FoulReason.QUEEN_STRIKER_ALL_ON_BOARD,
    FoulReason.QUEEN_NOT_COVERED, FoulReason.QUEEN_OWN_STRIKER, FoulReason.QUEEN_STRIKER,
    FoulReason.COVER_STRIKER_ALONE, FoulReason.COVER_STRIKER_OWN, FoulReason.LEFT_SEAT,
    FoulReason.PLAYED_DURING_APPEAL, FoulReason.BOARD_DISTURBED, FoulReason.MATCH_FORFEITED,
})

LAW: dict[FoulReason, str] = {
    FoulReason.BREAK_MISSED: "ICF §18a",
    FoulReason.BREAK_LOST: "ICF §18b",
    FoulReason.BREAK_VOID: "ICF §18c",
    FoulReason.EARLY_BREAK: "ICF §20",
    FoulReason.OWN_COIN_POCKETED: "ICF §21",
    FoulReason.OPPONENT_COIN_POCKETED: "ICF §86a",
    FoulReason.TURN_LOST: "ICF §21",
    FoulReason.OUT_OF_TURN: "ICF §24",
    FoulReason.TECHNICAL_FOUL: "ICF §36",
    FoulReason.FOUL: "ICF §37a",
    FoulReason.COIN_OFF_BOARD: "ICF §38a",
    FoulReason.QUEEN_OFF_BOARD: "ICF §38a",
    FoulReason.STRIKER_OFF_BOARD: "ICF §77",
    FoulReason.STRIKER_POCKETED: "ICF §45a",
    FoulReason.STRIKER_WITH_OWN: "ICF §46",
    FoulReason.STRIKER_WITH_OPPONENT: "ICF §47",
    FoulReason.STRIKER_WITH_BOTH: "ICF §48",
    FoulReason.IMPROPER_OPPONENT_COINS: "ICF §49",
    FoulReason.IMPROPER_OWN_COINS: "ICF §50a",
    FoulReason.IMPROPER_STRIKER_OWN: "ICF §50b",
    FoulReason.IMPROPER_STROKE: "ICF §37a",
    FoulReason.IMPROPER_QUEEN: "ICF §71",
    FoulReason.DUE_PAID: "ICF §51a",
    FoulReason.DUE_WAITING: "ICF §45b",
    FoulReason.DUES_WAIVED: "ICF §60",
    FoulReason.QUEEN_BEFORE_OWN_COIN: "ICF §68a",
    FoulReason.QUEEN_WHILE_DUE: "ICF §68b",
    FoulReason.QUEEN_STRIKER_ALL_ON_BOARD: "ICF §68c",
    FoulReason.QUEEN_PENDING_COVER: "ICF §65",
    FoulReason.QUEEN_COVERED: "ICF §70",
    FoulReason.QUEEN_MUST_BE_COVERED: "ICF §70a",
    FoulReason.QUEEN_NOT_COVERED: "ICF §69",
    FoulReason.QUEEN_OWN_STRIKER: "ICF §71a",
    FoulReason.QUEEN_STRIKER: "ICF §71b",
    FoulReason.COVER_STRIKER_ALONE: "ICF §71c",
    FoulReason.COVER_STRIKER_OWN: "ICF §71d",
    FoulReason.BOARD_WON: "ICF §25a",
    FoulReason.OPPONENT_LAST_COIN: "ICF §25a",
    FoulReason.QUEEN_COVER_BOTH_LAST: "ICF §72a",
    FoulReason.QUEEN_BOTH_LAST: "ICF §72b",
    FoulReason.COVER_OPPONENT_LAST: "ICF §73a",
    FoulReason.LAST_COIN_QUEEN_ON_BOARD: "ICF §73b",
    FoulReason.BOTH_LAST_QUEEN_COVERED: "ICF §73c",
    FoulReason.LEFT_SEAT: "ICF §64",
    FoulReason.PLAYED_DURING_APPEAL: "ICF §82b",
    FoulReason.BOARD_DISTURBED: "ICF §87b",
    FoulReason.CONCEDED: "ICF §100",
    FoulReason.MATCH_FORFEITED: "ICF §104",
    FoulReason.BOARD_REPLAYED: "ICF §98",
    FoulReason.BREAKER_SET: "ICF §29b",
    FoulReason.SEATS_SET: "ICF §33c",
    FoulReason.GAME_WON: "ICF §29a",
    FoulReason.EXTRA_BOARD: "ICF §29b",
    FoulReason.MATCH_WON: "ICF §30",
    FoulReason.CHANGE_SIDES: "ICF §31",
}
