"""The learned opponent models: features, fairness, training, versions in a real database."""

from __future__ import annotations

import asyncio
import copy
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pymongo import AsyncMongoClient

from ai.arena import MatchConfig, play_match
from ai.game.observe import observe, step_and_record
from ai.models.dataset import build_dataset
from ai.models.features import FEATURES, features
from ai.models.inference import NumpyNet
from ai.models.model import ModelSet, OpponentModel, packaged_model, shared_models, use_models
from ai.models.public import from_phh, from_record_doc
from ai.models.replay import decisions
from ai.models.stats import PlayerStats, StatsBook
from ai.models.store import ModelStore
from ai.models.train_config import TrainConfig
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE
from ai.sim.state import SimState
from ai.worker.model_sync import ModelSync
from backend.db.embedded import EmbeddedMongo
from holdem.cards import card_index
from holdem.config import TableConfig, Variant
from holdem.phh import parse_phh

DATA = Path(__file__).resolve().parents[1] / "holdem" / "data"
F = {name: k for k, name in enumerate(FEATURES)}


@pytest.fixture(scope="module")
def mongo_url() -> Iterator[str]:
    with EmbeddedMongo(None, test_commands=True) as db:
        yield db.url


def _records(bots: tuple[str, ...], hands: int, seed: int, game: Variant) -> list[dict[str, Any]]:
    config = MatchConfig(game=game, bots=bots, hands=hands, seed=seed, record=True)
    return play_match(config).records


# -- features ---------------------------------------------------------------------


def _limit_spot() -> Any:
    """Heads-up Limit: the button (index 1) raises, the big blind calls; flop Ah 7c 2d,
    the big blind checks: the button to act."""
    cfg = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2)
    board = [card_index(c) for c in ("Ah", "7c", "2d", "9s", "Kd")]
    state = SimState(SimState.new_hand(cfg, {1: 100, 2: 100}, button=2, seed=3).rules,
                     (1, 2), (100, 100), ((0, 1), (4, 5)), board)  # fmt: skip
    history: list[Any] = []
    step_and_record(state, RAISE, 4, history)  # the button (index 1) acts first preflop
    step_and_record(state, CALL, 0, history)
    step_and_record(state, CHECK, 0, history)
    return state, history


def test_features_of_a_hand_made_spot() -> None:
    state, history = _limit_spot()
    obs = observe(state, history)
    assert obs.index == 1 and obs.street == 1
    x = features(obs, PlayerStats())
    assert x[F["flop"]] == 1.0 and x[F["preflop"]] == 0.0
    assert x[F["cost_none"]] == 1.0 and x[F["pot_odds"]] == 0.0
    assert x[F["raises_preflop"]] == 0.25 and x[F["own_raise_preflop"]] == 1.0
    assert x[F["preflop_aggressor"]] == 1.0 and x[F["last_to_raise"]] == 1.0
    assert x[F["ace_on_board"]] == 1.0 and x[F["king_on_board"]] == 0.0
    assert x[F["board_flush_possible"]] == 0.0 and x[F["heads_up"]] == 1.0
    assert x[F["acts_last"]] == 1.0 and x[F["acts_first"]] == 0.0
    assert x[F["raise_allowed"]] == 1.0 and x[F["limit"]] == 1.0
    # The big blind facing a bet: one bet to call, pot odds 2 / (2 + 10).
    step_and_record(state, BET, 2, history)
    x = features(observe(state, history), PlayerStats())
    assert x[F["cost_one_bet"]] == 1.0
    assert x[F["pot_odds"]] == pytest.approx(2 / 12)
    assert x[F["own_call_preflop"]] == 1.0 and x[F["called_before"]] == 1.0


def test_features_never_read_hidden_cards() -> None:
    state, history = _limit_spot()
    other = state.clone()
    other.set_cards([(8, 9), (12, 13)])
    assert (features(observe(state, history), PlayerStats())
            == features(observe(other, history), PlayerStats())).all()  # fmt: skip


# -- fairness -----------------------------------------------------------------------


