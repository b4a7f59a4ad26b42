"""HTTP routes: read endpoints (public) and umpire actions (bearer token).

Routes translate requests into `Table` calls and domain dicts into response models; they never
raise `HTTPException`: domain errors (`TrackerError` subclasses) are mapped to statuses by the
one handler in `service.app`.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from service.errors import AuthError, NotFoundError
from service.schemas import (
    ActionPublic,
    BoardPublic,
    ConcedeCreate,
    CorrectionCreate,
    DecisionCreate,
    EndCreate,
    FoulCreate,
    IngestCreate,
    MatchPublic,
    ReviewDecisionCreate,
    ReviewPublic,
    SheetLinePublic,
    StartMatchCreate,
    StatePublic,
    StrokeCreate,
)
from service.settings import Settings, get_settings
from service.table import Table
from tracker.errors import RuleError
from tracker.specs import default_equipment, load_board

__all__ = ["router", "get_table", "require_umpire", "token_ok"]

_bearer = HTTPBearer(auto_error=False, description="the umpire token printed at start-up")


def get_table(request: Request) -> Table:
    """The app's `Table` (made at start-up)."""
    return request.app.state.table  # type: ignore[no-any-return]


def token_ok(given: str | None, settings: Settings) -> bool:
    """True if `given` is the umpire token (constant-time comparison)."""
    return bool(given) and bool(settings.token) and hmac.compare_digest(str(given), settings.token)


def require_umpire(
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    settings: Annotated[Settings, Depends(get_settings)],
) -> None:
    """Dependency of every umpire action: `Authorization: Bearer <token>`."""
    if creds is None or not token_ok(creds.credentials, settings):
        raise AuthError(
            "umpire actions need 'Authorization: Bearer <token>' with the token printed at start-up"
        )


TableDep = Annotated[Table, Depends(get_table)]
router = APIRouter(prefix="/api")
umpire = APIRouter(prefix="/umpire", tags=["umpire"], dependencies=[Depends(require_umpire)])


# -- reads ---------------------------------------------------------------------------------------
@router.get("/state", response_model=StatePublic, tags=["read"])
def read_state(table: TableDep) -> dict[str, Any]:
    """Current state: players, score, turn, dues, queen, open review, live disc positions, camera."""
    return table.state()


@router.get("/events", tags=["read"])
def read_events(
    table: TableDep,
    after: Annotated[int, Query(ge=0, le=2**62, description="only events with a larger id")] = 0,
    limit: Annotated[int, Query(ge=1, le=10000)] = 1000,
    match: Annotated[int | None, Query(ge=1, le=2**62, description="only this match's events")] = None,
) -> list[dict[str, Any]]:
    """The camera event log (contract-1 events with `id`, `match`, `captured_at`), oldest first."""
    return table.store.events(match_id=match, after_id=after, limit=limit)


@router.get("/matches", response_model=list[MatchPublic], tags=["read"])
def read_matches(table: TableDep) -> list[MatchPublic]:
    """Every match in the log."""
    return [MatchPublic.from_domain(m, table.store.players(m.id)) for m in table.store.matches()]


@router.get("/matches/{match_id}", tags=["read"])
def read_match(table: TableDep, match_id: int) -> dict[str, Any]:
    """One match rebuilt from its log: players, rules state (boards played, score) and its sheet."""
    summary = table.match_summary(match_id)
    if summary is None:
        raise NotFoundError(f"no match {match_id}")
    return summary


@router.get("/matches/{match_id}/log", tags=["read"])
def read_match_log(table: TableDep, match_id: int) -> list[dict[str, Any]]:
    """A match's raw log entries (what the state is rebuilt from)."""
    if match_id not in {m.id for m in table.store.matches()}:
        raise NotFoundError(f"no match {match_id}")
    return [
        {"seq": e.seq, "kind": e.kind, "body": e.body, "created_at": e.created_at}
        for e in table.store.entries(match_id)
    ]


@router.get("/sheet", response_model=list[SheetLinePublic], tags=["read"])
def read_sheet(table: TableDep) -> list[dict[str, Any]]:
    """The current match sheet: every applied stroke and decision with its ruling."""
    return table.sheet()


@router.get("/reviews", response_model=list[ReviewPublic], tags=["read"])
def read_reviews(
    table: TableDep, match: Annotated[int | None, Query(ge=1, le=2**62)] = None
) -> list[dict[str, Any]]:
    """Review items of a match (default: the current one): flagged fouls and pocket calls."""
    return table.reviews(match)


@router.get("/board", response_model=BoardPublic, tags=["read"])
def read_board(table: TableDep) -> BoardPublic:
    """Geometry of the board for drawing (board mm)."""
    return BoardPublic.from_domain(load_board(table.game), default_equipment(table.game))


