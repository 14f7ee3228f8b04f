"""Poki: choose by simulation (DOMAIN.md §4), preflop by Loki's expert rules.

After the flop, for each candidate action (check/call, and bet/raise at each
No-Limit size), play the hand out `rollouts` times through the simulator:
opponents' hole cards dealt from their weight tables, the rest of the board at
random, every later action drawn from the opponent model's probability triple
for that player's strength on that street (our own later actions too, with the
generic model). The same deals are used for every candidate (common random
numbers: the comparison is far less noisy than the values). Fold is worth
exactly 0 more chips. The best average wins; ties go to the more aggressive
action. Values are reported in big blinds.
"""

from __future__ import annotations

import random
import time
import zlib
from dataclasses import dataclass

import numpy as np

from ai.bots.loki import LokiBot, Read
from ai.bots.settings import PLAIN, BotSettings
from ai.bots.sizing import HALF_POT, NL_SIZES, POT, raise_to_amount
from ai.game.observation import KIND_NAMES, Decision, Observation
from ai.math.combos import class_of_pair
from ai.math.preflop_rank import income_rate_percentile, preflop_equity
from ai.math.range_strength import FloatArray
from ai.math.rollout_strength import sampled_strengths, showdown_equity
from ai.models.ranges import SIGMA
from ai.models.stats import PlayerStats, cost_bucket
from ai.search.deals import deal_from_ranges
from ai.sim.rules import CALL, CHECK, FOLD, PREFLOP, RIVER
from ai.sim.state import SimState

DEFAULT_ROLLOUTS = 200
STRENGTH_SAMPLES = 32
BATCH = 50  # rollouts between checks of whether the best action is already clear
SETTLED_Z = 3.0


def _settled(results: np.ndarray, can_fold: bool) -> bool:
    """True when the best candidate beats every other by SETTLED_Z standard errors
    of the paired difference (same deals), fold (worth 0) included."""
    n = results.shape[0]
    if n < 2 * BATCH:
        return False
    means = results.mean(axis=0)
    best = int(np.argmax(means))
    if can_fold:
        se = results[:, best].std(ddof=1) / np.sqrt(n)
        if abs(means[best]) < SETTLED_Z * se:
            return False
    for c in range(results.shape[1]):
        if c == best:
            continue
        diff = results[:, best] - results[:, c]
        se = diff.std(ddof=1) / np.sqrt(n)
        if diff.mean() < SETTLED_Z * se:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: int
    to: int
    label: str


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


