"""MCTS: the flagship style, information-set Monte Carlo tree search over the opponent
models (`ai.search`), with Loki's model upkeep (statistics and each opponent's range).

Each decision asks the opponent model once for every opponent's tables, then
searches: the profile's iterations (deterministic for the bot's seed and the spot),
or fewer when the worker's deadline comes first (the budget shrinks under load, it is
never missed). Every setting is the frozen `MctsConfig` (`ai.search.profiles`): the
`default` profile at tables, `advisor` for advice and "Let AI decide", the ablations
in the arena.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from ai.bots.loki import LokiBot
from ai.bots.settings import PLAIN, BotSettings
from ai.game.observation import KIND_NAMES, Decision, Observation
from ai.game.summary import HandSummary
from ai.models.model import ModelSet, OpponentModel
from ai.models.stats import cost_bucket, crowd_of
from ai.policy.blueprint import NotCovered, default_blueprint
from ai.policy.nway.games import NOLIMIT_6MAX
from ai.policy.nway.lookup import describe, own_blueprint, sample_action
from ai.search.blueprint_prior import blend, blueprint_shares, evidence_weight, prior_for
from ai.search.explain import MAX_CHARS, reason
from ai.search.mcts import (
    Z95,
    ActionStats,
    Search,
    SearchResult,
    clearly_best,
    is_overbet,
    largest_up_to_pot,
)
from ai.search.opponents import OpponentTables, build_tables
from ai.search.overbet_prior import prior_exponents
from ai.search.profiles import DEFAULT, MctsConfig, profile
from ai.search.reliability import Reliability
from ai.search.reuse import Kept, follow
from ai.search.versus import VersusBook
from ai.search.warm import warm
from ai.sim.rules import BET, CALL, FOLD, PREFLOP

# Below this much time left the search stops (the answer still has to travel).
SAFETY = 0.005
# No-Limit iterations per decision by default (the worker's import; `MctsConfig`).
NO_LIMIT_ITERATIONS = DEFAULT.no_limit_iterations
# The ranges read a player's actions by its own frequencies (`RangeTracker.own_play`)
# in Limit, for actions taken heads-up, at tables of up to this many seats; at tables
# of three or more counted over its decisions while we were in the hand.
OWN_PLAY_IN_HAND = 2


class MctsBot(LokiBot):
    style = "mcts"

    def __init__(
        self,
        seed: int = 0,
        config: MctsConfig = DEFAULT,
        iterations: int | None = None,
        models: ModelSet | None = None,
        settings: BotSettings = PLAIN,
    ) -> None:
        super().__init__(seed, settings)
        warm()  # the search's compiled kernels, before any decision's clock runs
        self.config = config if settings.keep_tree else replace(config, keep_tree=False)
        if models is None and config.frequency_only:
            models = ModelSet.frequency_only()
        if models is not None:
            self.model = OpponentModel(models, self.model.book)
        # A fixed budget for every decision (tests, benchmarks), or None: the profile's.
        self.iterations = iterations
        self.clock = settings.clock
        self.last: SearchResult | None = None  # the search behind the last decision
        self._kept: Kept | None = None  # the tree of our last decision
        # How much each player's bets follow their cards, from the hands they showed.
        self.reliability = Reliability(prior_shows=config.prior_shows)
        # How each opponent answers our bets.
        self.versus = VersusBook()
        # Samples our blueprint play (deterministic for the seed and the observations).
        self._rng = random.Random(seed)
        # Heads-up Limit: every holding's blueprint card bucket per board (the reading).
        self._buckets: dict[tuple[int, ...], npt.NDArray[np.int64]] = {}
        # Whether the last `preflop_play` was the blueprint's (its No-Limit size stands).
        self._preflop_blueprint = False

    def update_model(self, obs: Observation) -> None:
        # No-Limit ranges rank holdings by their river strength averaged over the runouts
        # (a draw that bets is read as the styles that count equity play it).
        self.ranges.potential = self.reliability.potential = not obs.limit
        generic = self.config.generic_only
        self.ranges.own_play = obs.limit and not generic
        self.ranges.own_play_in_hand = OWN_PLAY_IN_HAND
        self.ranges.overbet_sizes = self.config.reads_overbets and not obs.limit
        self.ranges.own_stats = self.versus.with_us if obs.n > 2 else None
        reads = self.config.reads_by_blueprint and self.config.blueprint_prior
        hu_limit = reads and obs.limit and obs.n == 2 and not generic
        per_holding = hu_limit and self.config.reads_per_holding
        self.ranges.reading = self._blueprint_reading if hu_limit and not per_holding else None
        self.ranges.holding_reading = self._holding_reading if per_holding else None
        if not generic:
            super().update_model(obs)
            players = [obs.player_id(i) for i in range(obs.n)]
            self.versus.ingest(
                obs.hand_key, players, obs.history, obs.index, obs.bet_units, obs.limit
            )
            return
        # The ablation learns nothing about the players: no statistics are counted, so
        # the ranges, the tables and the preflop rules all see the prior.
        self._units, self._limit = obs.bet_units, obs.limit
        self.ranges.update(obs, self.model)

    def _blueprint_reading(
        self, spot: Observation, shares: tuple[float, float, float]
    ) -> tuple[float, float, float]:
        """Heads-up Limit: an opponent's action read by the shares the search plays it by,
        the blueprint's moved towards the model's `shares` by the evidence (`blend`)."""
        cost = cost_bucket(spot.legal.call_amount, spot.bet_unit, spot.pot, spot.limit)
        prior = blueprint_shares()[spot.index, spot.street, cost]
        decisions = self.model.stats(spot.player_id(spot.index)).decisions
        mixed = blend(prior, np.array(shares), decisions, self.config.evidence_k)
        return (float(mixed[0]), float(mixed[1]), float(mixed[2]))

    def _holding_reading(
        self, spot: Observation, kind: int, model: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64] | None:
        """Heads-up Limit: the probability per holding of the action taken, the
        blueprint's strategy at the node reached for each holding's card bucket, moved
        towards the model's (`model`, per holding) by the evidence as the search's tables
        are: w = n / (n + evidence_k), n the actor's decisions seen."""
        bp = default_blueprint()
        try:
            node, _ = bp.node_of(spot)
        except NotCovered:
            return None
        buckets = self._buckets.get(spot.board)
        if buckets is None:
            if len(self._buckets) > 8:
                self._buckets.clear()
            buckets = np.maximum(bp.abstraction.buckets_of_all(spot.board), 0)
            self._buckets[spot.board] = buckets
        column = 2 if kind >= BET else 1
        prior = bp.table_at(node)[buckets, column]
        decisions = self.model.stats(spot.player_id(spot.index)).decisions
        w = evidence_weight(decisions, self.config.evidence_k)
        out: npt.NDArray[np.float64] = (1.0 - w) * prior + w * model
        return out

    def tables(self, obs: Observation) -> OpponentTables:
        """Every player's tables for the search at this decision (`build_tables`)."""
        config = self.config
        kappa = [
            1.0 if i == obs.index else self.reliability.kappa(*self._raise_share(obs, i))
            for i in range(obs.n)
        ]
        book = self.versus
        players = [obs.player_id(i) for i in range(obs.n)]
        crowd = crowd_of(obs.n_in_hand)
        versus = [book.answers_of(p, crowd) for p in players]
        overbets = [book.overbets_of(p) for p in players]
        wanted = config.blueprint_prior and (obs.limit or config.nolimit_prior)
        prior = prior_for(obs) if wanted else None
        return build_tables(
            obs,
            self.model,
            config.generic_only,
            kappa,
            versus,
            overbets,
            None if prior is None else prior[0],
            config.evidence_k,
            None if prior is None else prior[1],
            None if prior is None else prior_exponents(obs),
            self._reads_per_holding(obs) and config.opponents_by_blueprint,
        )

    def _reads_per_holding(self, obs: Observation) -> bool:
        """Heads-up Limit with the blueprint's reading per holding (`_holding_reading`)."""
        config = self.config
        reads = config.reads_by_blueprint and config.blueprint_prior
        hu_limit = reads and obs.limit and obs.n == 2 and not config.generic_only
        return hu_limit and config.reads_per_holding

    def hand_over(self, summary: HandSummary, me: int) -> None:
        if not self.config.generic_only:
            super().hand_over(summary, me)
            self.reliability.observe(summary, me)
            self.versus.ingest(
                summary.hand_key, summary.players, summary.history, me, self._units, self._limit
            )

    def preflop_play(self, obs: Observation) -> Decision:
        """Our preflop play where the search does not run: the blueprint's wherever one
        covers the spot (`MctsConfig.preflop_blueprint`), sampled with the bot's seeded
        RNG: heads-up Limit's, and the n-player ones (`own_blueprint`: No-Limit with its
        bet sizes; three-handed Limit, No-Limit with three to six, and Limit tables of
        four or more once enough players folded first, `MctsConfig.preflop_folded_out`).
        Elsewhere (No-Limit beyond six), and where the hand left the blueprint's tree,
        Loki's expert rules."""
        self._preflop_blueprint = False
        if not self.config.preflop_blueprint:
            return self.preflop(obs)
        try:
            if obs.limit and obs.n == 2:
                decision = self._sampled(obs, default_blueprint().action_probabilities(obs))
            else:
                decision = self._sampled_sized(obs)
        except NotCovered:
            return self.preflop(obs)
        self._preflop_blueprint = True
        return decision

    def _sampled_sized(self, obs: Observation) -> Decision:
        """The n-player blueprint's (kind, street total), sampled (`NotCovered` where
        none covers the spot)."""
        lookup, seats = own_blueprint(obs)
        if obs.n > lookup.game.n and not (self.config.preflop_folded_out and obs.limit):
            # No-Limit beyond six: not measured against the rules yet, so the rules.
            raise NotCovered(f"no blueprint for {obs.n}-handed play")
        probs = lookup.action_probabilities(obs, seats)
        kind, to = sample_action(probs, self._rng.random())
        reason = ""
        if self.explain:
            shown = describe(probs)
            reason = (
                f"{KIND_NAMES[kind].capitalize()}: the {lookup.game.name} blueprint plays "
                f"{shown} here"
            )
        return Decision(kind, to, reason=reason)

    def _sampled(self, obs: Observation, probs: dict[int, float]) -> Decision:
        kinds = sorted(probs)
        u = self._rng.random()
        kind, acc = kinds[-1], 0.0
        for k in kinds:
            acc += probs[k]
            if u < acc:
                kind = k
                break
        to = obs.legal.min_to if kind >= BET else 0
        reason = ""
        if self.explain:
            shown = ", ".join(f"{KIND_NAMES[k]} {100 * probs[k]:.0f}%" for k in kinds)
            reason = f"{KIND_NAMES[kind].capitalize()}: the blueprint plays {shown} here"
        return Decision(kind, to, reason=reason)

    def decide(self, obs: Observation) -> Decision:
        self.last = None  # set again below if this decision is searched
        self.update_model(obs)
        config = self.config
        if obs.sim is None:
            if obs.street == PREFLOP:
                return self.preflop_play(obs)
            return self.postflop(obs, self.read(obs))
        rule: Decision | None = None
        fold: Decision | None = None  # the blueprint's fold the search may overrule
        up_to: int | None = None  # where only raises up to the pot are candidates
        call: Decision | None = None  # the blueprint's call a clearly better raise overrules
        if obs.street == PREFLOP and not config.search_preflop:
            rule = self.preflop_play(obs)
            if self.off_the_tree(obs):
                rule = None  # the search decides, every action a candidate
            elif rule.kind == FOLD and self.consults_search(obs):
                rule, fold = None, rule
            elif self.sizes_by_evidence(obs, rule):
                up_to = largest_up_to_pot(obs)
                if rule.kind < BET:
                    rule, call = None, rule
            elif obs.limit or not config.preflop_sizes or rule.kind < BET:
                return rule
            elif self._preflop_blueprint:
                return rule  # the blueprint's own size
        tables = self.tables(obs)
        # The seed is the spot's: the same spot (advice, then "Let AI decide") is searched
        # the same way.
        spot = repr((self.seed, obs.hand_key, len(obs.history), obs.hole)).encode()
        search = Search(obs, self.ranges, tables, config.search, seed=zlib.crc32(spot))
        deadline = None if self.deadline is None else self.deadline - SAFETY
        kept = self._kept
        root = follow(kept, obs) if kept is not None and config.keep_tree else None
        result = search.run(
            iterations=self.budget(obs.limit),
            deadline=deadline,
            clock=self.clock,
            root=root,
            up_to=up_to,
        )
        passed_over: ActionStats | None = None
        if fold is not None:
            overruled = evidence_overrules(result)
            if overruled is None:
                # The fold stands; the search behind it stays readable (`last`).
                folding = next((a for a in result.actions if a.kind == FOLD), None)
                self.last = None if folding is None else replace(result, choice=folding)
                return fold
            result = replace(result, choice=overruled)
        if call is not None:
            raised = raise_overrules(result, obs, config.search.min_share)
            if raised is None:
                calling = next((a for a in result.actions if a.kind == call.kind), None)
                self.last = None if calling is None else replace(result, choice=calling)
                return call
            result = replace(result, choice=raised)
        if rule is not None:
            # The blueprint's raise, sized by the evidence: up to the pot only (the search's
            # values of bigger raises favour them, below).
            sized, passed_over = rule_raise_size(
                result, obs, config.search.min_share, up_to_pot=self._preflop_blueprint
            )
            if sized is None:
                return rule
            result = replace(result, choice=sized)
        anchor: Decision | None = None  # the blueprint's action the search did not overrule
        if rule is None and fold is None and call is None:
            anchor = self.anchored(obs, result)
            if anchor is not None:
                standing = next(a for a in result.actions if a.kind == anchor.kind)
                result = replace(result, choice=standing)
        self.last = result
        self._kept = self._keep(obs, result)
        choice = result.choice
        if not self.explain:
            text = ""
        elif rule is not None:
            # The rules chose to raise; the search only chose how much, so say both.
            best = (
                "the best of the raise sizes"
                if passed_over is None
                else f"{passed_over.label}'s {passed_over.value_bb:+.1f} bb is not clearly better"
            )
            text = (
                f"{rule.reason}; {choice.label} by the search: {choice.value_bb:+.1f} bb "
                f"(±{choice.stderr_bb:.1f}) over {result.iterations} simulated hands, {best}"
            )
        elif anchor is not None:
            text = f"{anchor.reason}; no other action is clearly better. {reason(result, obs)}"
            text = text[:MAX_CHARS]
        else:
            text = reason(result, obs)
            if fold is not None and text:
                text = (
                    f"{fold.reason}; but this player's play so far makes "
                    f"{choice.label} worth {choice.value_bb:+.1f} bb "
                    f"(±{choice.stderr_bb:.1f}), above folding. {text}"
                )[:MAX_CHARS]
        budget = self.budget(obs.limit)
        if text and 0 < result.iterations < budget:
            # Cut short by the deadline (a busy machine): the same spot may then get
            # another answer, so say so.
            note = f" Stopped at {result.iterations} of {budget} hands: busy."
            text = text[: MAX_CHARS - len(note)] + note
        if not result.iterations:
            # Out of time before one iteration: no searched values to show (advice then
            # estimates them from the equity, as the choice was made).
            return Decision(choice.kind, choice.to, reason=text, equity=result.equity)
        return Decision(
            choice.kind,
            choice.to,
            reason=text,
            values=result.values,
            equity=result.equity,
            spread={a.label: (a.stderr_bb, a.share) for a in result.actions},
            folds={a.label: a.folds for a in result.actions if a.visits},
        )

    def anchored(self, obs: Observation, result: SearchResult) -> Decision | None:
        """Heads-up Limit after the flop with `MctsConfig.blueprint_anchor` set: the
        blueprint's sampled action when the search's choice does not beat it by the
        anchor's margin (`beats_anchor`), else None (the search's choice stands)."""
        k = self.config.blueprint_anchor
        if k is None or not obs.limit or obs.n != 2 or obs.street == PREFLOP:
            return None
        try:
            probs = default_blueprint().action_probabilities(obs)
        except NotCovered:
            return None
        decision = self._sampled(obs, probs)
        standing = next((a for a in result.actions if a.kind == decision.kind), None)
        if standing is None or standing is result.choice:
            return None
        return None if beats_anchor(result.choice, standing, k) else decision

    def off_the_tree(self, obs: Observation) -> bool:
        """Whether this No-Limit preflop spot (heads-up, or three to six handed: the 6-max
        blueprint's tables) is one the blueprint's tree does not hold (a raise beyond its
        abstraction: `preflop_play` fell back on Loki's rules), so the search decides it
        as it decides every later street. Beyond six seats no blueprint plays No-Limit
        preflop: Loki's rules there, as before.

        Loki's preflop rules read only hand rank and how often the pot was raised, never
        the price: heads-up against texasholdem's random agent they folded for 15 bb into
        a 385 bb pot after the search's own re-raise, whose value had assumed a
        continuation that calls (docs/experiments/2026-11-28-hunl-off-the-tree.md); six
        handed, after a call, to the random re-raise that followed
        (docs/experiments/2026-11-28-six-handed-off-the-tree.md)."""
        config = self.config
        if obs.limit or obs.n > NOLIMIT_6MAX.n or not config.preflop_blueprint:
            return False
        return not self._preflop_blueprint

    def consults_search(self, obs: Observation) -> bool:
        """Whether a blueprint fold is put to the search (`MctsConfig.preflop_evidence`):
        at heads-up Limit tables (and No-Limit heads-up and three to six handed:
        `MctsConfig.nolimit_evidence`) once any decision of an opponent still in was
        seen. With nothing seen, never: our preflop play is then the blueprint's.

        The evidence is counted once, in the search's opponents: their shares are the
        blueprint's moved towards the model by w = n / (n + evidence_k), so with little
        seen the search plays against nearly the blueprint and rarely finds a continuing
        action clearly above its fold. Consulting only with probability w as well counted
        it twice: after a hundred hands of a random player half the blueprint's folds to
        its all-ins stood unexamined, each one the pot given up
        (docs/experiments/2026-11-27-evidence-counted-once.md)."""
        config = self.config
        if not (config.preflop_evidence and config.preflop_blueprint):
            return False
        if config.generic_only or (obs.n != 2 and obs.limit):
            return False
        if not obs.limit and not (config.nolimit_evidence and self._preflop_blueprint):
            return False
        others = [i for i in range(obs.n) if i != obs.index and obs.in_hand[i]]
        seen = max(self.model.stats(obs.player_id(i)).decisions for i in others)
        return evidence_weight(seen, config.evidence_k) > 0

    def sizes_by_evidence(self, obs: Observation, rule: Decision) -> bool:
        """Whether the search sizes the No-Limit blueprint's preflop raise (and may turn
        its call facing a raise into a raise): heads-up, once anything was seen of the
        opponent (`consults_search`). The evidence is in the search's opponents only.
        Multiway only the blueprint's folds are put to the search."""
        config = self.config
        if obs.limit or not config.evidence_sizes or not self._preflop_blueprint:
            return False
        if rule.kind < BET and not (config.evidence_raises and rule.kind == CALL):
            return False
        return obs.n == 2 and self.consults_search(obs)

    def budget(self, limit: bool) -> int:
        """Iterations for a decision in this game (a deadline may stop it sooner)."""
        if self.iterations is not None:
            return self.iterations
        return self.config.iterations(limit)

    def _raise_share(self, obs: Observation, i: int) -> tuple[str, float]:
        """(player, share of its check/call/bet/raise decisions that bet or raise)."""
        player = obs.player_id(i)
        counts = self.book.peek(player).counts
        continued = float(counts[..., 1:].sum())
        share = float(counts[..., 2].sum()) / continued if continued else 0.3
        return player, share

    def _keep(self, obs: Observation, result: SearchResult) -> Kept | None:
        if not self.config.keep_tree:
            return None
        choice = result.choice
        chosen = next(
            (
                a
                for a, act in enumerate(result.root.actions)
                if (act.kind, act.to) == (choice.kind, choice.to)
            ),
            -1,
        )
        return Kept(
            obs.hand_key,
            obs.index,
            len(obs.history),
            len(obs.board),
            result.root,
            chosen,
            self.config.search.chance_buckets,
        )


