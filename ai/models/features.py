"""The inputs of the opponent model: one decision's public context as numbers in about 0..1.

Poki's inputs (pot odds, bets to call, committed chips, called before, last to
raise, players, heads-up, acts first/last, street) and the thesis agent's
(raises this street, position, ace/king on board), plus what both lacked
(DOMAIN.md §3): the whole betting history of the hand (raises per street, the
player's own line on every earlier street, the hand's aggression ratio), board
texture (pairs, flush and straight possibilities, high card), stack-to-pot
ratio and bet size relative to the pot, and the player's own statistics (the
frequency-table model) so that one population network fits every type of player.

Only public fields of the Observation are read: never `hole` nor the cards of
`sim`, which in training are placeholders (tests/ai/test_models_features.py
checks that re-dealing the hidden cards leaves the features unchanged).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.models.stats import PlayerStats, cost_bucket
from ai.sim.rules import BET, CALL, CHECK, PREFLOP

FEATURES: tuple[str, ...] = (
    "preflop", "flop", "turn", "river",
    "pot_odds", "cost_none", "cost_one_bet", "cost_two_bets",
    "raises_this_street", "hand_aggression_ratio",
    "invested_voluntarily", "called_before", "last_to_raise", "raised_this_street",
    "players_dealt", "players_in_hand", "heads_up", "acts_first", "acts_last",
    "position", "to_act_behind", "preflop_aggressor",
    "ace_on_board", "king_on_board", "board_paired", "board_two_suited",
    "board_flush_possible", "board_straight_possible", "board_high_card",
    "limit", "stack_to_pot", "bet_to_pot", "stack_in_bb",
    "raises_preflop", "raises_flop", "raises_turn",
    "own_call_preflop", "own_raise_preflop", "own_call_flop", "own_raise_flop",
    "own_call_turn", "own_raise_turn",
    "last_action_raise", "callers_this_street", "raise_allowed",
    "stat_vpip", "stat_pfr", "stat_aggression", "stat_hands",
    "stat_fold_here", "stat_call_here", "stat_raise_here",
)  # fmt: skip
N_FEATURES = len(FEATURES)
# Columns that say which actions are illegal: fold when checking is free, a raise when
# none is allowed. The network's logits for those are masked, in training and inference.
NO_FOLD_COLUMN = FEATURES.index("cost_none")
RAISE_COLUMN = FEATURES.index("raise_allowed")
MASK = -1e9
FloatArray = npt.NDArray[np.float32]
_NO_BOARD = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_LOG_101 = math.log(101.0)
_LOG_1001 = math.log(1001.0)


def board_texture(board: tuple[int, ...]) -> tuple[float, float, float, float, float, float, float]:
    """(ace, king, paired, two suited, flush possible, straight possible, high card) of a board.

    Cards are ints rank * 4 + suit (holdem.cards.card_index).

    >>> from holdem.cards import card_index
    >>> board_texture(tuple(card_index(c) for c in ("Ah", "Kh", "Qh")))
    (1.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0)
    >>> board_texture(())
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    """
    if not board:
        return (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    ranks = [c >> 2 for c in board]
    suits = [0, 0, 0, 0]
    for c in board:
        suits[c & 3] += 1
    most = max(suits)
    distinct = set(ranks)
    if 12 in distinct:
        distinct.add(-1)  # the ace plays low in the wheel
    # Three distinct ranks within a five-rank window: a straight is possible.
    straight = any(
        sum(1 for r in range(low, low + 5) if r in distinct) >= 3 for low in range(-1, 9)
    )
    return (
        1.0 if 12 in ranks else 0.0,
        1.0 if 11 in ranks else 0.0,
        1.0 if len(set(ranks)) < len(ranks) else 0.0,
        1.0 if most == 2 else 0.0,
        1.0 if most >= 3 else 0.0,
        1.0 if straight else 0.0,
        max(ranks) / 12.0,
    )


def features(obs: Observation, stats: PlayerStats) -> FloatArray:
    """The feature vector of `obs.index`'s decision at `obs` (order: FEATURES)."""
    return np.array(feature_list(obs, stats), dtype=np.float32)


