"""An n-player betting tree built by driving the rules core, flattened into arrays.

Every abstract action is applied to a real `ai.sim.state.SimState`, so each one is legal
there by construction, and the chips a node records are the simulator's own. The tree
is depth first (a node's subtree follows it): the compiled kernels need no recursion.

Actions: FOLD, CALL (check or call), RAISE (a bet or raise: Limit's fixed size, or a
No-Limit pot fraction, `frac`, or all-in). Player numbers are the simulator's indices
(0 the first seat left of the button, the button last; heads-up 0 is the big blind).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ai.policy.nway.games import NWayGame
from ai.policy.tree import FloatArray, IntArray
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE, Rules
from ai.sim.state import SimState

A_FOLD, A_CALL, A_RAISE = 0, 1, 2
DECISION, TERMINAL = 0, 1
MAX_ACTIONS = 6
ALL_IN = -1.0  # `frac` of an all-in


@dataclass(frozen=True)
class NWayTree:
    game: NWayGame
    kind: IntArray  # DECISION or TERMINAL
    player: IntArray  # the actor, -1 at terminals
    round: IntArray  # the street
    n_actions: IntArray
    child: IntArray  # (nodes, MAX_ACTIONS), -1 past n_actions
    action: IntArray  # (nodes, MAX_ACTIONS): A_FOLD / A_CALL / A_RAISE
    frac: FloatArray  # (nodes, MAX_ACTIONS): a raise's pot fraction, ALL_IN, NaN otherwise
    to: IntArray  # (nodes, MAX_ACTIONS): a raise's street total
    put: IntArray  # (nodes, n): chips each player has put in
    alive: IntArray  # bit mask of players not folded
    pot: IntArray  # chips in the middle at the node
    to_call: IntArray  # the actor's call amount

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    def actions(self, node: int) -> list[tuple[int, float]]:
        k = int(self.n_actions[node])
        return [(int(self.action[node, a]), float(self.frac[node, a])) for a in range(k)]


def rules_of(game: NWayGame) -> Rules:
    bb = game.big_blind
    if game.limit:
        return Rules(True, game.small_blind, bb, 0, (bb, bb, 2 * bb, 2 * bb), (3, 4, 4, 4))
    return Rules(False, game.small_blind, bb, 0, (bb, bb, bb, bb), (-1, -1, -1, -1))


def start_state(game: NWayGame) -> SimState:
    holes = [(2 * i, 2 * i + 1) for i in range(game.n)]
    runout = [2 * game.n + j for j in range(5)]
    return SimState(rules_of(game), list(range(game.n)), [game.stack] * game.n, holes, runout)


def raise_options(game: NWayGame, state: SimState) -> list[tuple[float, int]]:
    """(frac, street total) of the abstract raises legal here, smallest first."""
    legal = state.legal_actions()
    assert legal is not None
    if legal.raise_kind is None:
        return []
    if game.limit:
        cap = game.limit_cap(state.street, state.n_in_hand)
        return [(0.0, legal.min_to)] if state.raises < cap else []
    sizes = game.sizes_for(state.street, state.raises, state.n_in_hand)
    if sizes is None:
        return []
    call = legal.call_amount
    facing = state.max_bet
    pot = state.pot
    out: list[tuple[float, int]] = []
    for f in sizes:
        to = facing + round(f * (pot + call))
        if legal.min_to <= to < legal.max_to and all(to != t for _, t in out):
            out.append((f, to))
    out.append((ALL_IN, legal.max_to))
    return out


def step_abstract(state: SimState, action: int, to: int) -> None:
    legal = state.legal_actions()
    assert legal is not None
    if action == A_FOLD:
        state.step(FOLD)
    elif action == A_CALL:
        state.step(CHECK if legal.can_check else CALL)
    else:
        assert legal.raise_kind in (BET, RAISE)
        state.step(legal.raise_kind, to)


def build_tree(game: NWayGame) -> NWayTree:
    n = game.n
    kind: list[int] = []
    player: list[int] = []
    rnd: list[int] = []
    n_act: list[int] = []
    child: list[list[int]] = []
    action: list[list[int]] = []
    frac: list[list[float]] = []
    tos: list[list[int]] = []
    put: list[list[int]] = []
    alive: list[int] = []
    pot: list[int] = []
    to_call: list[int] = []

    def visit(state: SimState, chips: list[int]) -> int:
        # `chips` is what each player put in, counted before any payout: a finished
        # SimState has paid the pot back into the stacks.
        node = len(kind)
        put.append(chips)
        alive.append(sum(1 << i for i in range(n) if state.in_hand[i]))
        pot.append(state.pot)
        child.append([-1] * MAX_ACTIONS)
        action.append([0] * MAX_ACTIONS)
        frac.append([float("nan")] * MAX_ACTIONS)
        tos.append([0] * MAX_ACTIONS)
        if state.over:
            kind.append(TERMINAL)
            player.append(-1)
            rnd.append(min(state.street, 3))
            n_act.append(0)
            to_call.append(0)
            return node
        legal = state.legal_actions()
        assert legal is not None
        kind.append(DECISION)
        player.append(legal.player)
        rnd.append(state.street)
        to_call.append(legal.call_amount)
        options: list[tuple[int, float, int]] = []
        if legal.can_fold:
            options.append((A_FOLD, float("nan"), 0))
        options.append((A_CALL, float("nan"), 0))
        options += [(A_RAISE, f, to) for f, to in raise_options(game, state)]
        n_act.append(len(options))
        for a, (act, f, to) in enumerate(options):
            action[node][a], frac[node][a], tos[node][a] = act, f, to
            nxt = state.clone()
            added = list(chips)
            i = legal.player
            if act == A_CALL:
                added[i] += min(legal.call_amount, state.stacks[i])
            elif act == A_RAISE:
                added[i] += to - state.bets[i]
            step_abstract(nxt, act, to)
            child[node][a] = visit(nxt, added)
        return node

    root = start_state(game)
    visit(root, [root.start[i] - root.stacks[i] for i in range(n)])
    return NWayTree(
        game=game,
        kind=np.array(kind, dtype=np.int64),
        player=np.array(player, dtype=np.int64),
        round=np.array(rnd, dtype=np.int64),
        n_actions=np.array(n_act, dtype=np.int64),
        child=np.array(child, dtype=np.int64),
        action=np.array(action, dtype=np.int64),
        frac=np.array(frac, dtype=np.float64),
        to=np.array(tos, dtype=np.int64),
        put=np.array(put, dtype=np.int64),
        alive=np.array(alive, dtype=np.int64),
        pot=np.array(pot, dtype=np.int64),
        to_call=np.array(to_call, dtype=np.int64),
    )


def kuhn3_tree() -> NWayTree:
    """Three-player Kuhn poker (ante 1, one bet of 1, cards J Q K A): the small test game."""
    from ai.policy.nway.games import NWayGame as Game

    game = Game(name="kuhn-3", n=3, limit=True, stack=2)
    n = 3
    rows: list[dict[str, object]] = []
    options: dict[int, list[tuple[int, int]]] = {}

    def visit(actor: int, put: tuple[int, ...], alive: int, bet: bool, left: int) -> int:
        node = len(rows)
        row: dict[str, object] = {"put": put, "alive": alive}
        rows.append(row)
        if left == 0 or bin(alive).count("1") == 1:
            row["kind"] = TERMINAL
            return node
        while not alive >> actor & 1:
            actor = (actor + 1) % n
        row.update(kind=DECISION, player=actor, pot=sum(put), to_call=int(bet))
        nxt = (actor + 1) % n
        opts: list[tuple[int, int]] = []
        if bet:
            more = list(put)
            more[actor] += 1
            opts.append((A_FOLD, visit(nxt, put, alive & ~(1 << actor), True, left - 1)))
            opts.append((A_CALL, visit(nxt, tuple(more), alive, True, left - 1)))
        else:
            more = list(put)
            more[actor] += 1
            # Checks go round once; a bet gives each other player one answer.
            opts.append((A_CALL, visit(nxt, put, alive, False, left - 1)))
            opts.append((A_RAISE, visit(nxt, tuple(more), alive, True, n - 1)))
        options[node] = opts
        return node

    visit(0, (1, 1, 1), 0b111, False, n)
    m = len(rows)
    tree = NWayTree(
        game=game,
        kind=np.array([r["kind"] for r in rows], dtype=np.int64),
        player=np.array([r.get("player", -1) for r in rows], dtype=np.int64),
        round=np.zeros(m, dtype=np.int64),
        n_actions=np.array([len(options.get(i, ())) for i in range(len(rows))], dtype=np.int64),
        child=np.full((m, MAX_ACTIONS), -1, dtype=np.int64),
        action=np.zeros((m, MAX_ACTIONS), dtype=np.int64),
        frac=np.full((m, MAX_ACTIONS), np.nan),
        to=np.zeros((m, MAX_ACTIONS), dtype=np.int64),
        put=np.array([r["put"] for r in rows], dtype=np.int64),
        alive=np.array([r["alive"] for r in rows], dtype=np.int64),
        pot=np.array([r.get("pot", 0) for r in rows], dtype=np.int64),
        to_call=np.array([r.get("to_call", 0) for r in rows], dtype=np.int64),
    )
    for i, opts in options.items():
        for a, (act, c) in enumerate(opts):
            tree.child[i, a] = c
            tree.action[i, a] = act
    return tree


def bool_mask(mask: int, n: int) -> NDArray[np.bool_]:
    return np.array([bool(mask >> i & 1) for i in range(n)])
