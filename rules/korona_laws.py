"""The korona laws this package cites, the closed set of korona reason codes and their sanctions.

Citations follow `../shared/rules/korona-et.txt` (Estonian korona competition rules, §19-§30) as
"korona §24.1.4". Paragraph numbers count the paragraphs of each § in the order of the text; the
items of a list are sub-numbers of the paragraph that introduces it ("§24.1.4" is the fourth item of
the list in §24 paragraph 1); a "Märkus" (note) belongs to the paragraph before it. The text's own
cross-references agree with this count for §19, §22-§25 and §28; for §20 and §21 they come from an
older numbering and are not used. Every cited paragraph has an anchor (words of its Estonian text)
in `LAWS`, so a citation can be checked against the text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["LAWS", "KoronaReason", "Law", "Sanction", "law_of"]


class Sanction(StrEnum):
    """What a reason costs the player it is called against, least to most severe."""

    NONE = "none"  # informational: the turn goes on (§20.9)
    LOSE_TURN = "lose_turn"  # §25
    WARNING = "warning"  # §26: a third warning in a match loses it (§26.8)
    PENALTY = "penalty"  # §24: one penalty disc and the turn (§24.1, §25.1.7)
    LOSE_GAME = "lose_game"  # §23
    LOSE_MATCH = "lose_match"  # §22

    @property
    def rank(self) -> int:
        return _SANCTION_ORDER.index(self)

    def ends_turn(self) -> bool:
        return self is not Sanction.NONE and self is not Sanction.WARNING


_SANCTION_ORDER = tuple(Sanction)


@dataclass(frozen=True, slots=True)
class Law:
    """One cited paragraph: its id, words of its Estonian text, and what it says in English."""

    law: str
    anchor: str
    summary: str


def _law(law: str, anchor: str, summary: str) -> tuple[str, Law]:
    return law, Law(law, anchor, summary)


LAWS: dict[str, Law] = dict(
    [
        _law(
            "korona §19.2",
            "kummalegi poole keskjoont jääb neli seibi",
            "set-up: 8 discs against the rail, 4 each side",
        ),
        _law("korona §19.4", "Mäng loetakse alustatuks", "the game starts with the breaker's first stroke"),
        _law(
            "korona §20.8",
            "tagasipõrkunud löögiketta avaus",
            "rebounding striker may not cross the own zone line",
        ),
        _law(
            "korona §20.9",
            "saab ta õiguse järjekordseks löögiks",
            "own disc pocketed by a legal stroke: strike again",
        ),
        _law(
            "korona §20.16", "poordile seisma jäänud seib", "a disc left on the rail counts as off the board"
        ),
        _law(
            "korona §20.17",
            "Üle poordi läinud seib tuleb asetada keskringi tsentrisse",
            "an off-board disc goes to the centre, else the diameter point on its side",
        ),
        _law(
            "korona §20.18",
            "Kui ka see punkt pole vaba",
            "else the other diameter points, else between discs",
        ),
        _law(
            "korona §20.19",
            "asetatakse löögiketta poolt esmalt puudutatud seib",
            "several off: first-hit to centre",
        ),
        _law("korona §20.32", "Kui enne geimi algust", "board pushed before the game starts: set up again"),
        _law(
            "korona §21.1",
            "Võistleja võib lüüa otselöögiga kõiki oma seibe",
            "direct strokes at own free discs",
        ),
        _law(
            "korona §21.2",
            "Otselöögil peab löögiketas esmalt puudutama",
            "direct: first touch an own free disc",
        ),
        _law("korona §21.3", "Võistlejal on lubatud lüüa põrkelöögiga", "rebound strokes at any own disc"),
        _law(
            "korona §21.4", "Neid võib lüüa ainult", "blocked discs only by rebound or through own free discs"
        ),
        _law(
            "korona §21.5",
            "lööb otselöögiga keskringist või omapoolse poordi tsoonist välja",
            "own blocked disc knocked out by a direct stroke: penalty, disc put back",
        ),
        _law(
            "korona §21.8",
            "Kui löögiketas põrkelöögi sooritamisel ei puuduta esmalt",
            "rebound must first touch an own disc while the player has free discs",
        ),
        _law(
            "korona §21.9", "Vastasmängija suluseibi keskringist", "opponent blocked disc knocked out: stays"
        ),
        _law(
            "korona §21.10",
            "Keelatud on vastasmängija seibi(de) löömine otselöögiga",
            "opponent disc driven into a blocked position by a direct stroke: put back, penalty",
        ),
        _law(
            "korona §21.11", "Vastasmängija seibi löömine keskringi", "when opponent discs may be driven in"
        ),
        _law(
            "korona §21.12",
            "Juhtudel 1-4 seibide endisi asukohti ei taastata",
            "those cases: nothing put back",
        ),
        _law(
            "korona §21.13",
            "lööb ühe või kaks vastase seibi otselöögiga üle poordi",
            "opponent discs knocked off by a direct stroke: put back, penalty",
        ),
        _law("korona §21.14", "läheb teine vastase seib", "also another opponent disc going off is put back"),
        _law(
            "korona §22.1",
            "kõrvaldatakse käimasolevatelt võistlustelt",
            "disqualification: the match is lost",
        ),
        _law("korona §22.2", "keeldub vastasmängijat tervitamast", "refusing the handshake: disqualified"),
        _law(
            "korona §22.3", "ei ilmu mängulaua taha 2 minuti jooksul", "no-show within 2 minutes: match lost"
        ),
        _law("korona §22.4", "Ebasportliku käitumise korral", "unsporting conduct: match lost"),
        _law("korona §22.5", "Peale kolmandat märkust", "third warning: current and later games lost"),
        _law(
            "korona §23.1.1",
            "välja 2 või üle kahe oma seibi",
            "2+ own blocked discs knocked out by a direct stroke",
        ),
        _law("korona §23.1.2", "tõukab lauda selliselt", "pushing the board so that 2+ discs move"),
        _law(
            "korona §23.1.3", "ei kuula kohtuniku korraldust", "ignoring the umpire's stop, moving 2+ discs"
        ),
        _law(
            "korona §23.1.4",
            "sooritas otselöögi oma dubleeseibi",
            "direct stroke at an own blocked disc moved 2+ others",
        ),
        _law(
            "korona §23.1.5",
            "nihutab paigalt 2 või üle kahe seibi",
            "moving 2+ discs by hand, cue or striker",
        ),
        _law("korona §23.1.6", "kel polnud avalöögi õigust", "break by the wrong player"),
        _law(
            "korona §23.1.7",
            "võtab mängulaualt või mängulaua august",
            "taking discs off the board or out of a pocket",
        ),
        _law("korona §23.1.8", "kel pole mängu jätkamise õigust", "striking out of turn"),
        _law(
            "korona §23.1.9", "ei ulata korrektselt löögiketast tagasi", "not returning the striker properly"
        ),
        _law(
            "korona §23.1.10", "vahetab mängu (geimi kestmise) ajal", "changing striker or cue without leave"
        ),
        _law(
            "korona §24.1.1", "otselöögist ei puuduta löögiketas ühtegi neist", "free own discs, none touched"
        ),
        _law(
            "korona §24.1.2",
            "puudutab esmalt vastase seibi või üheaegselt",
            "direct: opponent disc first or together",
        ),
        _law("korona §24.1.3", "pärast põrkelööki vastaspoordist puudutab", "rebound: opponent disc first"),
        _law("korona §24.1.4", "kukub löögi tagajärjel ühte mängulaua aukudest", "striker pocketed"),
        _law(
            "korona §24.1.5",
            "läheb löögist üle poordi või jääb poordile",
            "striker off the board or on the rail",
        ),
        _law("korona §24.1.6", "kui kõik oma seibid on dublees", "all own discs blocked: rebound missed"),
        _law("korona §24.1.7", "loobub (taktikalistel kaalutlustel)", "declining to strike"),
        _law("korona §24.1.8", "otselöögiga tabab oma dubleeseibi", "direct stroke hits an own blocked disc"),
        _law("korona §24.1.9", "kahekordne löök", "double hit"),
        _law(
            "korona §24.1.10", "asetati löögiks lauale nii, et ta puudutas", "striker placed touching a disc"
        ),
        _law(
            "korona §24.1.11",
            "puudutab ükskõik millist seibi omapoolse poordi tsoonis",
            "striker touched a disc in the own rail zone first",
        ),
        _law(
            "korona §24.1.12",
            "ootamata löögi tagajärjel laual liikuvate",
            "striker lifted before the discs stopped",
        ),
        _law("korona §24.1.13", "puudutab liikuvat (mängus olevat)", "touching a moving striker or disc"),
        _law(
            "korona §24.1.14", "puudutab ükskõik millist seibi;", "touching a disc with cue, hand or striker"
        ),
        _law(
            "korona §24.1.15",
            "sel ajal, kui vastasmängijal on löögikord",
            "touching a disc during the opponent's turn",
        ),
        _law(
            "korona §24.1.16",
            "lööb otselöögiga vastase seibi(d) üle poordi",
            "opponent disc knocked off directly",
        ),
        _law("korona §24.1.17", "kii külje või jämedama otsaga", "stroke with the side or butt of the cue"),
        _law("korona §24.1.18", "ajapiirangu kehtestamise järel", "time limit exceeded"),
        _law(
            "korona §24.1.19", "löögiketas puruneb ja üks tema osadest", "broken striker part pocketed or off"
        ),
        _law("korona §24.2", "karistatakse mängijat ainult ühe trahviseibiga", "one penalty disc per stroke"),
        _law(
            "korona §24.3",
            "Trahviseib asetatakse mängija vastaspoolsesse poorditsooni",
            "penalty disc: opposite rail zone, against the rail, on the centre line",
        ),
        _law(
            "korona §24.4",
            "siis trahviseibi lauale ei asetata",
            "all 8 discs on the board: the penalty is owed",
        ),
        _law("korona §24.5", "pannakse võlg kohe lauale", "opponent pockets a disc of a debtor: debt placed"),
        _law(
            "korona §24.6",
            "Trahviseib asetatakse lauale alles pärast seda",
            "penalty placed when the turn ends",
        ),
        _law(
            "korona §24.7", "Kui võlaseibe on mitu", "several owed discs placed together, at most 8 on board"
        ),
        _law(
            "korona §24.8",
            "sooritab vastasmängija löögikorra ajal",
            "foul during the opponent's turn: placed now",
        ),
        _law("korona §25.1.1", "ei löönud mängulaua aukudesse ühtegi oma seibi", "no own disc pocketed"),
        _law("korona §25.1.2", "koos oma seibiga ka vastase seibi", "opponent disc pocketed with an own"),
        _law("korona §25.1.3", "läks oma või vastase seib üle poordi", "a disc went off the board"),
        _law(
            "korona §25.1.4",
            "ületab omapoolse poorditsooni joone",
            "striker came back over the own zone line",
        ),
        _law("korona §25.1.5", "väljub oma mängutsoonist", "left the playing zone or disturbed the opponent"),
        _law("korona §25.1.6", "lööb vastu lauapinda või poordi", "struck the board surface or the rail"),
        _law("korona §26.1", "Märkus tehakse mängijale", "warnings (§26.1-§26.7)"),
        _law("korona §26.8", "Pärast kolmandat märkust", "third warning in a match"),
        _law(
            "korona §28.2",
            "Geimi võidab paar, kes jõuab sellega lõpule esimesena",
            "the game is won by whoever finishes pocketing first",
        ),
    ]
)


class KoronaReason(StrEnum):
    """Closed set of korona calls. `law` and `sanction` come from `_TABLE`; `umpire_only` marks
    what the camera cannot see (it enters through an umpire decision)."""

    OWN_POCKETED = "own_pocketed"
    GAME_WON = "game_won"
    DUES_ANNULLED = "dues_annulled"
    POSITION_RESET = "position_reset"
    NO_OWN_POCKETED = "no_own_pocketed"
    OPPONENT_POCKETED = "opponent_pocketed"
    DISC_OFF_BOARD = "disc_off_board"
    STRIKER_RETURNED_TO_ZONE = "striker_returned_to_zone"
    LEFT_PLAYING_ZONE = "left_playing_zone"
    STRUCK_BOARD = "struck_board"
    NO_OWN_DISC_TOUCHED = "no_own_disc_touched"
    OPPONENT_DISC_FIRST = "opponent_disc_first"
    REBOUND_OPPONENT_FIRST = "rebound_opponent_first"
    STRIKER_POCKETED = "striker_pocketed"
    STRIKER_OFF_BOARD = "striker_off_board"
    BLOCKED_REBOUND_MISSED = "blocked_rebound_missed"
    DECLINED_TURN = "declined_turn"
    OWN_BLOCKED_DIRECT = "own_blocked_direct"
    DOUBLE_HIT = "double_hit"
    STRIKER_PLACED_ON_DISC = "striker_placed_on_disc"
    OWN_ZONE_DISC_TOUCHED = "own_zone_disc_touched"
    STRIKER_LIFTED_EARLY = "striker_lifted_early"
    TOUCHED_MOVING = "touched_moving"
    TOUCHED_DISC = "touched_disc"
    TOUCHED_DISC_OUT_OF_TURN = "touched_disc_out_of_turn"
    OPPONENT_OFF_BOARD_DIRECT = "opponent_off_board_direct"
    OPPONENT_INTO_BLOCKED = "opponent_into_blocked"
    CUE_BUTT = "cue_butt"
    TIME_LIMIT = "time_limit"
    STRIKER_BROKEN = "striker_broken"
    OWN_BLOCKED_TWO_OUT = "own_blocked_two_out"
    BOARD_PUSHED = "board_pushed"
    IGNORED_STOP = "ignored_stop"
    OWN_BLOCKED_DIRECT_MOVED_TWO = "own_blocked_direct_moved_two"
    MOVED_DISCS_BY_HAND = "moved_discs_by_hand"
    WRONG_BREAK = "wrong_break"
    TOOK_DISC = "took_disc"
    OUT_OF_TURN = "out_of_turn"
    STRIKER_NOT_RETURNED = "striker_not_returned"
    EQUIPMENT_CHANGED = "equipment_changed"
    WARNING = "warning"
    THIRD_WARNING = "third_warning"
    DISQUALIFIED = "disqualified"
    REFUSED_HANDSHAKE = "refused_handshake"
    NO_SHOW = "no_show"
    UNSPORTING = "unsporting"

    @property
    def law(self) -> str:
        """The paragraph this call cites by default ("korona §24.1.4")."""
        return _TABLE[self][0]

    @property
    def sanction(self) -> Sanction:
        return _TABLE[self][1]

    def is_umpire_only(self) -> bool:
        """True when the camera cannot see it: it enters only through an umpire decision."""
        return _TABLE[self][2]

    def is_foul(self) -> bool:
        """True for calls that go in a ruling's "fouls" (penalty disc or worse)."""
        return self.sanction.rank >= Sanction.PENALTY.rank


