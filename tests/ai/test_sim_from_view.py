"""ai.sim.from_view: the hand rebuilt from one seat's view continues exactly as the table does."""

from __future__ import annotations

import random

import pytest

from ai.sim.from_view import from_view, starting_stacks
from ai.sim.rules import BET, SimAction
from ai.sim.state import to_indices
from holdem.actions import Action, ActionKind
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe


def random_action(table: Table, rng: random.Random) -> Action:
    assert table.hand is not None
    legal = table.hand.legal_actions()
    assert legal is not None
    kind = rng.choice(legal.kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        assert legal.min_to is not None and legal.max_to is not None
        return Action(kind=kind, amount=rng.choice((legal.min_to, legal.max_to)))
    return Action(kind=kind)


@pytest.mark.parametrize(
    ("variant", "ante", "seed"),
    [
        (Variant.NO_LIMIT, 0, 1),
        (Variant.NO_LIMIT, 3, 2),
        (Variant.LIMIT, 0, 3),
        (Variant.LIMIT, 1, 4),
    ],
)
def test_rebuilt_hand_matches_the_table_to_the_end(variant: Variant, ante: int, seed: int) -> None:
    rng = random.Random(seed)
    config = TableConfig(
        variant=variant,
        seats=6,
        small_blind=1,
        big_blind=2,
        ante=ante,
        min_buy_in=2,
        max_buy_in=400,
    )
    checked = 0
    for _ in range(60):
        table = Table("t", config, seed=rng.randint(0, 10**6))
        for seat in rng.sample(range(1, 7), rng.randint(2, 6)):
            table.sit(seat, f"p{seat}", f"P{seat}", rng.choice((rng.randint(2, 12), 400)))
        hand = table.start_hand()
        for _ in range(rng.randint(0, 8)):
            if hand.is_over:
                break
            assert hand.actor is not None
            table.act(hand.actor, random_action(table, rng))
        if hand.is_over:
            continue
        viewer = rng.choice(hand.seats)
        view = observe(table, viewer)
        others = {s: hand.hole_cards[s] for s in hand.seats if s != viewer}
        assert starting_stacks(view) == hand.starting_stacks
        sim = from_view(view, rng, others)
        assert sim.holes[sim.index_of(viewer)] == tuple(to_indices(hand.hole_cards[viewer]))
        moves: list[Action] = []
        while not hand.is_over:
            legal = sim.legal_actions()
            assert legal is not None and legal.to_legal_actions() == hand.legal_actions()
            action = random_action(table, rng)
            moves.append(action)
            sim.apply(action)
            assert hand.actor is not None
            table.act(hand.actor, action)
        assert sim.is_terminal()
        # Once the real runout is known, a fresh rebuild with it ends exactly as the table.
        again = from_view(view, random.Random(0), others)
        if len(hand.board) == 5:
            again.set_cards(runout=to_indices(hand.board))
        for action in moves:
            again.apply(action)
        assert again.final_stacks() == hand.stacks
        checked += 1
    assert checked > 20


def test_stacks_below_the_ante_and_blinds() -> None:
    config = TableConfig(
        variant=Variant.NO_LIMIT, seats=4, small_blind=5, big_blind=10, ante=8, min_buy_in=10
    )
    table = Table("t", config, seed=2)
    for seat, chips in ((1, 400), (2, 12), (3, 400), (4, 10)):
        table.sit(seat, f"p{seat}", f"P{seat}", chips)
    hand = table.start_hand()
    assert not hand.is_over
    view = observe(table, 3)
    assert starting_stacks(view) == {1: 400, 2: 12, 3: 400, 4: 10}
    sim = from_view(view, random.Random(0))
    legal = sim.legal_actions()
    assert legal is not None and legal.to_legal_actions() == hand.legal_actions()


def test_sim_state_from_view_is_playable_with_sampled_cards() -> None:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
    table = Table("t", config, seed=4)
    for seat in (1, 2, 4):
        table.sit(seat, f"p{seat}", f"P{seat}", 200)
    hand = table.start_hand()
    assert hand.actor is not None
    table.act(hand.actor, Action.raise_to(6))
    view = observe(table, 2)
    sim = from_view(view, random.Random(1))
    cards = [c for h in sim.holes for c in h] + list(sim.runout)
    assert len(set(cards)) == len(cards)
    legal = sim.legal_actions()
    assert legal is not None and legal.to_legal_actions() == hand.legal_actions()
    sim.apply(SimAction(BET if legal.raise_kind == BET else legal.kinds[-1], legal.max_to))
    assert sim.pot > view.total_pot


def test_views_without_a_live_hand_are_rejected() -> None:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
    table = Table("t", config, seed=4)
    table.sit(1, "a", "A", 200)
    table.sit(2, "b", "B", 200)
    with pytest.raises(ValueError, match="no hand"):
        from_view(observe(table, 1), random.Random(0))
    table.sit(3, "c", "C", 200)
    table.start_hand()
    table.sit(4, "d", "D", 200)  # seated during the hand: not dealt in
    with pytest.raises(ValueError, match="not dealt"):
        from_view(observe(table, 4), random.Random(0))