def test_a_folded_hand_never_reaches_a_training_example() -> None:
    docs = _records(("loki", "calling-station", "random"), 60, 5, Variant.LIMIT)
    folded = [d for d in docs if any(e["kind"] == "fold" for e in d["events"])]
    assert folded
    data, _ = build_dataset([from_record_doc(d) for d in docs])
    # Every unshown hole card replaced, and the field removed: the examples are identical.
    scrambled = copy.deepcopy(docs)
    for doc in scrambled:
        shown = {e["seat"] for e in doc["events"] if e["kind"] == "show"}
        for seat in doc["seats"]:
            if seat["seat"] not in shown:
                seat["hole_cards"] = ["2c", "2d"]
    stripped = copy.deepcopy(docs)
    for doc in stripped:
        for seat in doc["seats"]:
            del seat["hole_cards"]
    for variant in (scrambled, stripped):
        again, _ = build_dataset([from_record_doc(d) for d in variant])
        assert np.array_equal(again.x, data.x) and np.array_equal(again.action, data.action)
    # Cards reach a PublicHand only from a showdown's SHOW events.
    for doc in folded:
        hand = from_record_doc(doc)
        shown_seats = {e["seat"] for e in doc["events"] if e["kind"] == "show"}
        assert {hand.seats[i] for i in hand.shown} == shown_seats


def test_phh_hands_replay_into_public_decisions() -> None:
    path = DATA / "six_max_fl.phh"
    hand = from_phh(parse_phh(path.read_text()), key="phh")
    replayed = list(decisions(hand))
    assert len(replayed) == len(hand.actions)
    assert all(seat in hand.seats for seat in (a.seat for a in hand.actions))


# -- learning ----------------------------------------------------------------------------


def _train(data: Any, config: TrainConfig) -> Any:
    """`ai.models.training.train`, imported here: PyTorch loads in the test process that
    trains (each xdist worker collects this module; most never run these tests)."""
    from ai.models.training import train

    return train(data, config)


def test_a_synthetic_player_with_a_known_policy_is_recovered() -> None:
    docs = _records(("calling-station", "always-raise", "random"), 100, 7, Variant.LIMIT)
    data, book = build_dataset([from_record_doc(d) for d in docs])
    net = NumpyNet(_train(data, TrainConfig(epochs=25, seed=1)))
    probs = net.actions(data.x)
    for name, column in (("always-raise", 2), ("calling-station", 1)):
        rows = data.player == data.players.index(name)
        if name == "always-raise":  # raises whenever a raise is allowed
            rows &= data.x[:, F["raise_allowed"]] == 1.0
        assert (data.action[rows] == column).all()
        assert probs[rows, column].mean() > 0.9
    assert book.get("calling-station").vpip > 0.9


def test_the_model_falls_back_to_the_frequency_tables_without_a_network() -> None:
    state, history = _limit_spot()
    step_and_record(state, BET, 2, history)
    book = StatsBook()
    stats = book.get("seat1")
    stats.counts[1, 1] = [50, 0, 0]  # always folds to a flop bet
    model = OpponentModel(ModelSet.frequency_only(), book)
    probs = model.predict(observe(state, history))
    assert probs.fold > 0.85 and probs.actions.sum() == pytest.approx(1.0)


# -- versions in the database -----------------------------------------------------------


def _tiny_weights(seed: int) -> Any:
    docs = _records(("calling-station", "always-raise"), 40, seed, Variant.NO_LIMIT)
    data, book = build_dataset([from_record_doc(d) for d in docs])
    return _train(data, TrainConfig(epochs=2, seed=seed)), data, book