# -- umpire actions ------------------------------------------------------------------------------
def _done(table: Table, result: Any, seq: int | None = None) -> ActionPublic:
    return ActionPublic.from_domain(seq, result, table.state())


def _last_seq(table: Table) -> int | None:
    return table.book.last_seq() if table.book is not None else None


@umpire.post("/start_match", response_model=ActionPublic)
def start_match(table: TableDep, body: StartMatchCreate) -> ActionPublic:
    """Start a match (players by seat, who breaks)."""
    table.start_match(body.to_domain(), rules_format=body.format, review_fouls=body.review_fouls)
    return _done(table, None, _last_seq(table))


def _decide(table: Table, decision: str, body: ReviewDecisionCreate) -> ActionPublic:
    book = table.book
    if book is None:
        raise RuleError("no match in progress")
    head = book.head_flagged()
    reviews = {r["id"]: r for r in table.reviews()}
    if body.review is not None:
        item = reviews.get(body.review)
        if item is None or item["kind"] != "foul":
            raise NotFoundError(f"no flagged foul with review id {body.review}")
        target = item["seq"]
    elif head is None:
        raise RuleError("no flagged foul is waiting for review")
    else:
        target = head
    review_id = body.review if body.review is not None else table._review_id_for(target)
    result = table.act("review", body.to_domain(decision, target, review_id))
    return _done(table, result, _last_seq(table))


@umpire.post("/confirm", response_model=ActionPublic)
def confirm(table: TableDep, body: ReviewDecisionCreate) -> ActionPublic:
    """Confirm the flagged foul: the stroke is applied as the camera saw it."""
    return _decide(table, "confirm", body)


@umpire.post("/reject", response_model=ActionPublic)
def reject(table: TableDep, body: ReviewDecisionCreate) -> ActionPublic:
    """Reject the flagged foul: the stroke is applied without the facts behind the foul."""
    return _decide(table, "reject", body)


@umpire.post("/foul", response_model=ActionPublic)
def enter_foul(table: TableDep, body: FoulCreate) -> ActionPublic:
    """Enter a foul the camera cannot see."""
    return _done(table, table.act("umpire", body.to_domain()), _last_seq(table))


@umpire.post("/correct", response_model=ActionPublic)
def correct(table: TableDep, body: CorrectionCreate) -> ActionPublic:
    """Correct a camera stroke (e.g. which coin went in); it and later strokes are re-ruled."""
    return _done(table, table.act("correct", body.to_domain()), _last_seq(table))


@umpire.post("/stroke", response_model=ActionPublic)
def enter_stroke(table: TableDep, body: StrokeCreate) -> ActionPublic:
    """Enter a stroke by hand (contract-2 stroke record)."""
    return _done(table, table.act("stroke", body.to_domain()), _last_seq(table))


@umpire.post("/undo", response_model=ActionPublic)
def undo(table: TableDep) -> ActionPublic:
    """Take back the last applied stroke or decision."""
    return _done(table, table.act("undo", {}), _last_seq(table))


@umpire.post("/end_board", response_model=ActionPublic)
def end_board(table: TableDep, body: EndCreate) -> ActionPublic:
    """End the current board against a player (rules decision `lose_board`)."""
    return _done(table, table.act("umpire", body.to_domain("lose_board")), _last_seq(table))


@umpire.post("/end_match", response_model=ActionPublic)
def end_match(table: TableDep, body: EndCreate) -> ActionPublic:
    """End the match against a player (rules decision `lose_match`)."""
    return _done(table, table.act("umpire", body.to_domain("lose_match")), _last_seq(table))


@umpire.post("/concede", response_model=ActionPublic)
def concede(table: TableDep, body: ConcedeCreate) -> ActionPublic:
    """A player concedes."""
    return _done(table, table.act("umpire", body.to_domain()), _last_seq(table))


@umpire.post("/decision", response_model=ActionPublic)
def decision(table: TableDep, body: DecisionCreate) -> ActionPublic:
    """Any other decision the rules engine understands, as `{"umpire": action, **params}`."""
    if body.action in ("start_match",):
        raise RuleError("use /api/umpire/start_match to start a match")
    return _done(table, table.act("umpire", body.to_domain()), _last_seq(table))


@umpire.post("/ingest", response_model=list[int])
def ingest(table: TableDep, body: IngestCreate) -> list[int]:
    """Feed contract-1 camera events (e.g. from `boardtrack track --jsonl`); returns new log seqs."""
    return table.ingest(body.to_domain(), body.captured_at)


router.include_router(umpire, prefix="")
