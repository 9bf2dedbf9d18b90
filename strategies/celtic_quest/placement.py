"""Who places the map's tiles when ``map_placement = "players"`` (§3.1 item 2: "The placing
player chooses among legal placements"): the bot of the seat drawing the tile.

- random (code 0): uniform over the legal (position, rotation) pairs, drawn from the map's
  stream exactly as the default policy draws them, so an all-random table builds the same maps
  under both settings;
- greedy (and the search bot, whose rollouts are greedy's): its estimate of the placement
  (``placement_score``): it wants its delivery targets close, so a tile with resource spots goes
  as near as it may to the nearest bastion placed (a bastion tile: to the nearest tile with
  resource spots), and, after that, near the Stone Circle, where every seat starts and quests are
  completed. The estimate reads only the public map: the quests and destinies are dealt after
  the map, so no seat knows its own yet. Ties: the first legal placement in the board's order.
"""

from __future__ import annotations

from sim.games.celtic_quest.mapgen import Catalogue

RANDOM = 0


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _has_spots(catalogue: Catalogue, tile_id: str) -> bool:
    return any(n.resource_spots for n in catalogue.tile(tile_id).green)


def _is_bastion(catalogue: Catalogue, tile_id: str) -> bool:
    return catalogue.tile(tile_id).kind.startswith("bastion")


def placement_score(catalogue: Catalogue, tile_id: str, pos, tiles_at) -> float:
    """Greedy's estimate of placing ``tile_id`` at ``pos`` (higher is better): minus the hex
    distance to its nearest delivery partner placed (bastion <-> tile with resource spots, 6 if
    none yet), then minus a tenth of the distance to the Stone Circle."""
    bastion = _is_bastion(catalogue, tile_id)
    spots = _has_spots(catalogue, tile_id)
    partner = 6
    if bastion or spots:
        for other_pos, other in tiles_at.items():
            if (bastion and _has_spots(catalogue, other)) or (
                spots and _is_bastion(catalogue, other)
            ):
                partner = min(partner, hex_distance(pos, other_pos))
    return -partner - 0.1 * hex_distance(pos, (0, 0))


def placer(catalogue: Catalogue, bot_codes):
    """``choose(seat, tile, legal, tiles_at, rng)`` for mapgen.build_once: each seat's bot."""
    codes = [int(c) for c in bot_codes]

    def choose(seat, tile, legal, tiles_at, rng) -> int:
        if codes[seat] == RANDOM:
            return int(rng.integers(len(legal)))
        best, best_v = 0, None
        for i, (pos, _k) in enumerate(legal):
            v = placement_score(catalogue, tile, pos, tiles_at)
            if best_v is None or v > best_v:
                best, best_v = i, v
        return best

    return choose