async def test_versions_are_stored_reloaded_and_switched_in_a_real_database(
    mongo_url: str,
) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url, tz_aware=True)
    db = client["models_versions"]
    store = ModelStore(db)
    first, data, book = _tiny_weights(1)
    second, _, _ = _tiny_weights(2)
    try:
        assert await store.current_version() is None and await store.load() is None
        v1 = await store.publish(first, {"calling-station": (second, 300)}, {"log_loss": 0.5}, None)
        assert v1 is not None and await store.current_version() == v1
        loaded = await store.load()
        assert loaded is not None and loaded.generic is not None
        assert np.allclose(loaded.generic.actions(data.x), NumpyNet(first).actions(data.x))
        assert loaded.players["calling-station"].decisions == 300
        # A version published against a stale pointer is kept but never made current.
        v2 = await store.publish(second, {}, {"log_loss": 0.4}, v1)
        assert v2 is not None and await store.current_version() == v2
        assert await store.publish(first, {}, {}, v1) is None
        assert await store.current_version() == v2
        assert (await store.metrics(v2))["log_loss"] == 0.4
        await store.save_stats(book, ["always-raise"])
        stats = await store.stats(["always-raise", "nobody"])
        assert list(stats) == ["always-raise"]
        assert stats["always-raise"].hands == book.get("always-raise").hands
        # A decision process switches to the current version and loads the statistics.
        sync = ModelSync(mongo_url.rstrip("/") + "/models_versions")
        seen: dict[str, PlayerStats] = {}
        before = shared_models()
        try:
            await asyncio.to_thread(sync.refresh, ["always-raise"], seen.update)
            assert sync.version == v2 and shared_models().version == v2
            assert seen["always-raise"].hands == book.get("always-raise").hands
        finally:
            sync.close()
            use_models(before)
    finally:
        await client.drop_database("models_versions")
        await client.close()


async def test_the_training_lease_lets_one_trainer_work_at_a_time(mongo_url: str) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url, tz_aware=True)
    store = ModelStore(client["models_lease"])
    try:
        assert await store.take_lease("a", 30)
        assert await store.take_lease("a", 30)  # renewing one's own
        assert not await store.take_lease("b", 30)
        assert await store.take_lease("b", -1) is False
        await store.take_lease("a", -1)  # a's lease runs out
        assert await store.take_lease("b", 30)
    finally:
        await client.drop_database("models_lease")
        await client.close()


def test_showdown_train_reports_cross_validated_figures(tmp_path: Path) -> None:
    from ai.arena.record import write_records

    records = tmp_path / "arena.jsonl"
    write_records(
        records, _records(("loki", "calling-station", "always-raise"), 90, 3, Variant.LIMIT)
    )
    out = tmp_path / "report"
    result = subprocess.run(
        [sys.executable, "-m", "showdown.cli", "train", "--records", str(records),
         "--folds", "2", "--epochs", "3", "--out", str(out), "--json"],
        capture_output=True, text=True, check=True, timeout=240,
    )  # fmt: skip
    import json

    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["examples"] > 100 and 0 < figures["accuracy"] <= 1
    assert set(figures["baselines"]) == {"majority", "frequency", "bots"}
    assert figures["log_loss"] < figures["baselines"]["majority"]["log_loss"]
    # Recorded matches also score the holding-conditioned prediction (with the true cards).
    assert set(figures["holding_conditioned"]) >= {"all", "bot:loki", "bot:calling-station"}
    assert 0 < figures["holding_conditioned"]["all"]["accuracy"] <= 1
    for name in ("report.md", "metrics.json", "confusion.png", "calibration.png"):
        assert (out / name).stat().st_size > 0
    assert "fold 2/2 done" in result.stderr


