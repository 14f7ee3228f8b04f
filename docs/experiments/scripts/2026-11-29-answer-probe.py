"""Diagnosis (#33): the search's simulated answer to our bet into the opponent's check,
to our raise of its bet and to our bet first in the street, against the real answer, per
street (heads-up Limit, mcts).

At every searched decision of mcts from the flop on where it bets into the opponent's
check, bets first or raises its first bet, the answer at the search's next opponent node as
`ai.search.kernel.opponent_act` draws it: with probability b kappa the blueprint's
strategy per card bucket at the node after our bet, else the tables' thresholds on the
board percentile mixed with the card-blind shares; averaged over the holdings the search
deals (`SearchResult.ranges`, kappa-flattened) and, for comparison, over the range
alone. "Real": the opponent's next action in the match (fair play: its cards unused).

    python 2026-11-29-answer-probe.py HANDS SEED OPPONENT
"""

import signal
import sys
from collections import defaultdict

import numpy as np

from ai.arena.match import Match, MatchConfig
from ai.bots.base import Bot
from ai.bots.mcts import MctsBot
from ai.bots.registry import make_bot
from ai.game.observation import Decision, Observation
from ai.math.range_strength import percentiles
from ai.policy.blueprint import NotCovered, default_blueprint
from ai.policy.limit.game import DECISION, RAISE
from ai.search.kernel import SIGMA
from ai.sim.rules import BET, CHECK, FOLD
from holdem.config import Variant

BP = default_blueprint()
TREE = BP.tree
sims: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray, float]]] = defaultdict(list)
real: dict[tuple[int, int], list[int]] = defaultdict(list)
SPOTS = (", bet first", ", bet into check", ", raise of its bet")
pending: dict[object, tuple[int, int]] = {}


def simulated(bot: MctsBot, obs: Observation, weights: np.ndarray) -> tuple[np.ndarray, float]:
    """The (fold, call, raise) shares of opponent_act over `weights`, and b."""
    j, st, s = 1 - obs.index, obs.street, percentiles(obs.board)
    tab = bot.tables(obs)
    b, kappa = tab.blueprint[j], tab.kappa[j]
    p, bp_play = 0.0, np.zeros((1326, 3))
    try:
        node, _ = BP.node_of(obs)
        child = int(TREE.child[node, RAISE])
        if b > 0 and child >= 0 and TREE.kind[child] == DECISION:
            buckets = np.maximum(BP.abstraction.buckets_of_all(obs.board), 0)
            p, bp_play = b * kappa, BP.table_at(child)[buckets]
    except NotCovered:
        pass
    rest = kappa * (1 - b) / (1 - p) if p > 0 and p < 1 else kappa
    pr = np.clip((s - tab.raise_above[j][st][1] + SIGMA) / (2 * SIGMA), 0, 1)
    pc = np.clip((s - tab.continue_above[j][st][1] + SIGMA) / (2 * SIGMA), 0, 1)
    pr = rest * pr + (1 - rest) * tab.raise_share[j][st][1]
    pc = rest * pc + (1 - rest) * tab.continue_share[j][st][1]
    th = np.stack([1 - np.maximum(pc, pr), np.maximum(pc - pr, 0), pr], axis=1)
    w = weights / weights.sum()
    return w @ (p * bp_play + (1 - p) * th), b


def situation(obs: Observation, d: Decision) -> int | None:
    """0: our bet first in the street; 1: our bet into its check; 2: our raise of its
    first bet; None: neither."""
    if obs.street < 1 or d.kind < BET:
        return None
    if obs.legal.call_amount > 0:
        return 2 if obs.raises_this_street() == 1 else None
    here = [a.kind for a in obs.history if a.street == obs.street]
    return 0 if not here else 1 if here == [CHECK] else None


def make(style: str, seed: int) -> Bot:
    bot = make_bot(style, seed)
    orig = bot.decide

    def decide(obs: Observation) -> Decision:
        d = orig(obs)
        if isinstance(bot, MctsBot):
            key = situation(obs, d)
            if key is not None and bot.last is not None and bot.last.ranges:
                j = 1 - obs.index
                dealt = next(w for i, w, _ in bot.last.ranges if i == j)
                ranged = bot.ranges.range_of(j, (*obs.hole, *obs.board))
                a, b = simulated(bot, obs, dealt)
                r, _ = simulated(bot, obs, ranged)
                sims[(obs.street, key)].append((a, r, b))
                pending[obs.hand_key] = (obs.street, key)
        elif obs.hand_key in pending:
            st_key = pending.pop(obs.hand_key)
            real[st_key].append(0 if d.kind == FOLD else 2 if d.kind >= BET else 1)
        return d

    bot.decide = decide  # type: ignore[method-assign]
    return bot


def report(*_: object) -> None:
    """The table so far (also on SIGTERM: a match cut short reports what it has)."""
    print(f"mcts vs {opp}, {hands} hands, seed {seed}: fold / call / raise", flush=True)
    for (st, spot), xs in sorted(sims.items()):
        name = ("flop", "turn", "river")[st - 1] + SPOTS[spot]
        dealt, ranged = np.mean([x[0] for x in xs], 0), np.mean([x[1] for x in xs], 0)
        counts = np.bincount(real[(st, spot)], minlength=3)
        b = np.mean([x[2] for x in xs])
        print(
            f"{name:26} sim {dealt.round(2)} (range {ranged.round(2)}, n {len(xs)}, b {b:.2f})"
            f" | real {(counts / max(1, counts.sum())).round(2)} {counts.tolist()}",
            flush=True,
        )
    sys.exit(0)


hands, seed, opp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
signal.signal(signal.SIGTERM, report)
Match(MatchConfig(Variant.LIMIT, ("mcts", opp), hands, seed), make=make).play()
report()
