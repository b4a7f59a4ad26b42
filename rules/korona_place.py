"""Putting discs back after a korona stroke: restores, off-board discs, penalty discs and debts.

Pure functions over the layout (tuple of `DiscPos`, board mm). Order of placement: discs restored
to where they were first (they have a fixed spot), then off-board discs to the centre circle
(§20.17-§20.19), then penalty discs (§24.3), each later one seeing the earlier ones as obstacles.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.korona_assess import Restore
from rules.korona_geometry import OPPOSITE, KoronaGeometry
from rules.korona_record import Gone
from rules.korona_state import DISCS_PER_PLAYER, KoronaState, Pending, PlayerState
from rules.records import DiscPos

__all__ = ["layout_after", "place_dues", "place_off_board", "place_restores"]


def _xy(layout: tuple[DiscPos, ...]) -> np.ndarray:
    return np.array([[d.x_mm, d.y_mm] for d in layout], dtype=np.float64).reshape(-1, 2)


def layout_after(
    before: tuple[DiscPos, ...], after: tuple[DiscPos, ...], gone_ids: set[int]
) -> tuple[DiscPos, ...]:
    """The discs on the board after a stroke: the record's "after" (without the striker), or the
    previous layout minus the discs known to have left when the record has no "after"."""
    if after:
        return tuple(d for d in after if d.kind in ("white", "black"))
    return tuple(d for d in before if d.id is None or d.id not in gone_ids)


def place_restores(
    layout: tuple[DiscPos, ...],
    restores: tuple[Restore, ...],
    geometry: KoronaGeometry,
    owner: dict[str, str],
) -> tuple[tuple[DiscPos, ...], list[Pending]]:
    """Put restored discs back at their former spots (§21.5, §21.10, §21.13)."""
    pend: list[Pending] = []
    for r in restores:
        layout = tuple(d for d in layout if d.id != r.id)
        spot = np.array([[r.x_mm, r.y_mm]])
        occupied = not bool(geometry.free_mask(spot, _xy(layout))[0])
        layout = (*layout, DiscPos(r.kind, r.x_mm, r.y_mm, r.id))
        pend.append(Pending("restore", r.kind, owner[r.kind], (r.x_mm, r.y_mm), r.law, r.id, None, occupied))
    return layout, pend


def place_off_board(
    layout: tuple[DiscPos, ...], discs: tuple[Gone, ...], geometry: KoronaGeometry, owner: dict[str, str]
) -> tuple[tuple[DiscPos, ...], list[Pending]]:
    """Off-board discs to the centre circle in the given order (§20.17-§20.19)."""
    pend: list[Pending] = []
    for i, g in enumerate(discs):
        spot = geometry.off_board_spot(g.where, _xy(layout))
        law = "korona §20.19" if i > 0 or len(discs) > 1 else "korona §20.17"
        xy = None if spot is None else (float(spot[0]), float(spot[1]))
        if xy is not None:
            layout = (*layout, DiscPos(g.kind, xy[0], xy[1], g.id))
        pend.append(Pending("off_board", g.kind, owner[g.kind], xy, law, g.id, g.where))
    return layout, pend


def place_dues(
    state: KoronaState,
    player: PlayerState,
    geometry: KoronaGeometry,
    law: str,
) -> tuple[KoronaState, list[Pending]]:
    """Place as many of `player`'s owed penalty discs as he has pocketed discs (§24.3, §24.7):
    in his opposite rail zone, against the rail, nearest its centre line; the rest stay owed."""
    n = min(player.dues, DISCS_PER_PLAYER - player.on_board)
    if n <= 0:
        return state, []
    zone = OPPOSITE[player.seat]
    layout = state.layout
    mask = np.array([d.kind == player.colour for d in layout], dtype=bool)
    spots = geometry.penalty_spots(n, zone, _xy(layout), owner_mask=mask)
    pend = []
    for spot in spots:
        xy = None if spot is None else (float(spot[0]), float(spot[1]))
        if xy is not None:
            layout = (*layout, DiscPos(player.colour, xy[0], xy[1], None))
        pend.append(Pending("penalty", player.colour, player.name, xy, law, None, zone))
    p = replace(player, dues=player.dues - n, on_board=player.on_board + n)
    return replace(state.with_player(p), layout=layout), pend