def rule_raise_size(
    result: SearchResult, obs: Observation, min_share: float, up_to_pot: bool = False
) -> tuple[ActionStats | None, ActionStats | None]:
    """Where the preflop rules chose to raise: the best-valued of the searched raises
    (among those searched at least `min_share` as much as the most searched raise, an
    overbet only when clearly best: `clearly_best`), and the best raise passed over for
    it, if any. `up_to_pot`: overbets (`is_overbet`, the all-in among them) are not
    candidates."""
    raises = [a for a in result.actions if a.kind >= BET and not (up_to_pot and is_overbet(a, obs))]
    most = max((a.visits for a in raises), default=0)
    searched = [a for a in raises if a.visits and a.visits >= min_share * most]
    if not searched:
        return None, None
    chosen = clearly_best(searched, obs)
    best = max(searched, key=lambda a: a.value_bb)
    return chosen, (best if best is not chosen and best.value_bb > chosen.value_bb else None)


def raise_overrules(result: SearchResult, obs: Observation, min_share: float) -> ActionStats | None:
    """Where the blueprint calls: the searched raise up to the pot (`rule_raise_size`)
    when the bottom of its 95% interval is above the top of the call's, else None."""
    calling = next((a for a in result.actions if a.kind == CALL and a.visits), None)
    raised, _ = rule_raise_size(result, obs, min_share, up_to_pot=True)
    if calling is None or raised is None:
        return None
    low = raised.value_bb - Z95 * raised.stderr_bb
    return raised if low > calling.value_bb + Z95 * calling.stderr_bb else None


