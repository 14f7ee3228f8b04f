"""The compiled rollouts (ai.search.kernel) play as tests/ai/search_policy.py's Python
ones: on the same random numbers, the same chips for every player, from random seeded states with
random opponent tables (card-blind players included), Limit and No-Limit. And a compiled
node offers our abstract actions, always legal, and the tree walk plays the opponents
until our turn as the Python search did, keying the line the same way."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from search_policy import (
    Random,
    blueprint_follow,
    continue_scale,
    cost_of,
    opponent_act,
    opponent_bucket,
    play_out,
    random_play_out,
)
from test_sim_arrays import EV, random_hand

from ai.policy.nway.tree import ALL_IN
from ai.search import kernel as K
from ai.search.abstraction import bucket_amount, our_actions, raise_to, size_bucket
from ai.search.opponents import OpponentTables
from ai.search.rollout_blueprint import Pack, empty_arrays, pack
from ai.search.tree import Node, Tree
from ai.sim import arrays as A
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def random_tables(rng: np.random.Generator, n: int) -> OpponentTables:
    """Random tables; half the players (at random) also act by the blueprint with a
    random weight (`OpponentTables.blueprint`)."""
    shares = rng.dirichlet(np.ones(3), size=(n, 4, 3))
    sizes = rng.dirichlet(np.ones(6), size=(n, 4, 3))
    kappa = [1.0 if rng.random() < 0.5 else float(rng.random()) for _ in range(n)]
    overbet = [1.0 if rng.random() < 0.5 else 2.0 * float(rng.random()) for _ in range(n)]
    blueprint = [0.0 if rng.random() < 0.5 else float(rng.random()) for _ in range(n)]
    return OpponentTables.of(shares, sizes, kappa, overbet, blueprint)


def advanced(state: SimState, rng: random.Random, actions: int) -> SimState:
    return advanced_on(state, rng, actions, None)[0]


def blueprint_of(state: SimState) -> Pack | None:
    """The blueprint of this table size and game, as `rollout_blueprint.for_observation`."""
    limit = state.rules.is_limit
    game = {(2, True): "limit-hu", (2, False): "nolimit-hu", (3, True): "limit-3max"}
    name = game.get((state.n, limit))
    return pack(name) if name is not None else None


def advanced_on(
    state: SimState, rng: random.Random, actions: int, bp: Pack | None
) -> tuple[SimState, int]:
    """Random actions from a new hand, followed on the blueprint's tree (-1: off it)."""
    node = 0 if bp is not None else -1
    for _ in range(actions):
        legal = state.legal_actions()
        if legal is None:
            break
        kind = rng.choice(legal.kinds)
        to = rng.randint(legal.min_to, legal.max_to) if kind >= BET else 0
        if bp is not None:
            node = blueprint_follow(bp, node, state, legal.player, kind, to)
        state.step(kind, to)
    return state, node


def bp_args(bp: Pack | None) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                                      npt.NDArray[np.float64]]:  # fmt: skip
    return bp.arrays if bp is not None else empty_arrays()


def our_buckets(bp: Pack | None, generator: np.random.Generator) -> npt.NDArray[np.int64]:
    if bp is None:
        return np.zeros(4, dtype=np.int64)
    return np.array([generator.integers(b) for b in bp.abstraction.buckets], dtype=np.int64)


def their_buckets(bp: Pack | None, generator: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
    """Random card buckets per player and street (zeros without a blueprint)."""
    return np.array([our_buckets(bp, generator) for _ in range(n)], dtype=np.int64)


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    limit=st.booleans(),
    actions=st.integers(0, 6),
    rollout=st.sampled_from(("model", "random", "blueprint", "opponents")),
)
def test_the_compiled_rollouts_play_as_the_python_ones(
    seed: int, players: int, limit: bool, actions: int, rollout: str
) -> None:
    """With "blueprint", our own decisions are the table's blueprint's while the hand is
    on its tree (heads-up Limit and No-Limit, three-handed Limit), from a random line; with
    "opponents", the blueprint's tree is followed for the opponents' blueprint play only."""
    on_tree = rollout in ("blueprint", "opponents")
    hand = random_hand(seed, min(players, 3) if on_tree else players, limit, 0)
    bp = blueprint_of(hand) if on_tree else None
    state, node = advanced_on(hand, random.Random(seed), actions, bp)
    generator = np.random.default_rng(seed)
    tables = random_tables(generator, state.n)
    strength = generator.random((state.n, 4))
    me = int(generator.integers(state.n))
    ours = our_buckets(bp, generator)
    theirs = their_buckets(bp, generator, state.n)
    mine = rollout != "opponents"
    st_ = A.state_array(state)
    rules = A.rules_array(state.rules)
    holes, runout = A.cards_arrays(state)
    stream = np.zeros(1, dtype=np.int64)
    K.reseed(stream, seed)
    cur = np.array([node], dtype=np.int64)
    if rollout == "random":
        K.random_play_out(st_, rules, holes, runout, stream, EV)
    else:
        K.play_out(st_, rules, holes, runout, strength, K.table_array(tables), me, stream, EV,
                   bp_args(bp), cur, ours, theirs, mine)  # fmt: skip
    # The same stream, drawn from Python.
    python_stream = np.zeros(1, dtype=np.int64)
    K.reseed(python_stream, seed)

    def rand() -> float:
        return K.uniform(python_stream)

    if rollout == "random":
        random_play_out(state, rand)
    else:
        play_out(state, strength.tolist(), tables, rand, me, bp, node, ours.tolist(),
                 theirs.tolist(), mine)  # fmt: skip
    assert state.over and st_[A.OVER] == 1
    assert [A.payoff(st_, i) for i in range(state.n)] == state.payoffs()
    assert stream[0] == python_stream[0]  # as many draws, in the same order


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    limit=st.booleans(),
    actions=st.integers(0, 8),
)
def test_a_compiled_node_offers_our_abstract_actions(
    seed: int, players: int, limit: bool, actions: int
) -> None:
    """Our actions at a node are ai.search.abstraction's (always legal amounts), with
    our rule's give-up, passive and nearest-to-pot-sized actions."""
    state = advanced(random_hand(seed, players, limit, 0), random.Random(seed), actions)
    legal = state.legal_actions()
    if legal is None:
        return
    tree = Tree(state.rules.is_limit)
    tables = random_tables(np.random.default_rng(seed), state.n)
    node = K.new_node(tree.nodes, tree.edges, tree.edge_f, tree.counts, A.state_array(state),
                      A.rules_array(state.rules), K.table_array(tables), legal.player, False,
                      False)  # fmt: skip
    view = Node(tree, node)
    expected = our_actions(state.pot, legal, state.rules.is_limit)
    assert view.actions == expected
    for act in expected:
        assert act.kind in legal.kinds
        assert act.kind < BET or legal.min_to <= act.to <= legal.max_to
    passive = next(a for a, act in enumerate(expected) if act.kind in (CHECK, CALL))
    give_up = next((a for a, act in enumerate(expected) if act.kind == FOLD), passive)
    raises = [a for a, act in enumerate(expected) if act.kind >= BET]
    pot_sized = raise_to(state.pot, legal, 1.0)
    aggressive = min(raises, key=lambda a: abs(expected[a].to - pot_sized), default=passive)
    assert view.rule == (give_up, passive, aggressive)


