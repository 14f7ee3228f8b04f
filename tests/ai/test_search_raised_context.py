"""The fourth cost context: an opponent whose own bet was raised answers by its own
tables' context (`ai.search.cost_context.RAISED`), not by its answers to a bet into its
check; the tables start it from the player's pooled one-bet estimate times the
blueprint's ratio between the two situations and move it by the player's own answers to
our raises of its bets; its blueprint weight is the other contexts', by all decisions;
and the compiled and Python opponents agree on it."""

from __future__ import annotations

import numpy as np
from search_policy import context_of, opponent_act
from search_spots import LIMIT2, bot, spot
from test_sim_arrays import EV

from ai.game.observation import ActionRecord
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import holding_strengths, holding_triples
from ai.search import kernel as K
from ai.search.blueprint_prior import blueprint_shares, evidence_weight, raised_shares
from ai.search.cost_context import ONE_BET, RAISED
from ai.search.opponents import VERSUS_WEIGHT, OpponentTables, build_tables, raised_row
from ai.search.rollout_blueprint import empty_arrays
from ai.sim import arrays as A
from ai.sim.rules import BET, CALL, CHECK, RAISE

FLOP = 1
# Heads-up Limit: preflop limped and checked; on the flop the first to act bets, the
# other raises: the bettor, to act, faces a raise of its own bet.
RAISED_FLOP = [(CALL, 0), (CHECK, 0), (BET, 2), (RAISE, 4)]


def split_tables(n: int) -> OpponentTables:
    """Everyone folds to a bet into its check and re-raises a raise of its own bet."""
    shares = np.zeros((n, 4, 4, 3))
    shares[..., 1] = 1.0
    shares[:, :, ONE_BET] = (1.0, 0.0, 0.0)
    shares[:, :, RAISED] = (0.0, 0.0, 1.0)
    return OpponentTables.of(shares, np.full((n, 4, 4, 6), 1 / 6))


def test_a_raise_of_its_own_bet_is_answered_by_its_own_context() -> None:
    obs = spot(LIMIT2, {}, RAISED_FLOP, board="Kd8s3c")
    assert obs.sim is not None and obs.street == FLOP
    state = obs.sim
    i = obs.index
    me = 1 - i
    tables = split_tables(2)
    call = state.max_bet - state.bets[i]
    pot = state.pot
    context = context_of(call, pot, state.rules.min_increment[FLOP], True, FLOP, state.bets[i])
    assert context == RAISED
    # The Python reference re-raises ...
    choice, _ = opponent_act(tables, None, -1, state, i, context, 0.5, 0, lambda: 0.5, 1.0)
    assert choice == 2
    # ... and so does the kernel's walk to our turn (a raise keys as street * 64 + 16).
    st_ = A.state_array(state)
    holes, runout = A.cards_arrays(state)
    stream = np.zeros(1, dtype=np.int64)
    K.reseed(stream, 7)
    key = np.zeros(K.MAX_KEY + 8, dtype=np.int64)
    cur = np.array([-1], dtype=np.int64)
    strength = np.full((2, 4), 0.5)
    length = K.advance(st_, A.rules_array(state.rules), holes, runout, strength,
                       K.table_array(tables), me, stream, key, 0, EV, empty_arrays(), cur,
                       np.zeros((2, 4), dtype=np.int64))  # fmt: skip
    assert length == 1 and key[0] == FLOP * 64 + 16
    # A bet into its check is still the one-bet context: folded.
    into_check = spot(LIMIT2, {}, [(CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 2)], board="Kd8s3c")
    assert into_check.sim is not None
    s = into_check.sim
    j = into_check.index
    assert context_of(2, s.pot, 2, True, FLOP, s.bets[j]) == ONE_BET


def with_ratio(pooled: np.ndarray, them: int) -> np.ndarray:
    """`pooled` times the blueprint's raised over one-bet answers on the flop, renormalised."""
    row = pooled * raised_shares()[them, FLOP] / blueprint_shares()[them, FLOP, ONE_BET]
    return row / row.sum()