_N, _LT, _W, _P, _LG, _LM = (
    Sanction.NONE,
    Sanction.LOSE_TURN,
    Sanction.WARNING,
    Sanction.PENALTY,
    Sanction.LOSE_GAME,
    Sanction.LOSE_MATCH,
)
_R = KoronaReason
_TABLE: dict[KoronaReason, tuple[str, Sanction, bool]] = {
    _R.OWN_POCKETED: ("korona §20.9", _N, False),
    _R.GAME_WON: ("korona §28.2", _N, False),
    _R.DUES_ANNULLED: ("korona §24.6", _N, True),
    _R.POSITION_RESET: ("korona §20.32", _N, True),
    _R.NO_OWN_POCKETED: ("korona §25.1.1", _LT, False),
    _R.OPPONENT_POCKETED: ("korona §25.1.2", _LT, False),
    _R.DISC_OFF_BOARD: ("korona §25.1.3", _LT, False),
    _R.STRIKER_RETURNED_TO_ZONE: ("korona §25.1.4", _LT, False),
    _R.LEFT_PLAYING_ZONE: ("korona §25.1.5", _LT, True),
    _R.STRUCK_BOARD: ("korona §25.1.6", _LT, True),
    _R.NO_OWN_DISC_TOUCHED: ("korona §24.1.1", _P, False),
    _R.OPPONENT_DISC_FIRST: ("korona §24.1.2", _P, False),
    _R.REBOUND_OPPONENT_FIRST: ("korona §24.1.3", _P, False),
    _R.STRIKER_POCKETED: ("korona §24.1.4", _P, False),
    _R.STRIKER_OFF_BOARD: ("korona §24.1.5", _P, False),
    _R.BLOCKED_REBOUND_MISSED: ("korona §24.1.6", _P, False),
    _R.DECLINED_TURN: ("korona §24.1.7", _P, True),
    _R.OWN_BLOCKED_DIRECT: ("korona §24.1.8", _P, False),
    _R.DOUBLE_HIT: ("korona §24.1.9", _P, True),
    _R.STRIKER_PLACED_ON_DISC: ("korona §24.1.10", _P, True),
    _R.OWN_ZONE_DISC_TOUCHED: ("korona §24.1.11", _P, False),
    _R.STRIKER_LIFTED_EARLY: ("korona §24.1.12", _P, True),
    _R.TOUCHED_MOVING: ("korona §24.1.13", _P, True),
    _R.TOUCHED_DISC: ("korona §24.1.14", _P, True),
    _R.TOUCHED_DISC_OUT_OF_TURN: ("korona §24.1.15", _P, True),
    _R.OPPONENT_OFF_BOARD_DIRECT: ("korona §24.1.16", _P, False),
    _R.OPPONENT_INTO_BLOCKED: ("korona §21.10", _P, False),
    _R.CUE_BUTT: ("korona §24.1.17", _P, True),
    _R.TIME_LIMIT: ("korona §24.1.18", _P, True),
    _R.STRIKER_BROKEN: ("korona §24.1.19", _P, True),
    _R.OWN_BLOCKED_TWO_OUT: ("korona §23.1.1", _LG, False),
    _R.BOARD_PUSHED: ("korona §23.1.2", _LG, True),
    _R.IGNORED_STOP: ("korona §23.1.3", _LG, True),
    _R.OWN_BLOCKED_DIRECT_MOVED_TWO: ("korona §23.1.4", _LG, False),
    _R.MOVED_DISCS_BY_HAND: ("korona §23.1.5", _LG, True),
    _R.WRONG_BREAK: ("korona §23.1.6", _LG, True),
    _R.TOOK_DISC: ("korona §23.1.7", _LG, True),
    _R.OUT_OF_TURN: ("korona §23.1.8", _LG, True),
    _R.STRIKER_NOT_RETURNED: ("korona §23.1.9", _LG, True),
    _R.EQUIPMENT_CHANGED: ("korona §23.1.10", _LG, True),
    _R.WARNING: ("korona §26.1", _W, True),
    _R.THIRD_WARNING: ("korona §26.8", _LM, False),
    _R.DISQUALIFIED: ("korona §22.1", _LM, True),
    _R.REFUSED_HANDSHAKE: ("korona §22.2", _LM, True),
    _R.NO_SHOW: ("korona §22.3", _LM, True),
    _R.UNSPORTING: ("korona §22.4", _LM, True),
}


def law_of(reason: KoronaReason | str) -> Law:
    """The `Law` a reason cites by default.

    Examples:
        >>> law_of("striker_pocketed").law
        'korona §24.1.4'
    """
    return LAWS[KoronaReason(reason).law]
