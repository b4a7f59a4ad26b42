"""The korona citations: every reason cites a known paragraph, every anchor is in the rules text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.korona_laws import LAWS, KoronaReason, Sanction, law_of

RULES_TEXT = Path(__file__).resolve().parents[3] / "shared" / "rules" / "korona-et.txt"


def _sections() -> dict[str, str]:
    if not RULES_TEXT.is_file():
        pytest.skip(f"rules text not available: {RULES_TEXT} is absent")
    text = RULES_TEXT.read_text(encoding="utf-8")
    parts = re.split(r"^§ (\d+)\.", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


@pytest.mark.parametrize("reason", list(KoronaReason), ids=[r.value for r in KoronaReason])
def test_every_reason_cites_a_known_law(reason: KoronaReason) -> None:
    assert reason.law in LAWS
    assert law_of(reason).law == reason.law
    assert reason.law.startswith("korona §")
    # Fouls are exactly the calls costing a penalty disc or more.
    assert reason.is_foul() == (reason.sanction.rank >= Sanction.PENALTY.rank)


@pytest.mark.parametrize("law", sorted(LAWS), ids=sorted(LAWS))
def test_anchor_is_in_the_cited_section(law: str) -> None:
    section = law.removeprefix("korona §").split(".")[0]
    sections = _sections()
    assert LAWS[law].anchor in sections[section], f"{law}: anchor not in § {section}"


def test_umpire_only_reasons_are_the_invisible_ones() -> None:
    seen_by_camera = {r for r in KoronaReason if not r.is_umpire_only()}
    assert KoronaReason.STRIKER_POCKETED in seen_by_camera
    assert KoronaReason.DOUBLE_HIT not in seen_by_camera
