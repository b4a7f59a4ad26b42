"""Configuration of the table service, from the command line, environment or a `.env` file.

Every field can be set as an environment variable with the `BOARDTRACK_` prefix
(`BOARDTRACK_TOKEN=...`, `BOARDTRACK_DB=...`). The app reads its settings through the
cached `get_settings()` dependency; tests override it with
`app.dependency_overrides[get_settings] = lambda: Settings(...)` or pass settings to
`create_app(settings)` directly.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "get_settings"]


class Settings(BaseSettings):
    """Settings of one table service (one board, one camera, one match log).

    Attributes:
        source: where frames come from: a video file, a camera index (`0`) or device
            (`/dev/video0`), a network stream (`rtsp://...`), `picamera`, `synthetic`, or `none`
            (no camera: scoring by the umpire console and `POST /api/ingest` only).
        game: `carrom` or `korona`.
        rules_format: the rules engine's format name (e.g. `default`).
        calibration: a saved board calibration (JSON); without it the board is found in the
            first frames.
        db: the SQLite match log (created if missing).
        clip_dir: where foul/pocket review clips are written (default: next to the db).
        host, port: where the HTTP server listens.
        token: the umpire's bearer token; empty means "generate one at start-up".
        fast: play a video file as fast as possible instead of at its own frame rate.
        loop: restart a video file at its end (demo mode).
        review_fouls: hold strokes with a camera-detected foul until the umpire confirms or
            rejects them (otherwise they are applied at once and can be corrected later).
        ring_s: seconds of frames kept in memory for review clips.
        clip_before_s, clip_after_s: clip span around a foul or pocket event, seconds.
        ring_width_px: frames are downscaled to this width (px) and JPEG-encoded in the ring.
        client_queue: messages buffered per WebSocket client before old frame updates are
            skipped.
        start_players: "A,B" starts a match between A (seat S, breaks) and B (seat N) at start-up
            if the log holds none (demo mode).
        synthetic_shots, synthetic_seed: what the `synthetic` source plays.
    """

    model_config = SettingsConfigDict(env_prefix="BOARDTRACK_", env_file=".env", extra="ignore")

    source: str = "none"
    game: str = "carrom"
    rules_format: str = "default"
    calibration: Path | None = None
    db: Path = Path("boardtrack.db")
    clip_dir: Path | None = None
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    token: str = ""
    fast: bool = False
    loop: bool = False
    review_fouls: bool = True
    ring_s: float = Field(8.0, gt=0, le=60)
    clip_before_s: float = Field(3.0, ge=0, le=30)
    clip_after_s: float = Field(1.0, ge=0, le=10)
    ring_width_px: int = Field(640, ge=64, le=3840)
    client_queue: int = Field(240, ge=4, le=10000)
    start_players: str = ""
    synthetic_shots: int = Field(6, ge=1, le=200)
    synthetic_seed: int = 1

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if value not in ("carrom", "korona"):
            raise ValueError(f"unknown game {value!r}; expected carrom or korona")
        return value

    def start_line(self) -> dict[str, object] | None:
        """The start-match line named by `start_players`, or None."""
        names = [n.strip() for n in self.start_players.split(",") if n.strip()]
        if len(names) != 2:
            return None
        return {"umpire": "start_match", "players": {"S": names[0], "N": names[1]}, "first_break": names[0]}

    def effective_token(self) -> str:
        """The configured token, or a random one (callers store it; see `with_token`)."""
        return self.token or secrets.token_urlsafe(16)

    def with_token(self) -> Settings:
        """A copy whose `token` is set (generated once if empty)."""
        return self if self.token else self.model_copy(update={"token": self.effective_token()})

    def clips_path(self) -> Path:
        """The folder of review clips: `clip_dir`, or `<db stem>-clips/` next to the db."""
        return self.clip_dir if self.clip_dir is not None else self.db.with_name(self.db.stem + "-clips")


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (environment and `.env`), with a token generated once."""
    return Settings().with_token()
