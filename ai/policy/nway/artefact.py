"""The n-player blueprint artefact: the strategy, the card cuts and the betting tree.

`.npz` (written by `ai.policy.nway.training`):
- `metadata`: JSON: `format` (ARTEFACT_FORMAT), `version` (game, UTC time, a hash of
  the strategy, as the heads-up artefact and the opponent models), game, abstraction,
  buckets, iterations, seed, the tree's size.
- `strategy`: uint8 per (node, bucket, action), each information set summing to 255
  (all zero: never visited in training); `cuts`: the HS quantiles.
- the tree's lookup arrays (`kind`, `player`, `round`, `n_actions`, `child`, `action`,
  `frac`): building the three-handed Limit tree through the rules core takes seconds,
  loading it does not; a test checks the stored tree against a fresh build.
- `pot` and `to_call` per node (artefacts from the 6-max one on; optional): the chips
  the search's prior reads (`ai.search.blueprint_prior.nway_tables`), so it need not
  build the 247,252-node 6-max tree again (seconds) at the first multiway decision.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ai.policy.limit.holdem import HoldemAbstraction
from ai.policy.nway.games import GAMES, NWayGame
from ai.policy.nway.mccfr import Layout, layout
from ai.policy.nway.tree import NWayTree
from ai.policy.tree import FloatArray, IntArray

ARTEFACT_FORMAT = 1
TREE_FIELDS = ("kind", "player", "round", "n_actions", "child", "action", "frac")
CHIP_FIELDS = ("pot", "to_call")  # optional: older artefacts lack them


def quantise(tree: NWayTree, lay: Layout, weights: FloatArray) -> NDArray[np.uint8]:
    """Per information set, the normalised weights as uint8 summing to 255 (largest
    remainders); sets with no weight stay all zero."""
    out = np.zeros(lay.size, dtype=np.uint8)
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(tree.n_actions[node])
        n = lay.buckets[int(tree.round[node])] * k
        rows = weights[o : o + n].reshape(-1, k)
        total = rows.sum(axis=1, keepdims=True)
        seen = total[:, 0] > 0
        scaled = np.where(seen[:, None], rows / np.where(total > 0, total, 1.0) * 255.0, 0.0)
        q = np.floor(scaled).astype(np.int64)
        short = np.where(seen, 255 - q.sum(axis=1), 0)
        order = np.argsort(-(scaled - q), axis=1, kind="stable")
        for j in range(k):
            rows_short = np.flatnonzero(short > j)
            q[rows_short, order[rows_short, j]] += 1
        out[o : o + n] = q.ravel().astype(np.uint8)
    return out


def write(
    path: Path,
    tree: NWayTree,
    lay: Layout,
    abstraction: HoldemAbstraction,
    average: FloatArray,
    extra: dict[str, Any],
) -> dict[str, Any]:
    strategy = quantise(tree, lay, average)
    digest = hashlib.sha256(strategy.tobytes()).hexdigest()[:8]
    metadata = {
        "format": ARTEFACT_FORMAT,
        "version": f"{tree.game.name}-{datetime.now(UTC):%Y%m%dT%H%M%S}-{digest}",
        "game": tree.game.name,
        **abstraction.metadata(),
        "buckets": list(lay.buckets),
        "nodes": tree.n_nodes,
        **extra,
    }
    arrays: dict[str, NDArray[Any]] = {
        "kind": tree.kind.astype(np.int8),
        "player": tree.player.astype(np.int8),
        "round": tree.round.astype(np.int8),
        "n_actions": tree.n_actions.astype(np.int8),
        "child": tree.child.astype(np.int32),
        "action": tree.action.astype(np.int8),
        "frac": tree.frac.astype(np.float32),
        "pot": tree.pot.astype(np.int32),
        "to_call": tree.to_call.astype(np.int32),
    }
    arrays["metadata"] = np.array(json.dumps(metadata))
    arrays["strategy"] = strategy
    arrays["cuts"] = abstraction.cuts.astype(np.float32)
    np.savez_compressed(path, allow_pickle=False, **arrays)
    return metadata


@dataclass(frozen=True)
class Artefact:
    metadata: dict[str, Any]
    game: NWayGame
    tree: NWayTree  # the lookup arrays (and `pot`, `to_call` where stored); `put`... empty
    lay: Layout
    strategy: FloatArray  # probabilities (0 rows: never visited)
    abstraction: HoldemAbstraction

    @property
    def version(self) -> str:
        return str(self.metadata["version"])


def load(path: Path) -> Artefact:
    with np.load(path) as data:
        metadata: dict[str, Any] = json.loads(str(data["metadata"]))
        if metadata.get("format") != ARTEFACT_FORMAT:
            raise ValueError(f"{path}: artefact format {metadata.get('format')}, "
                             f"this code reads {ARTEFACT_FORMAT}")  # fmt: skip
        game = GAMES.get(str(metadata.get("game")))
        if game is None:
            raise ValueError(f"{path}: unknown game {metadata.get('game')!r}")
        arrays: dict[str, IntArray] = {f: data[f].astype(np.int64) for f in TREE_FIELDS[:-1]}
        frac = data["frac"].astype(np.float64)
        strategy = data["strategy"].astype(np.float64) / 255.0
        cuts = data["cuts"].astype(np.float64)
        chips = {f: data[f].astype(np.int64) for f in CHIP_FIELDS if f in data.files}
    empty = np.zeros(0, dtype=np.int64)
    tree = NWayTree(
        game=game, frac=frac, to=empty, put=empty, alive=empty,
        pot=chips.get("pot", empty), to_call=chips.get("to_call", empty), **arrays,
    )  # fmt: skip
    hs = tuple(int(b) for b in metadata["hs_buckets"])
    abstraction = HoldemAbstraction((hs[0], hs[1], hs[2]), cuts=cuts)
    lay = layout(tree, abstraction.buckets)
    if strategy.shape != (lay.size,):
        raise ValueError(f"{path}: {strategy.shape[0]} entries, the layout has {lay.size}")
    return Artefact(metadata, game, tree, lay, strategy, abstraction)