async def test_online_training_never_holds_up_the_workers_answers(mongo_url: str) -> None:
    """A trainer process (`showdown train --watch`, as a worker starts it) fits a version while
    a decision process keeps answering; the answers go on throughout, and the next query
    after the version is published uses it."""
    from datetime import UTC, datetime, timedelta

    from test_worker_decider import query_for, seated_table

    from ai.worker import Decider
    from holdem.actions import Action
    from protocol.messages import QueryPurpose

    name = "models_online"
    url = mongo_url.rstrip("/") + "/" + name
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url, tz_aware=True)
    db = client[name]
    start = datetime(2026, 1, 1, tzinfo=UTC)
    docs = _records(("calling-station", "always-raise", "random"), 240, 9, Variant.LIMIT)
    await db.hands.insert_many(
        [
            {"_id": f"h{k}", "played_at": start + timedelta(seconds=k), "record": doc}
            for k, doc in enumerate(docs)
        ]
    )
    before = shared_models()
    env = {**os.environ, "MONGODB_URL": url}
    trainer = subprocess.Popen(  # noqa: ASYNC220 - started once, not awaited
        [sys.executable, "-m", "showdown.cli", "train", "--watch", "--epochs", "2"],
        env=env, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    decider = Decider(url)
    answered_while_training = 0
    version = None
    try:
        table = seated_table(Variant.LIMIT, 3, seed=2)
        for n in range(20_000):
            if table.hand is None or table.hand.is_over:
                table.start_hand()
            query = query_for(table, "rational", QueryPurpose.BOT, n)
            answer = await asyncio.to_thread(decider.answer, query, 0.5)
            table.act(query.seat, Action(kind=answer.action, amount=answer.amount))
            lease = await db.training.find_one({"_id": "lease"})
            pointer = await db.model_pointer.find_one({"_id": "current"})
            if pointer is not None:
                version = pointer["version"]
                break
            if lease is not None:
                answered_while_training += 1
            assert trainer.poll() is None, "the trainer stopped"
        assert version is not None
        assert answered_while_training >= 3
        # The reads rest on every stored hand: the trainer keeps each player's statistics.
        stored = await db.opponent_stats.find_one({"_id": "calling-station"})
        assert stored is not None, [d["_id"] async for d in db.opponent_stats.find({})]
        assert stored["hands"] == len(docs)
        # The very next query switches to the published version.
        if table.hand is None or table.hand.is_over:
            table.start_hand()
        query = query_for(table, "loki", QueryPurpose.BOT, 99_999)
        await asyncio.to_thread(decider.answer, query, 0.5)
        assert shared_models().version == version
    finally:
        trainer.terminate()
        trainer.wait(timeout=30)
        use_models(before)
        await client.drop_database(name)
        await client.close()


# -- statistics and weight tables ------------------------------------------------------------


def test_statistics_over_a_few_hands() -> None:
    from ai.game.observation import ActionRecord

    book = StatsBook()
    units = (2, 2, 4, 4)
    # Hand 1: "a" raises preflop, bets the flop, calls a raise on the turn, folds the river.
    book.ingest("h1", ["a", "b"], [
        ActionRecord(0, 0, RAISE, 4, 2, 3), ActionRecord(1, 0, CALL, 4, 2, 6),
        ActionRecord(0, 1, BET, 2, 0, 8), ActionRecord(1, 1, CALL, 2, 2, 10),
        ActionRecord(1, 2, BET, 4, 0, 12), ActionRecord(0, 2, RAISE, 8, 4, 16),
        ActionRecord(1, 2, CALL, 8, 4, 24), ActionRecord(1, 3, BET, 4, 0, 28),
        ActionRecord(0, 3, FOLD, 0, 4, 32),
    ], units)  # fmt: skip
    # Hand 2: "a" checks the big blind (not voluntary) and folds to a flop bet.
    book.ingest("h2", ["b", "a"], [
        ActionRecord(0, 0, CALL, 2, 1, 3), ActionRecord(1, 0, CHECK, 0, 0, 4),
        ActionRecord(1, 1, CHECK, 0, 0, 4), ActionRecord(0, 1, BET, 2, 0, 4),
        ActionRecord(1, 1, FOLD, 0, 2, 6),
    ], units)  # fmt: skip
    book.ingest("h2", ["b", "a"], [], units)  # the same hand again adds nothing
    a, b = book.get("a"), book.get("b")
    assert (a.hands, a.vpip_hands, a.pfr_hands) == (2, 1, 1)
    assert (b.hands, b.vpip_hands, b.pfr_hands) == (2, 2, 0)
    assert a.counts[1, 0, 2] == 1 and a.counts[1, 1, 0] == 1 and a.counts[2, 1, 2] == 1
    assert a.counts.sum() == 7 and b.counts.sum() == 7
    assert a.aggression == 2.0  # postflop: a flop bet and a turn raise, no call
    # Prior-smoothed: no data in a context gives the generic shares.
    assert PlayerStats().frequencies(3, 2) == pytest.approx((0.62, 0.32, 0.06))
    assert PlayerStats.from_doc(a.to_doc()).counts.tolist() == a.counts.tolist()


def test_statistics_are_split_by_how_many_players_are_in_the_hand() -> None:
    from ai.game.observation import ActionRecord

    book = StatsBook()
    units = (2, 2, 4, 4)
    # Three players see the flop; "a" bets three-way, "c" folds, "a" bets heads-up.
    records = [
        ActionRecord(0, 1, BET, 2, 0, 6), ActionRecord(1, 1, CALL, 2, 2, 8),
        ActionRecord(2, 1, FOLD, 0, 2, 10),
    ]  # fmt: skip
    book.ingest("h", ["a", "b", "c"], records, units)
    # Fed again with more of the hand: the fold already counted still counts.
    book.ingest("h", ["a", "b", "c"], [*records, ActionRecord(0, 2, BET, 4, 0, 10)], units)
    a = book.get("a")
    assert a.crowd_counts[1, 0, 1].tolist() == [0, 0, 1]  # three in the hand
    assert a.crowd_counts[2, 0, 0].tolist() == [0, 0, 1]  # heads-up
    assert book.get("c").crowd_counts[1, 1, 1].tolist() == [1, 0, 0]
    assert a.crowd_counts.sum(axis=2).tolist() == a.counts.tolist()
    # Smoothed towards the player's shares over every crowd, not the generic prior.
    assert a.crowd_frequencies(3, 1, 2) == pytest.approx(a.frequencies(3, 1))
    assert a.crowd_frequencies(2, 0, 0)[2] > a.frequencies(2, 0)[2]
    again = PlayerStats.from_doc(a.to_doc())
    assert again.crowd_counts.tolist() == a.crowd_counts.tolist()
    # Documents stored before the split still load.
    old = {k: v for k, v in a.to_doc().items() if k != "crowd_counts"}
    assert PlayerStats.from_doc(old).crowd_counts.sum() == 0


def test_weight_tables_follow_the_models_prediction() -> None:
    from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND
    from ai.models.ranges import MIN_WEIGHT, RangeTracker, holding_triples

    strength = np.linspace(0.0, 1.0, 1326)
    fold, call, raise_ = holding_triples((0.5, 0.3, 0.2), strength)
    assert np.allclose(fold + call + raise_, 1.0)
    assert raise_[-1] == 1.0 and raise_[0] == 0.0 and fold[0] == 1.0
    assert raise_.mean() == pytest.approx(0.2, abs=0.01)
    assert (fold + call).mean() == pytest.approx(0.8, abs=0.01)
    # A player who always calls (or always raises) does it with every holding.
    for shares, column in (((0.0, 1.0, 0.0), 1), ((0.0, 0.0, 1.0), 2)):
        assert (holding_triples(shares, strength)[column] == 1.0).all()
    # A preflop raise in the model's eyes narrows the raiser's range to strong holdings.
    cfg = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2)
    state = SimState.new_hand(cfg, {1: 100, 2: 100}, button=2, seed=3)
    history: list[Any] = []
    step_and_record(state, RAISE, 4, history)  # the button (index 1) raises
    obs = observe(state, history)
    tracker = RangeTracker()
    tracker.update(obs, OpponentModel(ModelSet.frequency_only()))
    weights = tracker.weights[1]
    aces = [k for k in range(1326) if COMBO_FIRST[k] >> 2 == 12 and COMBO_SECOND[k] >> 2 == 12]
    seven_deuce = [k for k in range(1326) if {COMBO_FIRST[k] >> 2, COMBO_SECOND[k] >> 2} == {5, 0}]
    assert weights[aces].min() == 1.0
    assert weights[seven_deuce].max() < 2 * MIN_WEIGHT
    grid = tracker.grid(1, ())
    assert grid[0][0] == 1.0 and grid[12][7] < 2 * MIN_WEIGHT  # AA kept, 72o (row 2, col 7) gone
    assert tracker.width(0) == 1.0  # the player to act is not re-weighted by its own action


