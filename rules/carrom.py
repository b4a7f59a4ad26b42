"""The carrom rules engine (ICF laws, ../shared/rules/carrom-icf-it.rst).

Implemented (decided from the stroke record and the umpire's calls):
    §13, §15-16 first break and colours; §17-18 break made, missed (3 tries), passed, void (§18c);
    §20 break before "go" (umpire call); §21 turn kept while pocketing own coins or the queen;
    §22 break alternation; §24 stroke from the side of the player not on turn (board lost);
    §25-28 board scoring (queen 3 below the cut-off, 1 when alone, cap 12); §29-30 game and match;
    §31, §33 change of sides; §36 technical foul; §37 foul (umpire), improper stroke;
    §38 coins and queen off the board and where they go back; §45-50 striker pocketed, improper
    strokes with own/opponent coins; §45b, §51a, §56 dues waiting and paid when available;
    §53, §60 dues waived; §64 leaving the seat; §65-71 the queen: right to pocket it, cover,
    queen before an own coin, while owing a due, with the striker, at the break, cover failed,
    cover attempts with the striker, improper queen strokes; §72-73 every ending with the queen;
    §77 striker off the board; §82b, §87b board lost (umpire); §86a turn lost after opponent's
    coins; §98, §101, §103 board replayed (umpire); §100 concession; §104 match lost (umpire).

Not implemented (cannot be decided from a stroke record, or no effect on the state):
    §1-12 playing position and how to strike (the umpire calls "improper" or "foul"); §14 setting
    the coins; §19, §23, §34, §61, §85, §99 time limits; §32, §92 doubles (singles only);
    §39 coins bouncing back onto the board (the umpire replaces them: send a correction);
    §40-44, §74 coins on edge, overlapping, on the rim (the tracker reports the final pocketing);
    §52, §54 postponed placement for lack of space; §55, §57-59, §62-63, §75 how penalty coins are
    placed (umpire "foul" if wrong); §69 second sentence and §86b (an unnoticed fault that stands:
    the umpire withdraws the ruling with "undo" and re-enters the stroke with a correction);
    §76, §78-81, §83-84, §89-91, §93-97, §102 equipment, conduct, powder (umpire "foul");
    §105-112 protests; slams (glossary) have no scoring effect.

Umpire decisions (besides the session's start_match, undo, correct):
    {"umpire": "foul", "player": "A"}                      §37a: one penalty coin, turn lost if on turn
    {"umpire": "technical_foul", "player": "B"}            §36: one penalty coin, turn kept
    {"umpire": "waive_dues", "player": "A"}                §53, §60: every due of A cancelled
    {"umpire": "lose_board", "player": "A", "reason": "left_seat"|"appeal"|"disturbed"}  §64, §82b, §87b
    {"umpire": "concede", "player": "A", "what": "board"|"game"|"match"}                 §100
    {"umpire": "lose_match", "player": "A"}                §104
    {"umpire": "set_breaker", "player": "B"}               §13, §29b: before the break of a board
    {"umpire": "replay_board"}                             §98, §101, §103: the board starts again
    {"umpire": "set_seats", "players": {"S": "B", "N": "A"}}  §33c: seats put right
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.base import Constraints, Placement, RulesEngine, Ruling, Step, stroke_event_id
from rules.carrom_decisions import DECISIONS, finish_with
from rules.carrom_ending import EndFacts, find_ending, forfeit_ending
from rules.carrom_play import check_counts, play_break_attempt, play_early_break, settle_all_dues
from rules.carrom_predicates import event_ids, is_coin_touched, is_improper, is_striker_pocketed, pocketed_ids
from rules.carrom_reasons import FoulReason
from rules.carrom_state import COINS_PER_COLOUR, MatchState, QueenState, frozen_map, new_board
from rules.carrom_stroke import StrokeContext, assess_pocketing
from rules.export import sol_export
from rules.formats import CARROM_FORMATS, CarromFormat, parse_carrom_format
from rules.placement import centre_spots
from rules.records import MatchStart, StrokeRecord, UmpireDecision
from tracker.errors import RuleError

__all__ = ["CarromRules", "FoulReason"]


class CarromRules(RulesEngine[MatchState]):
    """ICF carrom, singles. See the module docstring for the articles covered."""

    game = "carrom"
    reasons = FoulReason
    decision_kinds = frozenset(DECISIONS)
    formats = CARROM_FORMATS
    format: CarromFormat

    @classmethod
    def resolve_format(cls, spec: str) -> CarromFormat:
        return parse_carrom_format(spec)

    # -- hooks ---------------------------------------------------------------------------------
    def initial_state(self, start: MatchStart) -> MatchState:
        if len(start.seats) != 2:
            raise RuleError("carrom: only singles are implemented (two players on opposite sides)")
        a, b = start.players
        return MatchState(
            players=(a, b), seats=frozen_map(start.seats), first_break=start.first_break,
            game=1, points=frozen_map({a: 0, b: 0}), games=frozen_map({a: 0, b: 0}),
            board=new_board(1, start.first_break, (a, b)),
        )

    def assess_stroke(self, state: MatchState, record: StrokeRecord) -> Step[MatchState]:
        if state.winner is not None:
            raise RuleError(f"stroke {record.stroke}: the match is over ({state.winner} won)")
        striker = state.seats.get(record.side)
        if striker is None:
            raise RuleError(f"stroke {record.stroke}: nobody sits at side {record.side} "
                            f"(seats: {', '.join(f'{s}={p}' for s, p in state.seats.items())})")
        check_counts(state.board, record)
        state = replace(state, strokes=state.strokes + 1).with_board(strokes=state.board.strokes + 1)
        if striker != state.board.turn:
            return self._out_of_turn(state, record, striker)
        state, early = self._technical_foul(state, record)
        if not state.board.broken and record.calls.early_break:
            step = play_early_break(state, record, self._spots)
        elif not state.board.broken and not is_coin_touched(record):
            step = play_break_attempt(state, record, self.format)
        else:
            step = self._play(state.with_board(broken=True, attempts=0), record)
        return replace(step, rulings=early.rulings + step.rulings, returns=early.returns + step.returns)

    @staticmethod
    def _technical_foul(state: MatchState, record: StrokeRecord) -> tuple[MatchState, Step[MatchState]]:
        """ICF §36a: a technical foul before this stroke; its penalty coin is placed first."""
        if not record.calls.technical_foul:
            return state, Step(state)
        ids, player = event_ids(record), state.board.turn
        dues = dict(state.board.dues)
        dues[player] += 1
        state, paid, notes = settle_all_dues(state.with_board(dues=frozen_map(dues)), ids, first=player)
        ruling = Ruling(FoulReason.TECHNICAL_FOUL, "ICF §36a", ids, player, True)
        return state, Step(state, (ruling, *notes), tuple(paid))

    def apply_decision(self, state: MatchState, decision: UmpireDecision) -> Step[MatchState]:
        handler = DECISIONS[decision.kind]
        return handler(state, decision, self.format)

    def next_constraints(self, state: MatchState) -> Constraints:
        if state.winner is not None:
            return Constraints(None, None, ("match_over",))
        b = state.board
        duties = []
        if not b.broken:
            duties.append("break")
        if b.queen is QueenState.PENDING:
            duties.append("cover_queen")
        return Constraints(b.turn, state.side_of(b.turn), tuple(duties),
                           {"colour": b.colour_of(b.turn), "break_attempts": b.attempts})

    def strokes_played(self, state: MatchState) -> int:
        return state.strokes

    # -- strokes -------------------------------------------------------------------------------
    def _out_of_turn(self, state: MatchState, record: StrokeRecord, striker: str) -> Step[MatchState]:
        """ICF §24: the player who struck out of turn loses the board (his coins and the queen)."""
        ids = event_ids(record)
        ruling = Ruling(FoulReason.OUT_OF_TURN, "ICF §24", ids, striker, True)
        ending = forfeit_ending(state, striker, FoulReason.OUT_OF_TURN)
        return finish_with(state, ending, self.format, ids, [ruling])

    def _context(self, state: MatchState, record: StrokeRecord) -> StrokeContext:
        b, player = state.board, state.board.turn
        own, opp = b.colour_of(player), b.colour_of(state.other(player))
        return StrokeContext(
            player=player, opponent=state.other(player),
            n_own=record.count_pocketed(own), n_opp=record.count_pocketed(opp),
            queen=record.count_pocketed("queen") > 0, striker=is_striker_pocketed(record),
            improper=is_improper(record), pending=b.queen is QueenState.PENDING and b.queen_by == player,
            all_own_on_board=b.on_board[own] == COINS_PER_COLOUR, due_before=b.dues[player] > 0,
            queen_state=b.queen, queen_by=b.queen_by, events=event_ids(record),
        )

    def _play(self, state: MatchState, record: StrokeRecord) -> Step[MatchState]:
        """A stroke after the break is made (the break stroke itself included)."""
        ids = event_ids(record)
        player = state.board.turn
        rulings: list[Ruling] = []
        returns: list[Placement] = []
        ctx = self._context(state, record)
        out = assess_pocketing(ctx)
        rulings += [replace(r, events=ids + pocketed_ids(record, "white", "black", "queen", "striker"))
                    for r in out.rulings]
        rulings += self._off_board_rulings(record, player)
        b = state.board
        own, opp = b.colour_of(player), b.colour_of(state.other(player))
        on_board = {own: b.on_board[own] - ctx.n_own + out.own_returned, opp: b.on_board[opp] - ctx.n_opp}
        facts = EndFacts(
            player=player, opponent=ctx.opponent, n_own=ctx.n_own, n_opp=ctx.n_opp, queen=ctx.queen,
            own_before=b.on_board[own], opp_before=b.on_board[opp], own_after=on_board[own],
            queen_before=b.queen, queen_by_before=b.queen_by,
            queen_after=out.queen, queen_by_after=out.queen_by,
            faulty=ctx.improper or ctx.striker, demanded=record.calls.demanded,
        )
        ending = find_ending(facts)
        if ending is not None:
            return finish_with(state, ending, self.format, ids, rulings)
        dues = dict(b.dues)
        dues[player] += out.new_dues
        next_player = player if out.keep_turn else ctx.opponent
        state = state.with_board(on_board=frozen_map(on_board), dues=frozen_map(dues), queen=out.queen,
                                 queen_by=out.queen_by, turn=next_player)
        returns = self._centre_returns(state, record, out.queen_returned) + returns
        if out.own_returned:
            returns.append(Placement(own, out.own_returned, "opponent", ctx.opponent, rulings[-1].law))
        state, paid, notes = settle_all_dues(state, ids, first=player)
        return Step(state, tuple(rulings + notes), tuple(returns + paid))

    @staticmethod
    def _off_board_rulings(record: StrokeRecord, player: str) -> list[Ruling]:
        out = []
        for i, kind in enumerate(record.off_board):
            reason = FoulReason.QUEEN_OFF_BOARD if kind == "queen" else FoulReason.COIN_OFF_BOARD
            ids = (stroke_event_id(record.stroke), stroke_event_id(record.stroke, "off_board", i))
            out.append(Ruling(reason, reason.law, ids, player, False))
        if record.striker_off_board:
            ids = (stroke_event_id(record.stroke), stroke_event_id(record.stroke, "striker"))
            out.append(Ruling(FoulReason.STRIKER_OFF_BOARD, "ICF §77", ids, player))
        return out

    def _centre_returns(self, state: MatchState, record: StrokeRecord, queen_back: bool) -> list[Placement]:
        """ICF §38, §66-67: the queen first, then the striker-player's coins, then the others."""
        player = state.board.turn  # on turn after the stroke: §38b-c place away from him
        striker_colour = state.board.colour_of(self._striker_of(state, record))
        kinds = ["queen"] * (int(queen_back) + record.count_off_board("queen"))
        kinds += [striker_colour] * record.count_off_board(striker_colour)
        other = "black" if striker_colour == "white" else "white"
        kinds += [other] * record.count_off_board(other)
        if not kinds:
            return []
        spots = self._spots(kinds, record, state.side_of(player))
        law = {"queen": "ICF §66"} if queen_back else {}
        return [Placement(k, 1, "umpire", None, law.get(k, "ICF §38") if i == 0 else "ICF §38", s)
                for i, (k, s) in enumerate(zip(kinds, spots, strict=True))]

    @staticmethod
    def _striker_of(state: MatchState, record: StrokeRecord) -> str:
        return state.seats[record.side]

    @staticmethod
    def _spots(kinds: list[str], record: StrokeRecord, side: str) -> list[tuple[float, float]]:
        discs = [(d.kind, d.x_mm, d.y_mm) for d in record.after]
        return centre_spots(kinds, discs, player_side=side)

    # -- output --------------------------------------------------------------------------------
    def ruling_json(self, step: Step[MatchState], *, stroke: int | None) -> dict[str, Any]:
        s, c = step.state, self.next_constraints(step.state)
        return {
            "stroke": stroke, "next": c.turn, "side": c.side,
            "fouls": [r.to_json() for r in step.rulings if r.foul],
            "rulings": [r.to_json() for r in step.rulings],
            "return": [p.to_json() for p in step.returns],
            **self._summary(s),
            "board_over": None if step.board_over is None else step.board_over.to_json(),
            "match_over": None if step.match_over is None else {"winner": step.match_over},
        }

    def _summary(self, s: MatchState) -> dict[str, Any]:
        b = s.board
        return {
            "dues": dict(b.dues),
            "queen": {"state": str(b.queen), "by": b.queen_by},
            "coins": dict(b.on_board),
            "colours": {p: b.colour_of(p) for p in s.players},
            "score": {"game": s.game, "board": b.number, "points": dict(s.points), "games": dict(s.games)},
        }

    def state_json(self, state: MatchState) -> dict[str, Any]:
        b = state.board
        return {
            "players": list(state.players), "seats": dict(state.seats), "first_break": state.first_break,
            "turn": None if state.winner else b.turn, "breaker": b.white, "broken": b.broken,
            "break_attempts": b.attempts, "board_strokes": b.strokes, "strokes": state.strokes,
            "extra_board": b.extra, **self._summary(state),
            "boards": [r.to_json() for r in state.results], "game_winners": list(state.game_winners),
            "winner": state.winner, "match_format": self.format.name,
        }

    def export_sol(self, state: MatchState) -> dict[str, Any]:
        return sol_export(state, self.format)
