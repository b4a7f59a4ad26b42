"""Request and response bodies of the HTTP API (the only pydantic models of boardtrack).

Each umpire request converts to a domain log entry with `to_domain()`; responses are built from
domain dicts with `from_domain()`. Rules lines follow contract 2 (`{"umpire": action, ...}`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionPublic",
    "BoardPublic",
    "ConcedeCreate",
    "CorrectionCreate",
    "DecisionCreate",
    "EndCreate",
    "FoulCreate",
    "IngestCreate",
    "MatchPublic",
    "ReviewDecisionCreate",
    "ReviewPublic",
    "SheetLinePublic",
    "StartMatchCreate",
    "StatePublic",
    "StrokeCreate",
]

# the largest id, log seq, frame or shot number the API takes (SQLite stores 64-bit integers;
# no match comes near this)
MAX_ID = 2**31 - 1

Name = Annotated[str, Field(min_length=1, max_length=60)]
Seat = Literal["S", "N", "E", "W"]


class StartMatchCreate(BaseModel):
    """Start a match: who sits where and who breaks first."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"players": {"S": "Asha", "N": "Bilal"}, "first_break": "Asha"}]},
    )

    players: dict[Seat, Name] = Field(min_length=2, max_length=4, description="seat -> player name")
    first_break: Name = Field(description="the player who breaks the first board")
    format: str | None = Field(None, max_length=40, description="rules format (default: the service's)")
    review_fouls: bool | None = Field(
        None, description="hold camera fouls for review (default: the service's)"
    )

    def to_domain(self) -> dict[str, Any]:
        return {"umpire": "start_match", "players": dict(self.players), "first_break": self.first_break}


class ReviewDecisionCreate(BaseModel):
    """Confirm or reject the flagged foul under review (the oldest open one by default)."""

    model_config = ConfigDict(extra="forbid")

    review: int | None = Field(None, ge=1, le=MAX_ID, description="review item id; default: the one under review")
    patch: dict[str, Any] | None = Field(None, description="stroke-record fields to correct at the same time")

    def to_domain(self, decision: str, target: int, review_id: int | None) -> dict[str, Any]:
        return {"target": target, "decision": decision, "review": review_id, "patch": self.patch or {}}


class FoulCreate(BaseModel):
    """A foul the camera cannot see, entered by the umpire.

    Carrom: `kind` "foul" (ICF §37a, one penalty coin, turn lost) or "technical_foul" (ICF §36,
    penalty coin, the player plays on). Korona: `kind` "foul" with `reason` a korona reason code
    (e.g. "touched_disc").
    """

    model_config = ConfigDict(extra="forbid")

    player: Name = Field(description="the player who committed the foul")
    kind: Literal["foul", "technical_foul"] = "foul"
    reason: str | None = Field(None, min_length=1, max_length=60, description="reason code (korona)")
    law: str | None = Field(None, min_length=1, max_length=60, description='e.g. "ICF §49"')

    def to_domain(self) -> dict[str, Any]:
        line: dict[str, Any] = {"umpire": self.kind, "player": self.player}
        line.update({k: v for k, v in (("reason", self.reason), ("law", self.law)) if v})
        return line


class ConcedeCreate(BaseModel):
    """A player concedes the board, the game or the match (ICF §100)."""

    model_config = ConfigDict(extra="forbid")

    player: Name
    what: Literal["board", "game", "match"] = "board"

    def to_domain(self) -> dict[str, Any]:
        return {"umpire": "concede", "player": self.player, "what": self.what}


class EndCreate(BaseModel):
    """The umpire ends the board or the match against a player (carrom: lose_board / lose_match).

    `reason` for a board: "left_seat", "appeal" or "disturbed" (ICF §64, §82b, §87b).
    """

    model_config = ConfigDict(extra="forbid")

    player: Name = Field(description="the player who loses the board or match")
    reason: str | None = Field(None, min_length=1, max_length=40)
    law: str | None = Field(None, min_length=1, max_length=60)

    def to_domain(self, action: str) -> dict[str, Any]:
        return {"umpire": action, **{k: v for k, v in self.model_dump().items() if v is not None}}


class DecisionCreate(BaseModel):
    """Any other rules-engine decision line, passed through as `{"umpire": action, **params}`."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(min_length=1, max_length=40, pattern=r"^[a-z_]+$")
    params: dict[str, Any] = Field(default_factory=dict)

    def to_domain(self) -> dict[str, Any]:
        return {**self.params, "umpire": self.action}


class CorrectionCreate(BaseModel):
    """Correct a camera stroke: replace fields of its stroke record; it is re-ruled."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"target": 7, "patch": {"pocketed": [{"kind": "black", "pocket": "NE"}]}}]
        },
    )

    target: int = Field(ge=1, le=MAX_ID, description="log seq of the stroke to correct")
    patch: dict[str, Any] = Field(description="contract-2 stroke-record fields to replace")

    def to_domain(self) -> dict[str, Any]:
        return {"target": self.target, "patch": self.patch}