def test_ranges_with_own_play_read_a_bet_by_the_players_own_frequency_there() -> None:
    """A player seen betting every flop checked to it heads-up (and a third of them
    three-way) says little by a heads-up flop bet: with `own_play` it is read as a bet
    made nearly always; read by the network alone, as often as the network says."""
    from ai.models.ranges import RangeTracker

    cfg = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2)
    state = SimState.new_hand(cfg, {1: 100, 2: 100}, button=2, seed=3)
    history: list[Any] = []
    for kind, to in ((CALL, 2), (CHECK, 0)):
        step_and_record(state, kind, to, history)
    spot = observe(state, history)  # the big blind (index 0) first on the flop
    assert spot.index == 0 and spot.street == 1 and spot.n_in_hand == 2
    model = OpponentModel(packaged_model())
    stats = model.book.get(spot.player_id(0))
    stats.hands = 1000
    stats.counts[1:, 1:] = (100, 100, 20)  # answers to bets, as the network expects
    stats.counts[1, 0] = (0, 200, 400)
    stats.crowd_counts[1, 0, 0] = (0, 0, 300)
    stats.crowd_counts[1, 0, 1] = (0, 200, 100)
    stats.touch()
    predicted = model.predict(spot).actions

    def shares(own_play: bool) -> tuple[float, float, float]:
        return RangeTracker(own_play=own_play).action_shares(spot, model, predicted)

    assert shares(False) == tuple(predicted)
    assert shares(True)[0] == 0.0 and shares(True)[2] > 0.95 > predicted[2] + 0.1
    assert sum(shares(True)) == pytest.approx(1.0)
    stats.crowd_counts[1, 0] = 0  # seen only over every crowd: two thirds of the time
    assert shares(True)[2] == pytest.approx(0.66, abs=0.03)
    # With the range moved by it, the bet keeps most of the range.
    tracker = RangeTracker(own_play=True)
    tracker.update(spot, model)
    before = tracker.width(0)
    step_and_record(state, BET, 2, history)
    tracker.update(observe(state, history), model)
    assert tracker.width(0) > 0.55 * before