class PokiBot(LokiBot):
    style = "poki"

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = DEFAULT_ROLLOUTS,
        early_stop: bool = True,
        settings: BotSettings = PLAIN,
    ) -> None:
        super().__init__(seed, settings)
        self.rollouts = rollouts
        # Simulate preflop too (advice); in bot play preflop follows Loki's rules (fast).
        self.simulate_preflop = False
        # Stop once the best action is clear (BATCH-wise); off for fixed-cost benchmarks.
        self.early_stop = early_stop
        self.last_values: dict[str, float] = {}
        self.last_rollouts = 0

    def decide(self, obs: Observation) -> Decision:
        self.update_model(obs)
        preflop = obs.street == PREFLOP
        if obs.sim is None or (preflop and not self.simulate_preflop):
            return self.preflop(obs) if preflop else self.postflop(obs, self.read(obs))
        read = self.preflop_read(obs) if preflop else self.read(obs)
        return self.simulate(obs, read)

    def preflop_read(self, obs: Observation) -> Read:
        """Preflop numbers for the reason line: equity against random hands as HS."""
        hs = preflop_equity(obs.hole[0], obs.hole[1], max(obs.n_opponents, 1))
        return Read(hs, 0.0, 0.0)

    # -- the simulation -------------------------------------------------------

    def candidates(self, obs: Observation) -> list[Candidate]:
        """Passive first, then bets/raises by size (the order is the tie-break)."""
        legal = obs.legal
        found = [
            Candidate(CHECK if legal.can_check else CALL, 0, "check" if legal.can_check else "call")
        ]
        if legal.raise_kind is not None:
            word = KIND_NAMES[legal.raise_kind]
            sizes = (1.0,) if obs.limit else NL_SIZES
            if not obs.limit and legal.stack > 2 * (obs.pot + legal.call_amount):
                # Deep stacks: all-in is rarely the best size, and the crude opponent model
                # judges it worst; half pot and pot are simulated instead.
                sizes = (HALF_POT, POT)
            amounts = sorted({raise_to_amount(obs, size) for size in sizes})
            for to in amounts:
                label = word if obs.limit else f"{word} {to}"
                found.append(Candidate(legal.raise_kind, to, label))
        return found

    def deal(
        self, obs: Observation, rng: random.Random, count: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """`count` deals: (holes[count, n, 2], runouts[count, 5]); opponents from their
        ranges (`ai.search.deals.deal_from_ranges`, which the search deals with too)."""
        return deal_from_ranges(obs, self.ranges, np.random.default_rng(rng.getrandbits(63)), count)

    def simulate(self, obs: Observation, read: Read) -> Decision:
        assert obs.sim is not None
        # A seed from the spot itself (crc32: str hashes differ between processes).
        spot = repr((self.seed, obs.hand_key, len(obs.history), obs.hole)).encode()
        rng = random.Random(zlib.crc32(spot))
        candidates = self.candidates(obs)
        count = self.rollouts
        holes, runouts = self.deal(obs, rng, count)
        equity = showdown_equity(holes, runouts, obs.index, obs.opponents)
        strengths = sampled_strengths(
            holes, runouts, obs.street, STRENGTH_SAMPLES, rng.getrandbits(31)
        )
        if obs.street == PREFLOP:  # preflop strength: the holding's Income Rate percentile
            ranks = income_rate_percentile(max(obs.n_opponents, 1))
            strengths[:, :, PREFLOP] = ranks[class_of_pair()[holes[:, :, 0], holes[:, :, 1]]]
        thresholds = self._thresholds(obs)
        me = obs.index
        base = obs.sim
        start = base.payoffs()[me]
        hole_lists = holes.tolist()
        runout_lists = runouts.tolist()
        results = np.zeros((count, len(candidates)))
        done = 0
        while done < count:
            batch_end = min(count, done + BATCH)
            for r in range(done, batch_end):
                hole_list = hole_lists[r]
                runout = runout_lists[r]
                strength = strengths[r]
                row = results[r]
                for c, candidate in enumerate(candidates):
                    state = base.clone()
                    state.set_cards(hole_list, runout)
                    state.step(candidate.kind, candidate.to)
                    self._play_out(state, strength, thresholds, rng, me)
                    row[c] = state.payoffs()[me] - start
            done = batch_end
            if done < count and self.deadline is not None and time.monotonic() > self.deadline:
                break  # out of time: decide on the rollouts played so far
            if self.early_stop and done < count and _settled(results[:done], obs.legal.can_fold):
                break
        self.last_rollouts = done
        totals = results[:done].sum(axis=0)
        count = done
        bb = obs.big_blind
        values = {cand.label: totals[c] / count / bb for c, cand in enumerate(candidates)}
        if obs.legal.can_fold:
            values = {"fold": 0.0, **values}
        best_value = max(values.values())
        # Most aggressive first so that ties go to it; fold is the least aggressive.
        choice_label = next(
            label for label in reversed(list(values)) if values[label] >= best_value - 1e-9
        )
        self.last_values = values
        if choice_label == "fold":
            kind, to = FOLD, 0
        else:
            chosen = next(c for c in candidates if c.label == choice_label)
            kind, to = chosen.kind, chosen.to
        reason = self._reason(choice_label, values, equity, read, obs)
        ehs = min(1.0, max(0.0, read.ehs))
        return Decision(kind, to, reason=reason, values=values, equity=equity, ehs=ehs)

    def _thresholds(self, obs: Observation) -> list[list[list[tuple[float, float]]]]:
        """Per index, street, cost: (raise above, continue above) strengths, from each
        player's frequency tables (our own row is unused: we follow a rule).

        The tables, not the network: the network asked about this spot moved to later
        streets (as the search's opponent tables are built) cost poki about 15 bb/100
        against four lokis (docs/models.md), while the network's ranges cost nothing."""
        out = []
        for i in range(obs.n):
            stats = self.model.stats(obs.player_id(i)) if i != obs.index else PlayerStats()
            table = stats.summary()[4]
            out.append(
                [
                    [
                        (1.0 - table[s][c][2], 1.0 - table[s][c][2] - table[s][c][1])
                        for c in range(3)
                    ]
                    for s in range(4)
                ]
            )
        return out

    def _play_out(
        self,
        state: SimState,
        strength: FloatArray,
        thresholds: list[list[list[tuple[float, float]]]],
        rng: random.Random,
        me: int,
    ) -> None:
        """Play to the end: opponents by their model's triple, us by a simple expert rule."""
        units = state.rules.min_increment
        limit = state.rules.is_limit
        while not state.over:
            legal = state.legal_actions()
            assert legal is not None
            i = legal.player
            street = state.street
            s = strength[i, street]
            if i == me:
                # Our later actions: value-raise strong hands, call on pot odds (with a margin
                # for playing against ranges), else give up. A fixed rule, not our generic
                # model, so that against maniacs we do not fold the hands worth a call.
                call = legal.call_amount
                odds = call / (call + state.pot) if call else 0.0
                p_raise = 1.0 if s >= (0.8 if call else 0.65) else 0.0
                p_continue = 1.0 if not call or s >= odds + 0.15 else 0.0
            else:
                cost = cost_bucket(legal.call_amount, units[street], state.pot, limit)
                mu_raise, mu_continue = thresholds[i][street][cost]
                p_raise = min(1.0, max(0.0, (s - mu_raise + SIGMA) / (2 * SIGMA)))
                p_continue = (
                    1.0
                    if cost == 0
                    else min(1.0, max(0.0, (s - mu_continue + SIGMA) / (2 * SIGMA)))
                )
            u = rng.random()
            if u < p_raise and legal.raise_kind is not None:
                if limit:
                    to = legal.min_to
                else:  # a pot-sized raise, clamped to the legal range
                    wanted = legal.committed + legal.call_amount + state.pot + legal.call_amount
                    to = min(max(wanted, legal.min_to), legal.max_to)
                state.step(legal.raise_kind, to)
            elif u < max(p_continue, p_raise) or legal.can_check:
                state.step(CHECK if legal.can_check else CALL)
            else:
                state.step(FOLD)

    def _reason(
        self, label: str, values: dict[str, float], equity: float, read: Read, obs: Observation
    ) -> str:
        """One line a player understands, e.g. "Raise: 71% equity against their ranges,
        pot odds 25%; simulated: raise +1.4 bb, call +0.6 bb, fold 0"."""
        word = label.split()[0].capitalize()
        whom = "their ranges" if obs.n_opponents > 1 else "the opponent's range"
        facts = [f"{_pct(equity)} equity against {whom}"]
        if obs.street != PREFLOP:
            facts.append(f"hand strength {_pct(read.hs)}")
            if obs.street < RIVER and read.ppot >= 0.05:
                facts.append(f"{_pct(read.ppot)} to improve")
        if obs.legal.call_amount:
            facts.append(f"pot odds {_pct(obs.pot_odds)}")
        ranked = sorted(values.items(), key=lambda kv: -kv[1])[:3]
        simulated = ", ".join(f"{k} {v:+.1f} bb" if v else f"{k} 0" for k, v in ranked)
        return f"{word}: {', '.join(facts)}; simulated: {simulated}"
