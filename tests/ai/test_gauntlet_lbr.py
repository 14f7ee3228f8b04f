"""Local Best Response: the blinds against always-fold, a clear win against a calling
station, Bayes' rule for the range, only legal actions, and only LBR's own view."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import fields

import pytest

from ai.arena.match import Match
from ai.bots.base import Bot
from ai.bots.simple import RandomBot
from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import step_and_record
from ai.gauntlet.lbr import ALWAYS_FOLD_MBB, LbrConfig, LbrPair, LbrView, play_lbr
from ai.gauntlet.lbr_probe import (
    DeterministicProbe,
    ExactProbe,
    SnapshotMaker,
    probe_maker,
    reseed,
)
from ai.gauntlet.lbr_range import Range, Table
from ai.gauntlet.lbr_value import call_value, equities, raise_value
from ai.sim.rules import CALL, CHECK, FOLD, RAISE, Rules
from ai.sim.state import SimState
from holdem.cards import RANKS, card_index
from holdem.config import TableConfig, Variant
from showdown.cli import main


def cards(*names: str) -> tuple[int, ...]:
    return tuple(card_index(n) for n in names)


def hole(a: str, b: str) -> tuple[int, int]:
    return card_index(a), card_index(b)


def is_pair_of(hole: tuple[int, int], rank: str) -> bool:
    return hole[0] // 4 == hole[1] // 4 == RANKS.index(rank)


# -- the anchors ---------------------------------------------------------------


@pytest.mark.parametrize("game", [Variant.NO_LIMIT, Variant.LIMIT])
def test_against_always_fold_lbr_wins_exactly_the_blinds(game: Variant) -> None:
    result = play_lbr(LbrConfig(game, "always-fold", hands=8, seed=3))
    # As the big blind it takes the small blind; as the button it limps, bets the flop and
    # takes the big blind: (0.5 + 1) / 2 bb a hand, every deal.
    assert result.mbb_per_hand == pytest.approx(ALWAYS_FOLD_MBB)
    assert result.ci95 == pytest.approx((ALWAYS_FOLD_MBB, ALWAYS_FOLD_MBB))
    assert result.total_bb == -result.target_total_bb


def test_against_a_calling_station_lbr_wins_clearly() -> None:
    result = play_lbr(
        LbrConfig(Variant.NO_LIMIT, "calling-station", hands=20, seed=2, particles=150)
    )
    assert result.exact
    assert result.ci95[0] > ALWAYS_FOLD_MBB  # above zero, and above folding everything


# -- Bayes' rule ------------------------------------------------------------------


class AcesRaiser(Bot):
    """Raises preflop with aces, with kings half the time, otherwise calls or checks; says so."""

    style = "aces"

    def action_probabilities(self, obs: Observation) -> Mapping[tuple[int, int], float]:
        legal = obs.legal
        passive = (CHECK if legal.can_check else CALL, 0)
        if legal.raise_kind is None:
            return {passive: 1.0}
        raise_to = (legal.raise_kind, legal.min_to)
        if is_pair_of(obs.hole, "A"):
            return {raise_to: 1.0}
        if is_pair_of(obs.hole, "K"):
            return {raise_to: 0.5, passive: 0.5}
        return {passive: 1.0}

    def decide(self, obs: Observation) -> Decision:
        (kind, to), _ = max(self.action_probabilities(obs).items(), key=lambda kv: kv[1])
        return Decision(kind, to)


class OnlyAcesRaise(AcesRaiser):
    """The same without the probabilities: LBR asks copies of it."""

    action_probabilities = None  # type: ignore[assignment]

    def decide(self, obs: Observation) -> Decision:
        legal = obs.legal
        if legal.raise_kind is not None and is_pair_of(obs.hole, "A"):
            return Decision(legal.raise_kind, legal.min_to)
        return Decision(CHECK if legal.can_check else CALL)


def raised_preflop_range(target: Bot, my_hole: tuple[int, int]) -> dict[tuple[int, int], float]:
    """The target (the button, index 1) raises first in; LBR (index 0) reads its range."""
    config = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    rules = Rules.of(config)
    state = SimState(
        rules, (1, 2), (200, 200), [my_hole, hole("2c", "3d")], cards("4h", "5h", "6h", "7h", "8h")
    )
    history: list[ActionRecord] = []
    legal = state.legal_actions()
    assert legal is not None and legal.player == 1
    step_and_record(state, RAISE, legal.min_to, history)
    table = Table(rules, (1, 2), (200, 200), 0, 1, "hand", ("lbr", "target"))
    ranged = Range(table, my_hole, probe_maker(target), random.Random(0))
    ranged.sync(history, ())
    return ranged.weights()


def test_a_raise_only_aces_make_leaves_a_range_of_aces() -> None:
    weights = raised_preflop_range(OnlyAcesRaise(), hole("Ah", "Kd"))
    # Three aces left (LBR holds one): three combos, equally likely.
    assert sorted(weights) == sorted(
        [tuple(sorted(h)) for h in [hole("Ac", "Ad"), hole("Ac", "As"), hole("Ad", "As")]]
    )
    assert all(w == pytest.approx(1 / 3) for w in weights.values())


def test_the_range_is_bayes_rule_over_the_targets_probabilities() -> None:
    target = AcesRaiser()
    assert isinstance(probe_maker(target), ExactProbe)
    weights = raised_preflop_range(target, hole("2h", "3s"))
    aces = [w for h, w in weights.items() if is_pair_of(h, "A")]
    kings = [w for h, w in weights.items() if is_pair_of(h, "K")]
    # Prior uniform over the holdings left; P(raise | AA) = 1, P(raise | KK) = 1/2: six
    # aces combos at weight 1, six kings at 1/2, normalised.
    assert len(aces) == len(kings) == 6 and len(weights) == 12
    assert aces == pytest.approx([1 / 9] * 6)
    assert kings == pytest.approx([1 / 18] * 6)


# -- values -------------------------------------------------------------------------


def test_values_are_the_papers_check_call_to_the_end_formulas() -> None:
    assert call_value(0.25, pot=100, to_call=50) == pytest.approx(0.25 * 150 - 50)
    # Folds half the time (wins the pot of 100); called, 40% of a 300 pot for 100 more.
    assert raise_value(0.5, 0.4, pot=100, cost=100, their_call=100) == pytest.approx(
        0.5 * 100 + 0.5 * (0.4 * 300 - 100)
    )
    board = cards("Ah", "Kd", "7c", "2s", "9h")
    mine = hole("As", "Ac")
    eq = equities(
        mine, board, [hole("Kh", "Ks"), hole("Ad", "3c"), hole("Qh", "Jh")], random.Random(1)
    )
    assert eq.tolist() == [1.0, 1.0, 1.0]
    eq = equities(hole("Qc", "Jc"), board, [hole("Qh", "Jh")], random.Random(1))
    assert eq.tolist() == [0.5]  # the same hand: a split


# -- legal play and fair play ----------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "stack_bb"), [(Variant.NO_LIMIT, 3), (Variant.NO_LIMIT, 30), (Variant.LIMIT, 5)]
)
def test_lbr_only_takes_legal_actions(game: Variant, stack_bb: int) -> None:
    config = LbrConfig(
        game, "random", hands=40, seed=stack_bb, stack_bb=stack_bb, particles=8, runouts=8,
        preflop="lbr", half_pot=True,
    )  # fmt: skip
    pair = LbrPair(config)
    match = Match(config.match(), pair)
    lbr = pair.lbr
    assert lbr is not None
    checked: list[Decision] = []
    original = lbr.decide

    def legal_only(obs: Observation) -> Decision:
        decision = original(obs)
        assert decision.is_legal(obs.legal), (decision, obs.legal)
        checked.append(decision)
        return decision

    lbr.decide = legal_only  # type: ignore[method-assign]
    match.play()
    assert len(checked) >= 20
    assert {d.kind for d in checked} - {FOLD, CHECK, CALL}  # its bets and raises too


def lbr_decisions(target: str, target_hole: tuple[int, int], seed: int = 4) -> list[Decision]:
    """LBR's decisions in one hand, LBR holding QsJs as the button, on a fixed board."""
    config = LbrConfig(Variant.NO_LIMIT, target, hands=2, seed=seed, particles=8, runouts=8)
    pair = LbrPair(config)
    match = Match(config.match(), pair)
    lbr = pair.lbr
    assert lbr is not None
    seen: list[LbrView] = []
    taken: list[Decision] = []
    original = lbr.choose

    def spy(view: LbrView) -> Decision:
        seen.append(view)
        decision = original(view)
        taken.append(decision)
        return decision

    lbr.choose = spy  # type: ignore[method-assign]
    lbr_hole = hole("Qs", "Js")
    board = cards("Ts", "9d", "2c", "5h", "Kc")
    # LBR in seat 1, the target in seat 2; the button (the small blind heads-up) in seat 1.
    match.play_hand([1, 2], [lbr_hole, target_hole], board, button=1)
    assert seen, "LBR never decided"
    for view in seen:
        # Its own view: no simulator state, no card but its own and the board's.
        for f in fields(view):
            value = getattr(view, f.name)
            assert not isinstance(value, SimState), f.name
        assert not set(target_hole) & {*view.hole, *view.board}
        assert view.hole == lbr_hole
    return taken