def test_own_play_is_read_only_with_at_most_own_play_in_hand_players_in_the_hand() -> None:
    """Three-handed, the same player's flop bet with nothing to call is read by its own
    frequencies once the pot is two-handed, and by the network while three are in."""
    from ai.models.ranges import RangeTracker

    cfg = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2)
    model = OpponentModel(packaged_model())

    def flop_spot(button_folds: bool) -> Any:
        state = SimState.new_hand(cfg, {1: 100, 2: 100, 3: 100}, button=3, seed=3)
        history: list[Any] = []
        first = (FOLD, 0) if button_folds else (CALL, 2)
        for kind, to in (first, (CALL, 2), (CHECK, 0)):
            step_and_record(state, kind, to, history)
        return observe(state, history)  # the small blind (index 0) first on the flop

    two, three = flop_spot(True), flop_spot(False)
    assert (two.index, two.street, two.n_in_hand) == (0, 1, 2) and three.n_in_hand == 3
    stats = model.book.get(two.player_id(0))
    stats.counts[1, 0] = (0, 300, 300)  # checks every two-handed flop, bets three-handed
    stats.crowd_counts[1, 0, 0] = (0, 300, 0)
    stats.crowd_counts[1, 0, 1] = (0, 0, 300)
    stats.touch()
    tracker = RangeTracker(own_play=True)
    tracker.own_play_in_hand = 2
    predicted = model.predict(two).actions
    assert tracker.action_shares(two, model, predicted)[2] < predicted[2] - 0.2
    predicted = model.predict(three).actions
    assert tracker.action_shares(three, model, predicted) == tuple(predicted)
    tracker.own_play_in_hand = 3
    assert tracker.action_shares(three, model, predicted) != tuple(predicted)
    # Counted elsewhere (`VersusBook.with_us`): a player never seen there is read by
    # the network, one seen checking every two-handed flop there as checking.
    tracker.own_stats = lambda player: PlayerStats()
    assert tracker.action_shares(three, model, predicted) == tuple(predicted)
    tracker.own_stats = lambda player: stats
    predicted = model.predict(two).actions
    assert tracker.action_shares(two, model, predicted)[2] < predicted[2] - 0.2


