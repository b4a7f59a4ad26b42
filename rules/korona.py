"""The korona rules engine (Estonian competition rules, ../shared/rules/korona-et.txt, §19-§30).

`KoronaRules` plugs into `RulesSession(game="korona")`. A stroke record (contract 2 plus the korona
keys of rules/korona_record.py) is judged by the pure predicates of rules/korona_assess.py; this
module applies the result: disc counts, penalty discs and debts, the turn, games and the match.
Penalty-disc and put-back spots come from rules/korona_geometry.py.

Implemented:
    §19.1-§19.2 set-up layout (each player's discs against the rail across from his seat).
    §20.8/§25.1.4 rebounding striker back over the own zone line (no blocked discs): turn lost.
    §20.9 own disc pocketed by a legal stroke: strike again. §20.11 turn lost per §25.
    §20.17-§20.19 off-board disc to the centre circle (centre, own-side diameter point, the
        other points, between discs; diagonal when only the corner is known; first-hit first).
    §20.32 board pushed before the game starts: set up again (umpire "reset_position").
    §21.1-§21.14 direct and rebound strokes, blocked discs (suluseib), what is put back.
    §22.1-§22.5 match lost (umpire "foul").
    §23.1.1 and §23.1.4 from the stroke; §23.1.2-§23.1.10 by umpire "foul".
    §24.1.1-§24.1.6, §24.1.8, §24.1.11, §24.1.16 from the stroke; the other §24.1 items by the
        umpire ("umpire_calls" on the stroke or a "foul" line). §24.2 one penalty disc per
        stroke; §24.3 its spot with the tie-breaks; §24.4 owed when all 8 are on the board;
        §24.5 owed disc placed when the opponent pockets one; §24.6 placed when the turn ends,
        or at once after pocketing all 8, and (note) annulled by umpire "annul_dues"; §24.7
        several at once, never more than 8 on the board; §24.8 foul during the opponent's
        turn: placed at once, next turn skipped.
    §25.1.1-§25.1.4 from the stroke; §25.1.5-§25.1.6 by the umpire; §25.1.7 with §24.
    §26.1-§26.8 warnings (umpire "warning"); the third in a match loses it.
    §28.2 the game goes to whoever has pocketed all own discs first (read for singles too).
    Match formats (best of 1, 3, 5, 7), sides changed and break alternated between games.

Not implemented:
    §19.3, §19.4, §20.1-§20.7, §20.10, §20.13, §20.14, §20.20-§20.31, §26.9-§26.14, §30:
        conduct, cue and striker handling, timing, broken discs: the umpire applies them; the
        consequences that exist enter as umpire "foul"/"warning" lines (§24.1.9-§24.1.19,
        §23.1.9, §25.1.5-§25.1.6).
    §20.12: a disc resting on another or on the striker is set down by the umpire; the tracker
        reports the result in the next stroke's "before".
    §20.15: a disc at a pocket's edge that falls later is put back by the umpire; the tracker
        must not report it as pocketed (no rules outcome).
    §20.16: a disc or striker resting on the rail counts as off the board; the tracker reports
        it in "off_board" / "striker_off_board".
    §23.1.6 notes (a wrong break stands once the 2nd and 3rd strokes are played): the umpire
        decides whether to call "wrong_break".
    §28 doubles: the tracker tells two disc colours of 8; doubles need four sets of 8 and
        partner-aware zones, so a four-player "start_match" is rejected.

Winner of a game (§28.2, read for singles): after a stroke, the striker if he has no disc on
the board and owes none; else his opponent under the same condition (his last disc pocketed by
the striker). Placement of owed discs comes first, so a penalty on the last stroke prevents it.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, ClassVar

from rules.base import BoardResult, Constraints, Placement, RulesEngine, Ruling, Step, stroke_event_id
from rules.korona_assess import Assessment, StrokeView, assess_stroke
from rules.korona_geometry import KoronaGeometry, korona_geometry
from rules.korona_laws import KoronaReason, Sanction
from rules.korona_place import layout_after, place_dues, place_off_board, place_restores
from rules.korona_record import KoronaStroke
from rules.korona_state import (
    DISCS_PER_PLAYER,
    KORONA_FORMATS,
    GameRecord,
    KoronaFormat,
    KoronaState,
    Pending,
    PlayerState,
    initial_layout,
    parse_korona_format,
)
from rules.korona_umpire import DECISIONS, apply_decision
from rules.records import MatchStart, StrokeRecord, UmpireDecision
from tracker.errors import RuleError

__all__ = ["KoronaRules", "end_game", "finish_turn", "pass_turn"]

R = KoronaReason


class KoronaRules(RulesEngine[KoronaState]):
    """Korona rules as hooks over an immutable `KoronaState` (see the module docstring)."""

    game: ClassVar[str] = "korona"
    reasons: ClassVar[type[KoronaReason]] = KoronaReason
    decision_kinds: ClassVar[frozenset[str]] = frozenset(DECISIONS)
    formats: ClassVar[MappingProxyType[str, KoronaFormat]] = KORONA_FORMATS

    def __init__(self, fmt: str = "default", *, geometry: KoronaGeometry | None = None) -> None:
        super().__init__(fmt)
        self.geometry = geometry if geometry is not None else korona_geometry()

    @classmethod
    def resolve_format(cls, spec: str) -> KoronaFormat:
        return parse_korona_format(spec)

    # -- hooks --------------------------------------------------------------------------------
    def initial_state(self, start: MatchStart) -> KoronaState:
        if len(start.seats) != 2:
            raise RuleError("korona: doubles (four players) are not supported; seat two players")
        seats = dict(start.seats)
        white_seat = "S" if "S" in seats else "W"
        (s1, n1), (s2, n2) = sorted(seats.items())
        players = (
            PlayerState(n1, s1, "white" if s1 == white_seat else "black"),
            PlayerState(n2, s2, "white" if s2 == white_seat else "black"),
        )
        return KoronaState(
            players=players,
            turn=start.first_break,
            breaker=start.first_break,
            first_break=start.first_break,
            layout=initial_layout(players, self.geometry),
        )

    def assess_stroke(self, state: KoronaState, record: StrokeRecord) -> Step[KoronaState]:
        if state.match_winner is not None:
            raise RuleError(f"the match is over ({state.match_winner} won); no more strokes")
        striker = state.player(state.turn)
        if record.side != striker.seat:
            raise RuleError(
                f"stroke {record.stroke} is from side {record.side}, but {striker.name} at "
                f"{striker.seat} is on turn (a stroke out of turn is an umpire 'foul' "
                "with reason out_of_turn)"
            )
        stroke = KoronaStroke.from_record(record)
        view = StrokeView(
            striker.seat,
            striker.colour,
            striker.on_board,
            state.layout,
            self.geometry,
            self.format.move_tol_mm,
        )
        a = assess_stroke(stroke, view)
        rulings = [Ruling(c.reason, c.law, c.events, striker.name, c.reason.is_foul()) for c in a.calls]
        state = self._count(state, striker, a, record)
        state, pend = self._put_back(state, stroke, a)
        state = replace(state, strokes=state.strokes + 1, game_strokes=state.game_strokes + 1)
        step = finish_turn(
            self,
            state,
            striker.name,
            a.sanction,
            rulings,
            pend,
            opp_pocketed=a.opp_pocketed,
            stroke=record.stroke,
        )
        return step

    def apply_decision(self, state: KoronaState, decision: UmpireDecision) -> Step[KoronaState]:
        return apply_decision(self, state, decision)

    def next_constraints(self, state: KoronaState) -> Constraints:
        if state.match_winner is not None:
            return Constraints(None, None, ("match_over",))
        duties = (("break",) if state.game_strokes == 0 else ()) + (("place_discs",) if state.pending else ())
        return Constraints(
            state.turn,
            state.player(state.turn).seat,
            duties,
            {"game": state.game, "pending": [p.to_json() for p in state.pending]},
        )

    def strokes_played(self, state: KoronaState) -> int:
        return state.strokes

    def ruling_json(self, step: Step[KoronaState], *, stroke: int | None) -> dict[str, Any]:
        s = step.state
        main = _main_ruling(step.rulings)
        by = {"penalty": [], "restore": [], "off_board": []}  # type: dict[str, list[dict[str, Any]]]
        for p in s.pending:
            by[p.what].append(p.to_json())
        game_over = (
            None
            if step.board_over is None
            else {
                "winner": step.board_over.winner,
                "game": step.board_over.game,
                "law": step.board_over.law,
                "reason": str(step.board_over.reason),
            }
        )
        return {
            "stroke": stroke,
            "next": None if s.match_winner else s.turn,
            "side": None if s.match_winner else s.player(s.turn).seat,
            "law": main.law if main else None,
            "reason": str(main.reason) if main else None,
            "fouls": [r.to_json() for r in step.rulings if r.foul],
            "calls": [r.to_json() for r in step.rulings],
            "return": [p.to_json() for p in step.returns if p.law.startswith("korona §24")],
            "penalty": by["penalty"],
            "restore": by["restore"],
            "replace": by["off_board"],
            "dues": {p.name: p.dues for p in s.players},
            "on_board": {p.name: p.on_board for p in s.players},
            "queen": None,
            "game_over": game_over,
            "board_over": None if step.board_over is None else step.board_over.to_json(),
            "score": {
                "game": s.game,
                "board": s.game,
                "points": {p.name: p.games for p in s.players},
                "games": {p.name: p.games for p in s.players},
            },
            "match_over": None if step.match_over is None else {"winner": step.match_over},
        }

    def state_json(self, state: KoronaState) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in state.players],
            "seats": {p.seat: p.name for p in state.players},
            "turn": None if state.match_winner else state.turn,
            "breaker": state.breaker,
            "game_number": state.game,
            "game_strokes": state.game_strokes,
            "strokes": state.strokes,
            "score": {"games": {p.name: p.games for p in state.players}},
            "dues": {p.name: p.dues for p in state.players},
            "queen": None,
            "layout": [
                {"id": d.id, "kind": d.kind, "x_mm": round(d.x_mm, 1), "y_mm": round(d.y_mm, 1)}
                for d in state.layout
            ],
            "pending": [p.to_json() for p in state.pending],
            "results": [_game_json(r) for r in state.results],
            "match_over": state.match_winner,
        }

    def export_sol(self, state: KoronaState) -> dict[str, Any]:
        names = [p.name for p in state.players]
        return {
            "game": "korona",
            "format": self.format.name,
            "players": names,
            "winner": state.match_winner,
            "score": {p.name: p.games for p in state.players},
            "games": [_game_json(r) for r in state.results],
        }

    # -- stroke helpers -----------------------------------------------------------------------
    def _count(
        self, state: KoronaState, striker: PlayerState, a: Assessment, record: StrokeRecord
    ) -> KoronaState:
        opp = state.other(striker.name)
        if a.own_pocketed > striker.on_board or a.opp_pocketed > opp.on_board:
            raise RuleError(
                f"stroke record {record.stroke}: more discs pocketed than the engine counts on "
                f"the board ({striker.colour} {striker.on_board}, {opp.colour} {opp.on_board})"
            )
        state = state.with_player(replace(striker, on_board=striker.on_board - a.own_pocketed))
        return state.with_player(replace(opp, on_board=opp.on_board - a.opp_pocketed))

    def _put_back(
        self, state: KoronaState, stroke: KoronaStroke, a: Assessment
    ) -> tuple[KoronaState, list[Pending]]:
        owner = {p.colour: p.name for p in state.players}
        gone = {g.id for g in (*stroke.pocketed, *stroke.off_board) if g.id is not None}
        layout = layout_after(state.layout, stroke.after, gone)
        layout, pend = place_restores(layout, a.restores, self.geometry, owner)
        layout, more = place_off_board(layout, a.to_centre, self.geometry, owner)
        return replace(state, layout=layout), pend + more


def _game_json(r: GameRecord) -> dict[str, Any]:
    return {
        "game": r.game,
        "winner": r.winner,
        "law": r.law,
        "reason": r.reason,
        "loser_discs": r.loser_discs,
    }


def _main_ruling(rulings: tuple[Ruling, ...]) -> Ruling | None:
    """The decision to headline: the most severe call (a won game above the calls that cost
    nothing), the first of equals."""
    if not rulings:
        return None
    return max(
        rulings,
        key=lambda r: (KoronaReason(r.reason).sanction.rank, r.reason is R.GAME_WON, -rulings.index(r)),
    )


def finish_turn(
    engine: KoronaRules,
    state: KoronaState,
    name: str,
    sanction: Sanction,
    rulings: list[Ruling],
    pend: list[Pending],
    *,
    opp_pocketed: int = 0,
    stroke: int | None = None,
) -> Step[KoronaState]:
    """Apply the sanction of the player on turn `name`, place debts, end the game or pass the turn."""
    g = engine.geometry
    if sanction is Sanction.LOSE_MATCH:
        return end_game(engine, state, state.other(name).name, rulings, pend, match=True)
    if sanction is Sanction.LOSE_GAME:
        return end_game(engine, state, state.other(name).name, rulings, pend)
    if sanction is Sanction.PENALTY:  # §24.2: one penalty disc per stroke, however many offences
        p = state.player(name)
        state = state.with_player(replace(p, dues=p.dues + 1))
    opp = state.other(name)
    if opp_pocketed and opp.dues:  # §24.5
        state, more = place_dues(state, opp, g, "korona §24.5")
        pend += more
    keeps = all(KoronaReason(r.reason).sanction is Sanction.NONE for r in rulings) and bool(rulings)
    striker = state.player(name)
    if not keeps or striker.on_board == 0:  # §24.6: when the turn ends, or at once after all 8
        state, more = place_dues(state, striker, g, "korona §24.3")
        pend += more
    winner = _finished(state, name)
    if winner is not None:
        win = Ruling(
            R.GAME_WON,
            R.GAME_WON.law,
            (stroke_event_id(stroke),) if stroke is not None else (),
            winner,
            False,
        )
        return end_game(engine, state, winner, [*rulings, win], pend)
    state = replace(state, pending=tuple(pend))
    if not keeps:
        state = pass_turn(state, name)
    return Step(state, tuple(rulings), _placements(pend))


def _finished(state: KoronaState, striker: str) -> str | None:
    for p in (state.player(striker), state.other(striker)):
        if p.on_board == 0 and p.dues == 0:
            return p.name
    return None


def pass_turn(state: KoronaState, name: str) -> KoronaState:
    """The turn goes from `name` to the opponent, unless the opponent must sit one out (§24.8)."""
    nxt = state.other(name)
    if nxt.skip_next:
        return replace(state.with_player(replace(nxt, skip_next=False)), turn=name)
    return replace(state, turn=nxt.name)


def _placements(pend: list[Pending]) -> tuple[Placement, ...]:
    return tuple(Placement(p.kind, 1, "umpire", None, p.law, p.spot_mm) for p in pend)


def end_game(
    engine: KoronaRules,
    state: KoronaState,
    winner: str,
    rulings: list[Ruling],
    pend: list[Pending],
    *,
    match: bool = False,
) -> Step[KoronaState]:
    """Credit `winner` with the game (all remaining games when `match`) and set up the next."""
    fmt = engine.format
    w = state.player(winner)
    loser = state.other(winner)
    main = _main_ruling(tuple(rulings))
    law = main.law if main else R.GAME_WON.law
    reason = main.reason if main else R.GAME_WON
    record = GameRecord(state.game, winner, law, str(reason), loser.on_board)
    games = fmt.games_to_win if match else w.games + 1
    state = replace(state.with_player(replace(w, games=games)), results=(*state.results, record))
    result = BoardResult(winner, 1, loser.on_board, 0, None, None, state.game, 1, state.breaker, law, reason)
    # The next game starts from a fresh set-up, so nothing from the last stroke is put back.
    if games >= fmt.games_to_win:
        return Step(replace(state, match_winner=winner, pending=()), tuple(rulings), (), result, winner)
    return Step(_next_game(engine, state), tuple(rulings), (), result, None)


def _next_game(engine: KoronaRules, state: KoronaState) -> KoronaState:
    fmt = engine.format
    a, b = state.players
    if fmt.swap_seats:
        a, b = replace(a, seat=b.seat), replace(b, seat=a.seat)
    a = replace(a, on_board=DISCS_PER_PLAYER, dues=0, skip_next=False)
    players = (a, replace(b, on_board=DISCS_PER_PLAYER, dues=0, skip_next=False))
    breaker = state.other(state.breaker).name if fmt.alternate_break else state.breaker
    return replace(
        state,
        players=players,
        turn=breaker,
        breaker=breaker,
        game=state.game + 1,
        game_strokes=0,
        pending=(),
        layout=initial_layout(players, engine.geometry),
    )
