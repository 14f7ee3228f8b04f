"""MCTS: the flagship style, information-set Monte Carlo tree search over the opponent
models (`ai.search`), with Loki's model upkeep (statistics and each opponent's range).

Each decision asks the opponent model once for every opponent's tables, then
searches: `iterations` in matches (deterministic for the bot's seed), or until
`deadline` when the worker gives one (the budget shrinks under load, it is never
missed). Options select the arena's ablations: the generic model only, frequency
tables only, random rollouts, PUCT instead of UCT.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import replace

from ai.bots.loki import RAISE_RATIO, LokiBot
from ai.game.observation import Decision, Observation
from ai.game.summary import HandSummary
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.models.stats import crowd_of
from ai.search.correction import LIMIT_TABLE, SHARED_TABLE, Learned, Offsets, cell
from ai.search.explain import reason
from ai.search.mcts import RANDOM, UCT, ActionStats, Search, SearchConfig, SearchResult
from ai.search.opponents import build_tables
from ai.search.reliability import Reliability
from ai.search.reuse import Kept, follow
from ai.search.versus import VersusBook
from ai.search.warm import warm
from ai.sim.rules import BET, CALL, FOLD, PREFLOP

# Iterations per decision by game when the caller fixes none. No-Limit's seven actions
# in big multiway pots need more to tell apart: 6-max No-Limit, 3,000 duplicate hands,
# seed 9, the same deals: 2,000 iterations +249.3 bb/100, 8,000 +312.6 (a poki in the
# seat +293.9); with 2,000 it checked the flop where a poki bets the pot, the bet's
# value within the margin of checking's. In Limit 8,000 did no better than 2,000.
LIMIT_ITERATIONS, NO_LIMIT_ITERATIONS = 2000, 8000
# Preflop, at Limit tables of three or more, the share of the hands it plays that it
# raises with (Loki's rules: RAISE_RATIO).
LIMIT_RAISE_RATIO = 0.85
# Preflop at Limit tables of three or more, once it has put chips in of its own accord: a
# fold by the rules is a call while calling costs under this share of the pot after the
# call (better than 4 to 1). The rules fold a raising hand outside the top half of the
# raising range to a re-raise, at about 7 to 1: with LIMIT_RAISE_RATIO that was 6.6% of
# the hands, 2 bb each (17.5 bb/100 against four lokis). Paired, 5-max against four
# lokis: +28.8 [23.9, 33.8] bb/100 (docs/search.md, "Arena (2026-11-25, seventh session …)").
DEFEND_ODDS = 0.2
# Heads-up No-Limit, where the rules raise and the search sizes it: an all-in must be
# valued this many times the best smaller raise. The search values an all-in preflop
# exactly (the equity), a smaller raise by its simulated play after the flop, which makes
# less than the bot does: without the ratio it shoved where raising and playing on pays
# more (calling station -177.9 bb/100, paired). At 6-max the ratio cost (-39.3, three
# seeds): there the all-in stays whichever raise is valued highest. docs/search.md,
# "Arena (2026-11-25, fourth session …)".
HEADS_UP_ALL_IN_RATIO = 1.5
# Below this much time left the search stops (the answer still has to travel).
SAFETY = 0.005
# Reliability below which an opponent counts as card-blind (its bets say little).
CARD_BLIND = 0.5


class MctsBot(LokiBot):
    style = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        config: SearchConfig | None = None,
        generic_only: bool = False,
        models: ModelSet | None = None,
    ) -> None:
        super().__init__(seed)
        warm()  # the search's compiled kernels, before any decision's clock runs
        if models is not None:
            self.model = OpponentModel(models, self.model.book)
        # A fixed budget for every decision, or None: `budgets` by game.
        self.iterations = iterations
        self.budgets = (LIMIT_ITERATIONS, NO_LIMIT_ITERATIONS)
        self.config = config or SearchConfig()
        # In No-Limit the ranges rank holdings by their river strength averaged over the
        # runouts, so a draw that bets is read as the styles that count equity play it;
        # in Limit that did worse against lokis (docs/search.md, 2026-11-24 morning and
        # afternoon), so there only `limit_potential` (an arena variant) turns it on.
        self.potential = True
        self.limit_potential = False
        self.generic_only = generic_only
        # (Limit, No-Limit): whether the ranges read a player's actions by its own
        # frequencies where it was seen enough, with as many players in the hand, as the
        # tables do (`RangeTracker.own_play`). In Limit, duplicate: against four lokis
        # +5.8, +8.9, +6.2 bb/100 paired (seeds 5-7, 10,000 hands), heads-up against poki
        # +32.1 -> +71.6. In No-Limit a context (street, cost) mixes bets of every size,
        # which the network tells apart: heads-up against poki it lost 273.1 bb/100
        # [-439.3, -106.8] (docs/search.md, 2026-11-24, own play). The generic ablation
        # knows no player, so it keeps the network's reading.
        self.own_play_ranges = (True, False)
        # Where they do, only actions taken with at most this many players in the hand,
        # and at tables of three or more counted over the player's decisions while we
        # were in the hand (`VersusBook.with_us`): together, a player's answers to us
        # alone. Pokis model each opponent and answer us unlike the others; 5-max Limit,
        # seeds 5-7 (docs/search.md, "2026-11-24 night"): four lokis +40.3, +40.3, +39.0
        # where heads-up tables only made +31.5, +27.8, +26.2; four pokis +25.1, +26.3,
        # +25.5 (+24.8, +26.8, +30.6). Read in every pot, against four pokis +24.2, +16.4;
        # in two-player pots from every decision, +23.5, +22.5, +28.2. Heads-up every
        # decision is with us, and the model's statistics (which may hold more hands,
        # from the database) are read.
        self.own_play_in_hand = 2
        self.own_play_seats = 10  # and at tables of at most this many seats
        self.own_play_with_us = True
        self.clock = time.monotonic
        # Preflop by Loki's expert rules in matches (the thesis' "expert knowledge
        # preflop"); advice searches preflop too.
        self.search_preflop = False
        # No-Limit: where those rules raise, the search picks the size (the rules raise
        # the pot), at tables where the hand was dealt to at least preflop_sizes_from.
        # 6-max, the eight seeds of the targets table, paired: +55.5 [27.5, 83.5] bb/100,
        # all-in hands at their equity +37.4 [15.2, 59.7] (docs/search.md, "Arena
        # (2026-11-25, evening …)"); heads-up, with all_in_ratio, against loki +639.1,
        # poki +161.3, the other styles level ("… fourth session …").
        self.preflop_sizes = True
        self.preflop_sizes_from = 2
        self.all_in_ratio = HEADS_UP_ALL_IN_RATIO  # heads-up only: at 6-max it cost
        # Those rules raise with 42% of the hands they play; at Limit tables of three or
        # more the bot raises with LIMIT_RAISE_RATIO of them. Heads-up and No-Limit keep
        # Loki's share. Figures: docs/search.md, "Arena (2026-11-24, late: preflop raises)".
        self.limit_raise_ratio = LIMIT_RAISE_RATIO
        # ... and having put chips in, it calls rather than fold at better than 4 to 1
        # (DEFEND_ODDS; 0: `mcts-nodefend`, Loki's rules as they are).
        self.defend_odds = DEFEND_ODDS
        # At Limit tables of three or more: offsets added to the searched values before
        # the choice (`ai.search.correction`), what each kind of action made in play
        # beyond its searched value where the lokis and the pokis agree (SHARED_TABLE;
        # None: `mcts-uncorrected`; the lokis' whole table: `mcts-corrected`), or learned
        # from this bot's own decisions and results (`learned`, `mcts-learned`). Paired
        # against the searched values, 5-max: four lokis +7.3 [3.1, 11.4] bb/100 (seeds
        # 5-7), four pokis +11.3 [5.5, 17.0] (seeds 5, 6); docs/search.md, "Arena
        # (2026-11-25, fifth session …)".
        self.limit_offsets: Offsets | None = SHARED_TABLE
        self.learned: Learned | None = None
        self.last: SearchResult | None = None  # the search behind the last decision
        # The tree of our last decision, continued at the next one when the line holds.
        self.keep_tree = True
        self._kept: Kept | None = None
        # How much each player's bets follow their cards, from the hands they showed.
        self.reliability = Reliability()
        self.believe = False  # mcts-believe: every player's bets follow its cards (kappa 1)
        # How each opponent answers our bets (None: not kept, the mcts-noversus ablation).
        self.versus: VersusBook | None = VersusBook()

    def update_model(self, obs: Observation) -> None:
        self.ranges.potential = self.reliability.potential = self.potential and (
            self.limit_potential or not obs.limit
        )
        own_play = self.own_play_ranges[0 if obs.limit else 1] and obs.n <= self.own_play_seats
        self.ranges.own_play = own_play and not self.generic_only
        self.ranges.own_play_in_hand = self.own_play_in_hand
        versus = self.versus if self.own_play_with_us and obs.n > 2 else None
        self.ranges.own_stats = versus.with_us if versus is not None else None
        if not self.generic_only:
            super().update_model(obs)
            if self.versus is not None:
                players = [obs.player_id(i) for i in range(obs.n)]
                self.versus.ingest(
                    obs.hand_key, players, obs.history, obs.index, obs.bet_units, obs.limit
                )
            return
        # The ablation learns nothing about the players: no statistics are counted, so
        # the ranges, the tables and Loki's preflop adjustments all see the prior.
        self._units, self._limit = obs.bet_units, obs.limit
        self.ranges.update(obs, self.model)

    def hand_over(self, summary: HandSummary, me: int) -> None:
        if not self.generic_only:
            super().hand_over(summary, me)
            self.reliability.observe(summary, me)
            if self.learned is not None and summary.payoffs:
                self.learned.resolve(summary.hand_key, summary.payoffs[me])
            if self.versus is not None:
                self.versus.ingest(
                    summary.hand_key, summary.players, summary.history, me, self._units,
                    self._limit,
                )  # fmt: skip

    def preflop(self, obs: Observation) -> Decision:
        """Loki's rules, but at Limit tables of three or more a hand that put chips in
        of its own accord calls one more raise at a good price rather than fold."""
        decision = super().preflop(obs)
        if decision.kind != FOLD or not obs.limit or obs.n < 3:
            return decision
        me, odds = obs.index, obs.pot_odds
        entered = any(a.player == me and a.kind >= CALL for a in obs.history)  # preflop only
        if not entered or odds >= self.defend_odds:
            return decision
        call = obs.legal.call_amount
        text = (
            f"Call: {call} more to win {obs.pot} after putting chips in, {odds:.0%} of the pot "
            f"after calling (under {self.defend_odds:.0%}); the rules alone: {decision.reason}"
        )
        return Decision(CALL, reason=text, equity=decision.equity)

    def raise_ratio(self, obs: Observation) -> float:
        if obs.limit and obs.n > 2:
            return self.limit_raise_ratio
        return super().raise_ratio(obs)

    def decide(self, obs: Observation) -> Decision:
        self.last = None  # set again below if this decision is searched
        self.update_model(obs)
        if obs.sim is None:
            if obs.street == PREFLOP:
                return self.preflop(obs)
            return self.postflop(obs, self.read(obs))
        kappa = [
            1.0
            if i == obs.index or self.believe
            else self.reliability.kappa(*self._raise_share(obs, i))
            for i in range(obs.n)
        ]
        # Loki's preflop rules read a raise as strength: against a live opponent whose
        # bets do not follow its cards, the search decides preflop too.
        card_blind = any(kappa[i] < CARD_BLIND for i in obs.opponents)
        rule: Decision | None = None
        if obs.street == PREFLOP and not (self.search_preflop or card_blind):
            rule = self.preflop(obs)
            sized_here = self.preflop_sizes and obs.n >= self.preflop_sizes_from
            if obs.limit or not sized_here or rule.kind < BET:
                return rule
        book = self.versus
        players = [obs.player_id(i) for i in range(obs.n)]
        crowd = crowd_of(obs.n_in_hand)
        versus = None if book is None else [book.answers_of(p, crowd) for p in players]
        overbets = None if book is None else [book.overbets_of(p) for p in players]
        tables = build_tables(obs, self.model, self.generic_only, kappa, versus, overbets)
        spot = repr((self.seed, obs.hand_key, len(obs.history), obs.hole)).encode()
        config = self.config
        offsets = self._offsets(obs)
        if offsets is not None:
            config = replace(config, offsets=offsets)
        search = Search(obs, self.ranges, tables, config, seed=zlib.crc32(spot))
        # The iteration budget, cut short by the deadline when the worker gives one.
        deadline = None if self.deadline is None else self.deadline - SAFETY
        kept = self._kept
        root = follow(kept, obs) if kept is not None and self.keep_tree else None
        result = search.run(
            iterations=self.budget(obs.limit), deadline=deadline, clock=self.clock, root=root
        )
        passed_over: ActionStats | None = None
        if rule is not None:
            ratio = self.all_in_ratio if obs.n == 2 else 1.0
            sized, passed_over = rule_raise_size(
                result, self.config.min_share, obs.legal.max_to, ratio
            )
            if sized is None:
                return rule
            result = replace(result, choice=sized)
        self.last = result
        self._kept = self._keep(obs, result)
        if self.learned is not None and offsets is not None and result.iterations:
            me, choice = obs.index, result.choice
            key = cell(obs.street, choice.kind, obs.n_in_hand)
            if choice.kind != FOLD:  # valued exactly: nothing to learn
                searched = choice.value_bb - offsets.get(key, 0.0)
                put_in = int(obs.collected[me] + obs.bets[me])
                self.learned.searched(obs.hand_key, key, searched, put_in, obs.big_blind)
        choice = result.choice
        if not self.explain:
            text = ""
        elif rule is not None:
            # The rules chose to raise; the search only chose how much, so say both.
            best = (
                "the best of the raise sizes"
                if passed_over is None
                else f"the best short of all-in, whose {passed_over.value_bb:+.1f} bb is not "
                f"{self.all_in_ratio:g} times as much"
            )
            text = (
                f"{rule.reason}; {choice.label} by the search: {choice.value_bb:+.1f} bb "
                f"(±{choice.stderr_bb:.1f}) over {result.iterations} simulated hands, {best}"
            )
        else:
            text = reason(result, obs)
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
        )

    def _offsets(self, obs: Observation) -> Offsets | None:
        """What is added to this decision's searched values, if anything."""
        if not obs.limit or obs.n < 3:
            return None
        if self.learned is not None:
            return self.learned.offsets()
        return self.limit_offsets

    def budget(self, limit: bool) -> int:
        """Iterations for a decision in this game (a deadline may stop it sooner)."""
        if self.iterations is not None:
            return self.iterations
        return self.budgets[0] if limit else self.budgets[1]

    def _raise_share(self, obs: Observation, i: int) -> tuple[str, float]:
        """(player, share of its check/call/bet/raise decisions that bet or raise)."""
        player = obs.player_id(i)
        counts = self.book.peek(player).counts
        continued = float(counts[..., 1:].sum())
        share = float(counts[..., 2].sum()) / continued if continued else 0.3
        return player, share

    def _keep(self, obs: Observation, result: SearchResult) -> Kept | None:
        if not self.keep_tree:
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
            self.config.chance_buckets,
            self.config.overbet_players,
        )