def test_no_limit_ranges_read_a_bigger_bet_as_a_stronger_holding() -> None:
    from ai.models.ranges import RangeTracker, holding_strengths

    cfg = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    model = OpponentModel(ModelSet.frequency_only())
    strength = holding_strengths((), 1)

    def raised_to(to: int, trust: float) -> np.ndarray:
        state = SimState.new_hand(cfg, {1: 200, 2: 200}, button=2, seed=3)
        history: list[Any] = []
        step_and_record(state, RAISE, to, history)  # the button (index 1) raises
        tracker = RangeTracker(size_trust=trust)
        tracker.update(observe(state, history), model)
        weights: np.ndarray = tracker.weights[1]
        return weights

    def mean_strength(weights: np.ndarray) -> float:
        return float((weights * strength).sum() / weights.sum())

    # Size-blind, a min-raise and an all-in say the same; reading sizes, the all-in is
    # stronger than the half-pot raise, which is weaker than the size-blind reading.
    assert np.allclose(raised_to(4, 0.0), raised_to(200, 0.0))
    blind = mean_strength(raised_to(4, 0.0))
    small, shove = mean_strength(raised_to(4, 0.5)), mean_strength(raised_to(200, 0.5))
    assert small < blind < shove
    assert mean_strength(raised_to(200, 1.0)) > shove  # trusting the size fully: stronger still
    # The shove's range keeps the very best holdings at full weight.
    assert raised_to(200, 0.5)[np.argmax(strength)] == 1.0


def test_no_limit_ranges_learn_how_a_player_sizes_its_bets() -> None:
    from ai.models.ranges import RangeTracker

    cfg = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    model = OpponentModel(ModelSet.frequency_only())
    tracker = RangeTracker(size_trust=1.0)
    widths = []
    for hand in range(40):
        state = SimState.new_hand(cfg, {1: 200, 2: 200}, button=2, seed=hand)
        history: list[Any] = []
        step_and_record(state, RAISE, 200, history)  # the button shoves, every hand
        tracker.update(observe(state, history, f"hand-{hand}"), model)
        widths.append(tracker.width(1))
    # The model expects few shoves, so the first reads as the very top of the raises;
    # a player seen shoving every raise is read as shoving all of them.
    assert widths[0] < 0.01
    assert widths[-1] > 10 * widths[0]
    assert tracker.sizes.counts[("seat2", 1)].tolist() == [0, 0, 0, 0, 0, 40]


def test_ranges_with_potential_count_a_draw_for_what_it_will_become() -> None:
    from ai.game.summary import HandSummary
    from ai.math.range_strength import LEX_INDEX
    from ai.models.ranges import RangeTracker
    from ai.search.reliability import Reliability

    cfg = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    model = OpponentModel(ModelSet.frequency_only())
    state = SimState.new_hand(cfg, {1: 200, 2: 200}, button=2, board=["Ah", "7h", "2c"], seed=1)
    history: list[Any] = []
    for kind, to in ((CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 4)):  # seat 2 bets the flop
        step_and_record(state, kind, to, history)
    obs = observe(state, history)
    flush_draw = LEX_INDEX[card_index("Kh"), card_index("Qh")]
    no_draw = LEX_INDEX[card_index("Kc"), card_index("Qd")]
    weights = {}
    for potential in (False, True):
        tracker = RangeTracker(size_trust=0.0, potential=potential)
        tracker.update(obs, model)
        weights[potential] = tracker.weights[history[-1].player]
    # By its rank now the draw is no better than king-queen offsuit; counted for its
    # runouts, a bet keeps it far more than the hand without the draw.
    assert weights[False][flush_draw] == pytest.approx(weights[False][no_draw], rel=0.5)
    assert weights[True][flush_draw] > 2 * weights[True][no_draw]
    assert weights[True][flush_draw] > weights[False][flush_draw]
    # The reliability read measures a shown bettor the same way, as a rank among the
    # live holdings: the draw bet the flop with a top-fifth holding, not a median one.
    plain, drawn = Reliability(), Reliability(potential=True)
    board = tuple(card_index(c) for c in ("Ah", "7h", "2c", "9s", "4d"))
    shown = {history[-1].player: (card_index("Kh"), card_index("Qh"))}
    summary = HandSummary("h", ["a", "b"], history, shown, board)
    plain.observe(summary)
    drawn.observe(summary)
    assert drawn.sums == {"b": pytest.approx(0.83, abs=0.01)}
    assert plain.sums == {"b": pytest.approx(0.61, abs=0.01)}