def feature_list(obs: Observation, stats: PlayerStats) -> list[float]:
    i = obs.index
    n = obs.n
    street = obs.street
    legal = obs.legal
    to_call = legal.call_amount
    pot = obs.pot
    unit = obs.bet_units[street]
    cost = cost_bucket(to_call, unit, pot, obs.limit)
    raises = [0, 0, 0, 0]
    own_call = [0.0, 0.0, 0.0, 0.0]
    own_raise = [0.0, 0.0, 0.0, 0.0]
    bets = calls = 0
    called_before = raised_street = 0.0
    last_raiser = -1
    preflop_raiser = -1
    acted_this_street = False
    callers_street = 0
    last_raise = 0.0
    for record in obs.history:
        kind = record.kind
        s = record.street
        if s == street:
            acted_this_street = True
        if kind >= BET:
            raises[s] += 1
            bets += 1
            last_raiser = record.player
            if s == PREFLOP:
                preflop_raiser = record.player
            if s == street:
                callers_street = 0
        elif kind == CALL:
            calls += 1
            if s == street:
                callers_street += 1
        if record.player == i:
            if kind == CALL:
                called_before = 1.0
            if kind >= BET:
                own_raise[s] = 1.0
                if s == street:
                    raised_street = 1.0
            elif kind in (CHECK, CALL):
                own_call[s] = 1.0
        last_raise = 1.0 if kind >= BET else 0.0
    raises_street = raises[street] + (1 if street == PREFLOP else 0)
    invested = obs.collected[i] + obs.bets[i]
    blind = obs.big_blind if street == PREFLOP else 0
    sim = obs.sim
    behind = len(sim.queue) - 1 if sim is not None and sim.queue else 0
    stack = legal.stack
    in_hand = obs.in_hand
    stacks = obs.stacks
    street_bets = obs.bets
    deepest = 0
    for j in range(n):
        if j != i and in_hand[j] and stacks[j] + street_bets[j] > deepest:
            deepest = stacks[j] + street_bets[j]
    effective = min(stack + street_bets[i], deepest) if deepest else stack
    texture = board_texture(obs.board) if obs.board else _NO_BOARD
    vpip, pfr, aggression, hands, table = stats.summary()
    freq = table[street][cost]
    return [
        1.0 if street == 0 else 0.0,
        1.0 if street == 1 else 0.0,
        1.0 if street == 2 else 0.0,
        1.0 if street == 3 else 0.0,
        to_call / (to_call + pot) if to_call else 0.0,
        1.0 if cost == 0 else 0.0,
        1.0 if cost == 1 else 0.0,
        1.0 if cost == 2 else 0.0,
        min(raises_street, 4) / 4.0,
        bets / (bets + calls) if bets + calls else 0.0,
        1.0 if invested > blind else 0.0,
        called_before,
        1.0 if last_raiser == i else 0.0,
        raised_street,
        n * 0.1,
        obs.n_in_hand * 0.1,
        1.0 if obs.n_in_hand == 2 else 0.0,
        0.0 if acted_this_street else 1.0,
        1.0 if behind == 0 else 0.0,
        i / (n - 1),
        behind / n,
        1.0 if preflop_raiser == i and street > PREFLOP else 0.0,
        *texture,
        1.0 if obs.limit else 0.0,
        min(math.log1p(effective / max(pot, 1)) / _LOG_101, 1.0),
        min(to_call / max(pot, 1), 3.0) / 3.0,
        min(math.log1p(stack / obs.big_blind) / _LOG_1001, 1.0),
        min(raises[0], 4) / 4.0,
        min(raises[1], 4) / 4.0,
        min(raises[2], 4) / 4.0,
        own_call[0],
        own_raise[0],
        own_call[1],
        own_raise[1],
        own_call[2],
        own_raise[2],
        last_raise,
        min(callers_street, 4) / 4.0,
        0.0 if legal.raise_kind is None else 1.0,
        vpip,
        pfr,
        aggression / (1.0 + aggression),
        min(math.log1p(hands) / _LOG_1001, 1.0),
        *freq,
    ]


# -- No-Limit bet sizes ---------------------------------------------------------

# A bet or raise as the chips it adds beyond a call, relative to the pot after the call.
SIZE_LABELS: tuple[str, ...] = ("third", "half", "two-thirds", "pot", "two pots", "all-in")
SIZE_FRACTIONS: tuple[float, ...] = (0.33, 0.5, 0.75, 1.0, 2.0)
_EDGES = (0.42, 0.62, 0.87, 1.4)  # between the fractions above; beyond the last: two pots
N_SIZES = len(SIZE_LABELS)
ALL_IN_BUCKET = N_SIZES - 1


def size_bucket(obs: Observation, to: int) -> int:
    """The bucket of a bet/raise to street total `to` at `obs` (all-in is its own).

    >>> from ai.sim.state import SimState
    >>> from ai.game.observe import observe
    >>> from holdem.config import TableConfig, Variant
    >>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    >>> obs = observe(SimState.new_hand(cfg, {1: 200, 2: 200}, button=1, seed=1), [])
    >>> size_bucket(obs, 6), size_bucket(obs, 200)
    (3, 5)
    """
    legal = obs.legal
    if to >= legal.committed + legal.stack:
        return ALL_IN_BUCKET
    after_call = obs.pot + legal.call_amount
    extra = to - legal.committed - legal.call_amount
    fraction = extra / max(after_call, 1)
    for bucket, edge in enumerate(_EDGES):
        if fraction < edge:
            return bucket
    return len(_EDGES)


def amount_for_bucket(obs: Observation, bucket: int) -> int:
    """A legal street total for a size bucket (clamped to the legal range)."""
    legal = obs.legal
    if bucket >= ALL_IN_BUCKET:
        return legal.max_to
    after_call = obs.pot + legal.call_amount
    wanted = legal.committed + legal.call_amount + round(SIZE_FRACTIONS[bucket] * after_call)
    return min(max(wanted, legal.min_to), legal.max_to)