class StrokeCreate(BaseModel):
    """A stroke entered by hand (or by another tracker), in contract-2 form."""

    model_config = ConfigDict(extra="allow")

    side: Seat | None = None
    pocketed: list[dict[str, Any]] = Field(default_factory=list, max_length=30)
    off_board: list[dict[str, Any]] = Field(default_factory=list, max_length=30)
    striker_pocketed: bool = False
    striker_off_board: bool = False
    first_contact: str | None = Field(None, max_length=20)
    cushion_before_contact: bool = False

    def to_domain(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class DiscRef(BaseModel):
    """A disc named in an event: its track id and kind."""

    model_config = ConfigDict(extra="allow")

    id: int | None = Field(None, ge=-MAX_ID, le=MAX_ID)
    kind: Literal["white", "black", "queen", "striker"]


class EventIn(BaseModel):
    """One contract-1 event (`shot_start`, `contact`, `pocketed`, `off_board`, `placed`, `shot_end`).

    Extra keys (contact partners, rest positions, korona stroke facts) are kept as they are.
    """

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)

    type: str = Field(min_length=1, max_length=40)
    t: float = Field(ge=0, description="stream time of the event, s")
    frame: int | None = Field(None, ge=0, le=MAX_ID)
    shot: int | None = Field(None, ge=0, le=MAX_ID)
    disc: DiscRef | None = None
    pocket: Literal["NW", "NE", "SE", "SW"] | None = None
    rest: list[dict[str, Any]] | None = Field(None, max_length=64)


class IngestCreate(BaseModel):
    """Contract-1 events from an external tracker, treated like the service's own camera."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    events: list[EventIn] = Field(max_length=5000)
    captured_at: float | None = Field(None, description="wall-clock capture time (s since the epoch)")

    def to_domain(self) -> list[dict[str, Any]]:
        return [e.model_dump(exclude_unset=True) for e in self.events]


class ActionPublic(BaseModel):
    """Result of an umpire action: the log seq, rulings announced, and the new state."""

    seq: int | None = None
    applied: list[dict[str, Any]] = []
    flagged: int | None = None
    voided: list[int] = []
    state: dict[str, Any]

    @classmethod
    def from_domain(cls, seq: int | None, result: Any, state: dict[str, Any]) -> ActionPublic:
        applied = [{"seq": a.seq, "ruling": a.ruling} for a in getattr(result, "applied", [])]
        flagged = result.flagged[0] if getattr(result, "flagged", None) else None
        return cls(
            seq=seq, applied=applied, flagged=flagged, voided=list(getattr(result, "voided", [])), state=state
        )


class StatePublic(BaseModel):
    """The current state: match, rules state (score, turn, dues, queen), open review, camera."""

    model_config = ConfigDict(extra="allow")

    type: str = "state"
    game: str
    match: dict[str, Any] | None
    rules: dict[str, Any] | None
    last_ruling: dict[str, Any] | None
    review: int | None
    queued: int
    refused: list[dict[str, Any]] = Field(default=[], description="latest log entries the rules refused")
    source: dict[str, Any]
    discs: list[list[Any]] = []


class MatchPublic(BaseModel):
    id: int
    game: str
    format: str
    review_fouls: bool
    players: dict[str, str]
    start: dict[str, Any]
    created_at: float

    @classmethod
    def from_domain(cls, row: Any, players: dict[str, str]) -> MatchPublic:
        return cls(
            id=row.id,
            game=row.game,
            format=row.format,
            review_fouls=row.review_fouls,
            players=players,
            start=row.start,
            created_at=row.created_at,
        )


class ReviewPublic(BaseModel):
    """A review item: a flagged foul (with provisional ruling and pre-shot ghost) or a pocket call."""

    model_config = ConfigDict(extra="allow")

    id: int
    match: int
    seq: int | None
    kind: str
    status: str
    clip: str | None
    created_at: float


class SheetLinePublic(BaseModel):
    seq: int
    line: dict[str, Any]
    ruling: dict[str, Any]


class BoardPublic(BaseModel):
    """Board geometry for drawing (board mm, origin at the centre, y to the image bottom)."""

    game: str
    size_mm: float
    pockets_mm: list[list[float]]
    pocket_radius_mm: float
    centre_circle_mm: float
    outer_circle_mm: float
    base_line_length_mm: float
    base_line_outer_from_edge_mm: float
    base_line_gap_mm: float
    base_circle_mm: float
    rail_zone_depth_mm: float
    rail_zone_length_mm: float
    man_radius_mm: float
    striker_radius_mm: float

    @classmethod
    def from_domain(cls, board: Any, equipment: Any) -> BoardPublic:
        return cls(
            game=str(board.game),
            size_mm=board.size_mm,
            pockets_mm=board.pockets_mm.tolist(),
            pocket_radius_mm=board.pocket_radius_mm,
            centre_circle_mm=board.centre_circle_diameter_mm,
            outer_circle_mm=board.outer_circle_diameter_mm,
            base_line_length_mm=board.base_line_length_mm,
            base_line_outer_from_edge_mm=board.base_line_outer_from_edge_mm,
            base_line_gap_mm=board.base_line_gap_mm,
            base_circle_mm=board.base_circle_diameter_mm,
            rail_zone_depth_mm=board.rail_zone_depth_mm,
            rail_zone_length_mm=board.rail_zone_length_mm,
            man_radius_mm=equipment.man_diameter_mm / 2,
            striker_radius_mm=equipment.striker_diameter_mm / 2,
        )