def test_showdown_train_reads_phh_files(tmp_path: Path) -> None:
    import json

    result = subprocess.run(
        [sys.executable, "-m", "showdown.cli", "train", "--phh", str(DATA), "--folds", "2",
         "--epochs", "2", "--out", str(tmp_path), "--json"],
        capture_output=True, text=True, check=True, timeout=240,
    )  # fmt: skip
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["examples"] > 20
    assert "PHH files under" in (tmp_path / "report.md").read_text()


def test_a_players_own_network_is_blended_in_by_how_much_data_it_had() -> None:
    import torch

    from ai.models.model import BLEND_DECISIONS, PlayerNet
    from ai.models.training import OpponentNet

    torch.manual_seed(0)
    generic, own = (NumpyNet(OpponentNet(16).export()) for _ in range(2))
    state, history = _limit_spot()
    obs = observe(state, history)
    player = obs.player_id(obs.index)
    x = features(obs, PlayerStats())
    a_generic, a_own = generic.actions(x), own.actions(x)
    for tuned_on, weight in ((BLEND_DECISIONS, 1.0), (BLEND_DECISIONS // 2, 0.5), (0, 0.0)):
        models = ModelSet("v", generic, {player: PlayerNet(own, tuned_on)})
        predicted = OpponentModel(models).predict(obs).actions
        assert predicted == pytest.approx((1 - weight) * a_generic + weight * a_own, abs=1e-6)
    other = ModelSet("v", generic, {"someone else": PlayerNet(own, BLEND_DECISIONS)})
    assert OpponentModel(other).predict(obs).actions == pytest.approx(a_generic, abs=1e-6)


def test_showdown_train_publishes_from_the_embedded_database(tmp_path: Path) -> None:
    """The default source: the embedded database under --data-dir (as `showdown serve` keeps
    it, with its generated credentials); --publish stores a version the workers load."""
    import json
    from datetime import UTC, datetime, timedelta

    from pymongo import MongoClient

    docs = _records(("loki", "calling-station", "always-raise"), 80, 4, Variant.LIMIT)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with EmbeddedMongo(tmp_path / "mongo") as db:
        client: MongoClient[dict[str, Any]] = MongoClient(db.url, tz_aware=True)
        client.showdown.hands.insert_many(
            [
                {"_id": f"h{k}", "played_at": start + timedelta(seconds=k), "record": doc}
                for k, doc in enumerate(docs)
            ]
        )
        client.close()
    environment = {**os.environ, "MONGODB_URL": ""}
    result = subprocess.run(
        [sys.executable, "-m", "showdown.cli", "train", "--data-dir", str(tmp_path),
         "--folds", "2", "--epochs", "2", "--out", str(tmp_path / "report"), "--publish",
         "--json"],
        capture_output=True, text=True, check=True, timeout=300, env=environment,
    )  # fmt: skip
    assert json.loads(result.stdout.strip().splitlines()[-1])["examples"] > 100
    assert "published version" in result.stderr
    with EmbeddedMongo(tmp_path / "mongo") as db:
        client = MongoClient(db.url, tz_aware=True)
        pointer = client.showdown.model_pointer.find_one({"_id": "current"})
        assert pointer is not None
        assert client.showdown.models.find_one({"_id": pointer["version"]}) is not None
        assert client.showdown.opponent_stats.find_one({"_id": "loki"})["hands"] == len(docs)
        client.close()