@pytest.mark.parametrize("target", ["calling-station", "random"])
def test_lbr_decides_the_same_whatever_the_targets_cards(target: str) -> None:
    # Both targets act the same with any cards (a random bot's draws come from its own
    # seeded stream), so LBR must too: it may not see them.
    first = lbr_decisions(target, hole("Ah", "Ad"))
    second = lbr_decisions(target, hole("3h", "4d"))
    assert [(d.kind, d.to) for d in first] == [(d.kind, d.to) for d in second]
    assert len(first) >= 2


def test_probes_copy_the_target_and_draw_their_own_coin_flips() -> None:
    target = RandomBot(seed=5)
    maker = probe_maker(target)
    assert isinstance(maker, SnapshotMaker)
    probe = maker.new(seed=11)
    assert probe.bot is not target and probe.bot.rng.getstate() != target.rng.getstate()  # type: ignore[attr-defined]
    assert isinstance(probe_maker(make_stateless()), DeterministicProbe)
    bot = RandomBot(seed=5)
    reseed(bot, 1)
    assert bot.seed != 5 and bot.rng.getstate() != RandomBot(seed=5).rng.getstate()


def make_stateless() -> Bot:
    from ai.bots import make_bot

    return make_bot("calling-station")


# -- the command ------------------------------------------------------------------------


def test_the_command_reports_mbb_per_hand_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lbr", "--bot", "always-fold", "--game", "limit", "--hands", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (row,) = out["results"]
    assert row["target"] == "always-fold" and row["mbb_per_hand"] == ALWAYS_FOLD_MBB
    assert row["lbr_total_bb"] == -row["target_total_bb"] == 3.0  # 4 hands, 0.75 bb each
    assert main(["lbr", "--bot", "nobody"]) == 2
    assert main(["lbr", "--bot", "always-fold", "--hands", "1"]) == 2


def test_lbr_needs_whole_deals() -> None:
    with pytest.raises(ValueError, match="two hands"):
        play_lbr(LbrConfig(Variant.LIMIT, "always-fold", hands=1))
