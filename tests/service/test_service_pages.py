"""The overlay and umpire pages in a real headless Chromium (Debian's /usr/bin/chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.settings import Settings
from tests.service._standin import shot_events

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TOKEN = "page-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
START = {"players": {"S": "Asha", "N": "Bilal"}, "first_break": "Asha"}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests skipped: no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.mark.parametrize("game", ["carrom", "korona"])
def test_overlay_shows_the_score_after_strokes(tmp_path: Path, serve: Any, browser: Any, game: str) -> None:
    with serve(Settings(db=tmp_path / "m.db", token=TOKEN, game=game)) as base:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{base}/overlay")
        assert httpx.post(f"{base}/api/umpire/start_match", json=START, headers=AUTH).status_code == 200
        page.wait_for_function("document.getElementById('name-N').textContent === 'Bilal'", timeout=10000)
        assert page.locator("#player-S").get_attribute("class") == "player active"  # Asha breaks
        events = shot_events(1, 1.0, pocketed=("white",)) + shot_events(2, 3.0)
        httpx.post(f"{base}/api/umpire/ingest", json={"events": events}, headers=AUTH)
        page.wait_for_function(
            "document.getElementById('player-N').classList.contains('active')", timeout=10000
        )
        state = httpx.get(f"{base}/api/state").json()
        points = state["last_ruling"]["score"]["points"]
        assert page.locator("#points-S").text_content() == str(points["Asha"])
        assert page.locator("#board-no").text_content() == f"Board {state['last_ruling']['score']['board']}"
        assert page.locator("#miniboard").is_visible()
        page.close()


def test_overlay_score_changes_when_a_board_is_conceded(tmp_path: Path, serve: Any, browser: Any) -> None:
    with serve(Settings(db=tmp_path / "m.db", token=TOKEN)) as base:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(f"{base}/overlay")
        httpx.post(f"{base}/api/umpire/start_match", json=START, headers=AUTH)
        page.wait_for_function("document.getElementById('name-S').textContent === 'Asha'", timeout=10000)
        assert page.locator("#points-S").text_content() == "0"
        r = httpx.post(f"{base}/api/umpire/concede", json={"player": "Bilal", "what": "board"}, headers=AUTH)
        won = r.json()["state"]["last_ruling"]["score"]["points"]["Asha"]
        assert won > 0
        page.wait_for_function(f"document.getElementById('points-S').textContent === '{won}'", timeout=10000)
        assert page.locator("#board-no").text_content() == "Board 2"
        page.close()


def test_umpire_confirms_a_flagged_foul_and_the_score_changes(
    tmp_path: Path, serve: Any, browser: Any
) -> None:
    with serve(Settings(db=tmp_path / "m.db", token=TOKEN)) as base:
        httpx.post(f"{base}/api/umpire/start_match", json=START, headers=AUTH)
        httpx.post(
            f"{base}/api/umpire/ingest", json={"events": shot_events(1, 1.0, striker=True)}, headers=AUTH
        )
        assert httpx.get(f"{base}/api/state").json()["review"] is not None
        page = browser.new_page(viewport={"width": 1920, "height": 1200})
        page.goto(f"{base}/umpire#token={TOKEN}")
        confirm = page.locator("button.confirm")
        confirm.wait_for(timeout=10000)
        before = page.locator("#scoreline").text_content()
        assert "to play: Asha" in before and "due" not in before
        confirm.click()
        page.wait_for_function(
            "document.getElementById('scoreline').textContent.includes('to play: Bilal')", timeout=10000
        )
        after = page.locator("#scoreline").text_content()
        assert "Asha 0 (due 1)" in after
        page.wait_for_selector(".review.confirmed", timeout=10000)
        assert httpx.get(f"{base}/api/state").json()["last_ruling"]["dues"]["Asha"] == 1
        page.close()