def beats_anchor(best: ActionStats, anchor: ActionStats, k: float) -> bool:
    """Whether `best` beats the blueprint's `anchor` by more than `k` standard errors of
    their difference (the two values' errors taken as independent, which overstates it:
    halving plays both on the same deals). An anchor the search never played (not the
    exact fold) cannot be told apart: it stands."""
    if any(a.kind != FOLD and not a.visits for a in (best, anchor)):
        return False
    gap = best.value_bb - anchor.value_bb
    return gap > k * math.hypot(best.stderr_bb, anchor.stderr_bb)


def evidence_overrules(result: SearchResult) -> ActionStats | None:
    """The best-valued continuing action when the bottom of its 95% interval is above
    folding's exact 0, else None (the blueprint's fold stands)."""
    going_on = [a for a in result.actions if a.kind != FOLD and a.visits]
    if not going_on or not result.iterations:
        return None
    best = max(going_on, key=lambda a: a.value_bb)
    return best if best.value_bb - Z95 * best.stderr_bb > 0 else None


def make_mcts(
    seed: int, name: str = "", settings: BotSettings = PLAIN, iterations: int | None = None
) -> MctsBot:
    """The bot on a named profile (`ai.search.profiles.PROFILES`; "" is the default)."""
    return MctsBot(seed, profile(name), iterations, settings=settings)