def test_the_tables_start_from_the_pooled_estimate_times_the_blueprints_ratio() -> None:
    obs = spot(LIMIT2, {}, RAISED_FLOP, board="Kd8s3c")
    them = obs.index
    me = 1 - them
    obs = spot(LIMIT2, {}, RAISED_FLOP[:3], board="Kd8s3c")  # our decision: its bet
    assert obs.index == me
    model = OpponentModel(ModelSet.frequency_only())
    prior = raised_shares()
    unseen = build_tables(obs, model, blueprint_play=True, raised_prior=prior)
    # Unread: the population's one-bet answer times the blueprint's ratio (not the
    # blueprint's raised answer itself).
    expected = with_ratio(unseen.shares[them, FLOP, ONE_BET], them)
    assert np.allclose(unseen.shares[them, FLOP, RAISED], expected)
    assert not np.allclose(expected, prior[them, FLOP], atol=0.02)
    assert unseen.blueprint_raised[them][FLOP] == 1.0
    # It folded to 20 of our bets into its check and re-raised our raise of its flop bet
    # 20 times in 20: the pooled estimate takes both (main's one-bet context), the
    # context's own answers then move it by their count.
    counts = np.zeros((4, 4, 3))
    counts[FLOP, ONE_BET, 0] = 20
    counts[FLOP, RAISED, 2] = 20
    versus = [None, None]
    versus[them] = counts
    seen = build_tables(obs, model, versus=versus, blueprint_play=True, raised_prior=prior)
    w_all = 40 / (40 + VERSUS_WEIGHT)
    pooled = (1 - w_all) * unseen.shares[them, FLOP, ONE_BET] + w_all * np.array([0.5, 0, 0.5])
    w = 20 / (20 + VERSUS_WEIGHT)
    expected = (1 - w) * with_ratio(pooled, them) + w * np.array([0.0, 0.0, 1.0])
    assert np.allclose(seen.shares[them, FLOP, RAISED], expected)
    assert np.allclose(
        seen.shares[them, FLOP, RAISED], raised_row(pooled, prior[them, FLOP],
        blueprint_shares()[them, FLOP, ONE_BET], counts[FLOP, RAISED])
    )  # fmt: skip
    # The blueprint plays its cards there by all its decisions (none seen), as elsewhere,
    # not by the 20 answers in the one context.
    assert seen.blueprint_raised[them][FLOP] == seen.blueprint[them] == 1.0
    # Answers to our raises of its bets do not move its answer to a bet into its check.
    w_check = 20 / (20 + VERSUS_WEIGHT)
    check = (1 - w_check) * unseen.shares[them, FLOP, ONE_BET] + w_check * np.eye(3)[0]
    assert np.allclose(seen.shares[them, FLOP, ONE_BET], check)
    # Without the split (no blueprint behind the table) the answers pool as before.
    plain = build_tables(obs, model, versus=versus)
    assert np.allclose(plain.shares[them, FLOP, ONE_BET], pooled)
    assert np.allclose(plain.shares[them, FLOP, RAISED], plain.shares[them, FLOP, ONE_BET])


def test_the_blueprint_weight_there_falls_with_all_its_decisions() -> None:
    obs = spot(LIMIT2, {}, RAISED_FLOP[:3], board="Kd8s3c")
    them = 1 - obs.index
    model = OpponentModel(ModelSet.frequency_only())
    stats = model.book.get(obs.player_id(them))
    for _ in range(200):
        stats.add(2, 0, 0, 1)  # 200 turn checks, none of them in the context
    tables = build_tables(
        obs, model, blueprint_play=True, raised_prior=raised_shares(), evidence_k=200.0
    )
    assert tables.blueprint_raised[them] == [0.5] * 4
    assert tables.blueprint[them] == 0.5


def test_the_reading_of_its_answer_to_our_raise_moves_by_all_its_decisions() -> None:
    """Its re-raise of our raise is read by the blueprint's per-bucket strategy moved
    towards the thresholds of the tables' shares there by the evidence of all its
    decisions, as elsewhere: answers in that context alone do not move it."""
    obs = spot(LIMIT2, {}, RAISED_FLOP, board="Kd8s3c")
    them, me = obs.index, 1 - obs.index
    players = [obs.player_id(0), obs.player_id(1)]
    reader = bot()
    model = np.zeros(1326)
    unseen = reader._holding_reading(obs, RAISE, model)
    assert unseen is not None
    history = [
        ActionRecord(them, FLOP, BET, 2, 0, 4),
        ActionRecord(me, FLOP, RAISE, 4, 2, 6),
        ActionRecord(them, FLOP, RAISE, 6, 2, 10),
        ActionRecord(me, FLOP, CALL, 6, 2, 14),
    ]
    for k in range(20):
        reader.versus.ingest(f"h{k}", players, history, me, (2, 2, 4, 4))
    assert reader.versus.counts_of(players[them])[FLOP, RAISED].tolist() == [0, 0, 20]
    read = reader._holding_reading(obs, RAISE, model)
    assert read is not None and np.allclose(read, unseen)
    # With its decisions seen, the same weight as elsewhere, towards the tables' shares.
    stats = reader.model.book.get(players[them])
    for _ in range(200):
        stats.add(2, 0, 0, 1)
    w = evidence_weight(200, reader.config.evidence_k)
    assert 0 < w < 1
    row = reader._raised_shares(obs)
    assert row[2] > raised_shares()[them, FLOP, 2]  # its 20 re-raises move it
    strength = holding_strengths(obs.board, 1)
    triple = holding_triples((float(row[0]), float(row[1]), float(row[2])), strength)
    read = reader._holding_reading(obs, RAISE, model)
    assert read is not None
    assert np.allclose(read, (1 - w) * unseen + w * triple[2])
