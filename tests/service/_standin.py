"""A tiny rules session standing in for `rules.RulesSession` where a test needs no real laws.

Points: one per coin pocketed by the side to play; a pocketed striker is a foul that costs a
point and passes the turn. Contract-2 rulings and a `state()` with seats and turn.
"""

from __future__ import annotations

from typing import Any

from tracker.errors import RuleError


class StandInRules:
    def __init__(self, game: str = "carrom", *, format: str = "default") -> None:
        self.seats = {"S": "A", "N": "B"}
        self.turn = "A"
        self.points = {"A": 0, "B": 0}

    def apply(self, line: dict[str, Any]) -> dict[str, Any]:
        fouls: list[dict[str, Any]] = []
        if isinstance(line.get("umpire"), str):
            if line["umpire"] == "start_match":
                self.seats = dict(line["players"])
                self.turn = line["first_break"]
                self.points = {n: 0 for n in self.seats.values()}
            elif line["umpire"] == "foul":
                if line.get("player") not in self.points:
                    raise RuleError(f"foul: unknown player {line.get('player')!r}")
                self.points[line["player"]] -= 1
                fouls.append({"law": "ICF §36a", "reason": "technical_foul"})
            else:
                raise RuleError(f"unknown umpire decision {line['umpire']!r}")
        else:
            if line.get("side") not in self.seats:
                raise RuleError(f"stroke record: 'side' must be a seat, got {line.get('side')!r}")
            player = self.seats[line["side"]]
            self.points[player] += len(line.get("pocketed") or [])
            if line.get("striker_pocketed"):
                self.points[player] -= 1
                fouls.append({"law": "ICF §45a", "reason": "striker_pocketed"})
            if fouls or not line.get("pocketed"):
                self.turn = next(n for n in self.seats.values() if n != player)
        return {
            "stroke": line.get("stroke"),
            "next": self.turn,
            "fouls": fouls,
            "return": [],
            "dues": {n: 0 for n in self.points},
            "queen": {"state": "on_board", "by": None},
            "board_over": None,
            "match_over": None,
            "score": {
                "board": 1,
                "game": 1,
                "points": dict(self.points),
                "games": {n: 0 for n in self.points},
            },
        }

    def state(self) -> dict[str, Any]:
        return {"seats": dict(self.seats), "turn": self.turn, "points": dict(self.points)}


def standin_stroke(events: list[dict[str, Any]], side: str, before: list[dict[str, Any]]) -> dict[str, Any]:
    """A stroke record from contract-1 events (pockets and the striker only)."""
    pocketed = [
        {"kind": e["disc"]["kind"], "pocket": e.get("pocket")}
        for e in events
        if e.get("type") == "pocketed" and e["disc"]["kind"] != "striker"
    ]
    striker = any(e.get("type") == "pocketed" and e["disc"]["kind"] == "striker" for e in events)
    end = next((e for e in events if e.get("type") == "shot_end"), {})
    return {
        "stroke": int(end.get("shot") or 0),
        "side": side,
        "pocketed": pocketed,
        "off_board": [],
        "striker_pocketed": striker,
        "striker_off_board": False,
        "first_contact": end.get("first_contact"),
        "cushion_before_contact": False,
        "before": before,
        "after": end.get("rest", []),
    }


def shot_events(
    shot: int,
    t0_s: float,
    *,
    pocketed: tuple[str, ...] = (),
    striker: bool = False,
    rest: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Contract-1 events of one shot starting at `t0_s`: coins of `pocketed` kinds go into NE."""
    fps = 30
    out: list[dict[str, Any]] = [{"type": "shot_start", "t": t0_s, "frame": int(t0_s * fps), "shot": shot}]
    kinds = [*pocketed, *(["striker"] if striker else [])]
    for i, kind in enumerate(kinds):
        t = t0_s + 0.3 + 0.1 * i
        out.append(
            {
                "type": "pocketed",
                "t": t,
                "frame": int(t * fps),
                "shot": shot,
                "disc": {"id": 100 * shot + i, "kind": kind},
                "pocket": "NE",
            }
        )
    t_end = t0_s + 1.0
    out.append(
        {
            "type": "shot_end",
            "t": t_end,
            "frame": int(t_end * fps),
            "shot": shot,
            "first_contact": "white",
            "rest": rest or [],
        }
    )
    return out


def standin_factory(game: str, fmt: str) -> StandInRules:
    return StandInRules(game, format=fmt)