def python_advance(
    state: SimState,
    strength: list[list[float]],
    tables: OpponentTables,
    rand: Random,
    me: int,
    bp: Pack | None,
    node: int,
    theirs: list[list[int]],
) -> tuple[list[int], int]:
    """The tree walk's opponents, as the search played them in Python before the kernel:
    from the tables until our turn or the end; the line's key as the tree stores it, and
    the blueprint node reached."""
    key: list[int] = []
    limit = state.rules.is_limit
    while not state.over and state.queue[0] != me:
        i = state.queue[0]
        street = state.street
        call = min(state.stacks[i], state.max_bet - state.bets[i])
        pot = state.pot
        cost = cost_of(call, pot, state.rules.min_increment[street], limit)
        scale = continue_scale(call, pot, limit, tables.overbet[i])
        choice, slot = opponent_act(tables, bp, node, state, i, cost, strength[i][street],
                                    theirs[i][street], rand, scale)  # fmt: skip
        legal = state.legal_actions()
        assert legal is not None
        if choice == 2 and legal.raise_kind is not None:
            if limit:
                bucket, to = 0, legal.min_to
            elif slot >= 0:
                assert bp is not None
                frac = float(bp.fracs[node, slot])
                to = legal.max_to if frac == ALL_IN else raise_to(pot, legal, frac)
                bucket = size_bucket(pot, legal, to)
            else:
                bucket = opponent_bucket(tables, i, street, cost, rand())
                to = bucket_amount(pot, legal, bucket)
            if bp is not None:
                node = blueprint_follow(bp, node, state, i, legal.raise_kind, to)
            state.step(legal.raise_kind, to)
            key.append(street * 64 + 16 + bucket)
        else:
            kind = CHECK if call == 0 else (CALL if choice >= 1 else FOLD)
            if bp is not None:
                node = blueprint_follow(bp, node, state, i, kind, 0)
            state.step(kind)
            key.append(street * 64 + (8 if kind != FOLD else 0))
    return key, (node if bp is not None else -1)


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    limit=st.booleans(),
    actions=st.integers(0, 6),
)
def test_the_compiled_tree_walk_plays_the_opponents_as_python(
    seed: int, players: int, limit: bool, actions: int
) -> None:
    hand = random_hand(seed, players, limit, 0)
    bp = blueprint_of(hand)
    state, node = advanced_on(hand, random.Random(seed), actions, bp)
    generator = np.random.default_rng(seed)
    tables = random_tables(generator, state.n)
    strength = generator.random((state.n, 4))
    me = int(generator.integers(state.n))
    theirs = their_buckets(bp, generator, state.n)
    st_ = A.state_array(state)
    holes, runout = A.cards_arrays(state)
    stream = np.zeros(1, dtype=np.int64)
    K.reseed(stream, seed)
    key = np.zeros(K.MAX_KEY + 8, dtype=np.int64)
    cur = np.array([node], dtype=np.int64)
    length = K.advance(st_, A.rules_array(state.rules), holes, runout, strength,
                       K.table_array(tables), me, stream, key, 0, EV, bp_args(bp),
                       cur, theirs)  # fmt: skip
    python_stream = np.zeros(1, dtype=np.int64)
    K.reseed(python_stream, seed)
    expected, followed = python_advance(
        state,
        strength.tolist(),
        tables,
        lambda: K.uniform(python_stream),
        me,
        bp,
        node,
        theirs.tolist(),
    )
    assert key[:length].tolist() == expected
    assert cur[0] == followed  # the blueprint's tree followed as Python follows it
    assert np.array_equal(st_[: A.QUEUE], A.state_array(state)[: A.QUEUE])
    assert [A.payoff(st_, i) for i in range(state.n)] == state.payoffs()
