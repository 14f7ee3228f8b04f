"""A two-player Fixed-Limit game as a betting tree in arrays.

Actions everywhere are FOLD, CALL (check or call) and RAISE (bet or raise); a node's
legal subset is the non-negative entries of its `child` row. Chips are in the game's
own unit (heads-up Limit Hold'em: the small blind, so a small bet is 2).

Heads-up Limit Hold'em follows the simulator's numbering: player 0 is the big blind,
player 1 the button (small blind), who acts first preflop and last afterwards; the
big blind counts as the first of the four bets preflop (holdem.config.raise_cap = 4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.policy.tree import IntArray

FOLD, CALL, RAISE = 0, 1, 2
ACTION_LETTERS = "fcr"
DECISION, FOLDED, SHOWDOWN = 0, 1, 2


@dataclass(frozen=True)
class LimitGame:
    """The rules of a two-player Limit game (a later multiway game gets its own config)."""

    name: str
    rounds: int
    antes: tuple[int, int]
    blinds: tuple[int, int]  # first-round chips in front, counted as that round's bets
    bet_sizes: tuple[int, ...]  # per round
    max_bets: tuple[int, ...]  # per round, a blind counting as the first bet
    first_actor: tuple[int, ...]  # per round


HOLDEM_HU = LimitGame(
    name="limit-hu",
    rounds=4,
    antes=(0, 0),
    blinds=(2, 1),
    bet_sizes=(2, 2, 4, 4),
    max_bets=(4, 4, 4, 4),
    first_actor=(1, 0, 0, 0),
)
LEDUC = LimitGame(
    name="leduc",
    rounds=2,
    antes=(1, 1),
    blinds=(0, 0),
    bet_sizes=(2, 4),
    max_bets=(2, 2),
    first_actor=(0, 0),
)


@dataclass(frozen=True)
class BettingTree:
    game: LimitGame
    kind: IntArray  # DECISION, FOLDED or SHOWDOWN
    player: IntArray  # the actor at a decision, the winner at a fold, else -1
    round: IntArray
    child: IntArray  # (nodes, 3): the node after FOLD/CALL/RAISE, -1 where illegal
    put: IntArray  # (nodes, 2): each player's chips in the pot
    history: tuple[str, ...]  # "fcr" letters per round joined by "/"; Leduc's notation

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    def n_actions(self, node: int) -> int:
        return int((self.child[node] >= 0).sum())

    def legal(self, node: int) -> tuple[int, ...]:
        return tuple(int(a) for a in np.flatnonzero(self.child[node] >= 0))

    def decisions(self, round_: int) -> IntArray:
        return np.flatnonzero((self.kind == DECISION) & (self.round == round_))


def build_tree(game: LimitGame) -> BettingTree:
    """Depth-first, so a node's subtree follows it (root = 0)."""
    kind: list[int] = []
    player: list[int] = []
    rnd: list[int] = []
    child: list[list[int]] = []
    put: list[tuple[int, int]] = []
    history: list[str] = []

    def add(k: int, p: int, r: int, chips: tuple[int, int], h: str) -> int:
        kind.append(k)
        player.append(p)
        rnd.append(r)
        child.append([-1, -1, -1])
        put.append(chips)
        history.append(h)
        return len(kind) - 1

    def round_start(r: int, total: tuple[int, int], h: str) -> int:
        if r == game.rounds:
            return add(SHOWDOWN, -1, r - 1, total, h)
        street = game.blinds if r == 0 else (0, 0)
        bets = 1 if max(street) > 0 else 0
        h = h if r == 0 else h + "/"
        return decision(r, game.first_actor[r], total, street, bets, 0, h)

    def decision(
        r: int,
        p: int,
        total: tuple[int, int],
        street: tuple[int, int],
        bets: int,
        acted: int,
        h: str,
    ) -> int:
        node = add(DECISION, p, r, (total[0] + street[0], total[1] + street[1]), h)
        facing = street[1 - p] - street[p]
        if facing > 0:
            folded = add(FOLDED, 1 - p, r, (total[0] + street[0], total[1] + street[1]), h + "f")
            child[node][FOLD] = folded
        after = list(street)
        after[p] = street[1 - p]
        called = (after[0], after[1])
        if acted >= 1:
            # A call or check after the other has acted ends the round; the button's
            # preflop limp (acted = 0) leaves the big blind its option.
            child[node][CALL] = round_start(
                r + 1, (total[0] + called[0], total[1] + called[1]), h + "c"
            )
        else:
            child[node][CALL] = decision(r, 1 - p, total, called, bets, acted + 1, h + "c")
        if bets < game.max_bets[r]:
            raised = list(called)
            raised[p] = called[p] + game.bet_sizes[r]
            child[node][RAISE] = decision(
                r, 1 - p, total, (raised[0], raised[1]), bets + 1, acted + 1, h + "r"
            )
        return node

    start = (game.antes[0], game.antes[1])
    root = round_start(0, start, "")
    assert root == 0
    return BettingTree(
        game=game,
        kind=np.array(kind, dtype=np.int64),
        player=np.array(player, dtype=np.int64),
        round=np.array(rnd, dtype=np.int64),
        child=np.array(child, dtype=np.int64),
        put=np.array(put, dtype=np.int64),
        history=tuple(history),
    )