def rule_raise_size(
    result: SearchResult, min_share: float, all_in_to: int, all_in_ratio: float = 1.0
) -> tuple[ActionStats | None, ActionStats | None]:
    """Where the preflop rules chose to raise: the best-valued of the searched raises
    (among those searched at least `min_share` as much as the most searched raise), and
    the all-in passed over for it. The all-in (the raise to `all_in_to`) is made only if
    worth `all_in_ratio` times the best smaller raise, or that is worth nothing."""
    raises = [a for a in result.actions if a.kind >= BET]
    most = max((a.visits for a in raises), default=0)
    searched = [a for a in raises if a.visits and a.visits >= min_share * most]
    best = max(searched, key=lambda a: a.value_bb, default=None)
    if best is None or best.to < all_in_to:
        return best, None
    smaller = [a for a in searched if a.to < all_in_to]
    runner_up = max(smaller, key=lambda a: a.value_bb, default=None)
    if runner_up is None or runner_up.value_bb <= 0:
        return best, None
    if best.value_bb >= all_in_ratio * runner_up.value_bb:
        return best, None
    return runner_up, best


def make_mcts(seed: int, variant: str = "") -> MctsBot:
    """The style and its ablations: "generic" (population model, nothing per player),
    "frequency" (frequency tables only), "random" (random rollouts), "uct" (UCT picks at
    the root too, instead of sequential halving), "puct" (PUCT picks at the root),
    "tree" (our later decisions searched by UCT/PUCT from a node's first visit, not
    left to our rule), "tree256" (the same after 256 visits of our rule: the default
    until 2026-11-23), "believe" (no reliability: every player's bets are taken to
    follow its cards), "preflop" (searches preflop too, instead of Loki's expert
    rules), "long" (four times the iterations), "noversus" (the opponents' answers to
    our bets not told apart from their answers to anyone's), "nomargin" (a bet or
    raise chosen whenever it is valued highest, as until 2026-11-23), "margin2" (it
    must beat checking or calling by two standard errors, not one), "nopotential"
    (No-Limit ranges and reliability rank holdings by their strength now, not averaged
    over the runouts: as until 2026-11-24), "sizes" (ranges also read a No-Limit bet's size as
    strength, `ai.models.ranges.size_given_raise`; not the default, see docs/search.md),
    "callmargin" (a call must beat the exact fold by two standard errors),
    "limitpotential" (ranges and the simulated opponents count draws in Limit too),
    "rankplay" (the simulated opponents act by their rank on the board now, not
    averaged over the runouts: as until 2026-11-24 afternoon), "believeloose" (every
    reliability read from 0.6 up believed fully, none below 0.2: as at dca0907),
    "networkranges" (the ranges read actions by the network's shares alone, not moved
    towards the player's own frequencies: as until 2026-11-24), "ownranges" (they are
    moved in every pot, in No-Limit too), "ownmultiway" (in Limit in every pot, as at
    a7f2028), "ownhutables" (in Limit at heads-up tables only, as at 76636ab),
    "ownhupots" (in two-player pots, counted over every decision, not only those made
    while we were in the hand), "lokipreflop" (Loki's preflop raising share at Limit
    tables of three or more, as at f1e0f60), "potcap" (No-Limit bets above the pot
    searched only heads-up, not with three or more in the hand), "rulesizes" (No-Limit
    preflop raises the pot where Loki's rules raise, the size not searched: as until
    2026-11-25 evening), "sizes3" (the size searched only at tables of three or more,
    heads-up raises the pot: as at 00b1500), "allinbest" (heads-up too, the all-in made
    whenever it is valued highest), "uncorrected" (at Limit tables of three or more the
    searched values as they are: as until 2026-11-25, fifth session), "corrected" (by the
    whole table measured against four lokis, not the cells shared with the pokis),
    "learned" (by offsets learned in the match from its own decisions and results),
    "nodefend" (preflop at Limit tables of three or more, Loki's rules fold a hand that
    put chips in to a raise whatever the price: as until 2026-11-25, seventh session)."""
    if variant == "frequency":
        return MctsBot(seed, models=ModelSet.frequency_only())
    if variant == "generic":
        return MctsBot(seed, generic_only=True)
    if variant == "random":
        return MctsBot(seed, config=replace(SearchConfig(), rollout=RANDOM))
    if variant == "puct":
        return MctsBot(seed, config=replace(SearchConfig(), puct=True, root=UCT))
    if variant == "believe":
        bot = MctsBot(seed)
        bot.believe = True
        return bot
    if variant == "believeloose":
        bot = MctsBot(seed)
        bot.reliability = Reliability(believed=0.6, card_blind=0.2)
        return bot
    if variant == "preflop":
        bot = MctsBot(seed)
        bot.search_preflop = True
        return bot
    if variant == "rulesizes":
        bot = MctsBot(seed)
        bot.preflop_sizes = False
        return bot
    if variant == "sizes3":
        bot = MctsBot(seed)
        bot.preflop_sizes_from = 3
        return bot
    if variant == "allinbest":
        bot = MctsBot(seed)
        bot.all_in_ratio = 1.0
        return bot
    if variant == "uncorrected":
        bot = MctsBot(seed)
        bot.limit_offsets = None
        return bot
    if variant == "corrected":
        bot = MctsBot(seed)
        bot.limit_offsets = LIMIT_TABLE
        return bot
    if variant == "learned":
        bot = MctsBot(seed)
        bot.learned = Learned()
        return bot
    if variant == "nomargin":
        return MctsBot(seed, config=replace(SearchConfig(), aggression_margin=0.0))
    if variant == "margin2":
        return MctsBot(seed, config=replace(SearchConfig(), aggression_margin=2.0))
    if variant == "potcap":
        return MctsBot(seed, config=replace(SearchConfig(), overbet_players=2))
    if variant in ("networkranges", "ownranges"):
        bot = MctsBot(seed)
        bot.own_play_ranges = (False, False) if variant == "networkranges" else (True, True)
        bot.own_play_in_hand = 10
        bot.own_play_with_us = False
        return bot
    if variant in ("ownmultiway", "ownhutables", "ownhupots"):
        bot = MctsBot(seed)
        bot.own_play_in_hand = 2 if variant == "ownhupots" else 10
        bot.own_play_seats = 2 if variant == "ownhutables" else 10
        bot.own_play_with_us = False
        return bot
    if variant == "nodefend":
        bot = MctsBot(seed)
        bot.defend_odds = 0.0
        return bot
    if variant == "lokipreflop":
        bot = MctsBot(seed)
        bot.limit_raise_ratio = RAISE_RATIO
        return bot
    if variant == "limitpotential":
        bot = MctsBot(seed)
        bot.limit_potential = True
        return bot
    if variant == "rankplay":
        return MctsBot(seed, config=replace(SearchConfig(), potential_play=False))
    if variant == "callmargin":
        return MctsBot(seed, config=replace(SearchConfig(), call_margin=2.0))
    if variant == "sizes":
        bot = MctsBot(seed)
        bot.ranges = RangeTracker(size_trust=0.5)
        return bot
    if variant == "nopotential":
        bot = MctsBot(seed)
        bot.potential = False
        return bot
    if variant == "noversus":
        bot = MctsBot(seed)
        bot.versus = None
        return bot
    if variant == "tree256":
        return MctsBot(seed, config=replace(SearchConfig(), warmup=256))
    if variant == "long":
        bot = MctsBot(seed)
        bot.budgets = (4 * LIMIT_ITERATIONS, 4 * NO_LIMIT_ITERATIONS)
        return bot
    if variant == "tree":
        return MctsBot(seed, config=replace(SearchConfig(), warmup=0))
    if variant == "uct":
        return MctsBot(seed, config=replace(SearchConfig(), root=UCT))
    return MctsBot(seed)
