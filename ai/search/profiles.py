"""Every setting of the search bot in one frozen config, and its named profiles.

`default` plays at tables (the `mcts` style), `advisor` answers advice and "Let AI
decide", and the rest are ablations, each one switch away from the default (the arena
styles `mcts-<name>`). Nothing here was fitted to the built-in bots: the earlier offset
tables, defend and all-in patches, card-blind switch and margins are in git history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai.search.mcts import BEST, RANDOM, UCT, SearchConfig
from ai.search.reliability import PRIOR_SHOWS


@dataclass(frozen=True, slots=True)
class MctsConfig:
    search: SearchConfig = field(default_factory=SearchConfig)
    # Iterations per decision when the caller fixes none (a deadline may stop it sooner).
    # No-Limit's seven actions need more to tell apart.
    limit_iterations: int = 2000
    no_limit_iterations: int = 8000
    # The population model only: nothing learned about any player (an ablation).
    generic_only: bool = False
    # The opponent model's frequency tables only, no network (an ablation).
    frequency_only: bool = False
    # Preflop searched too; otherwise our preflop play is `MctsBot.preflop_play`.
    search_preflop: bool = False
    # `MctsBot.preflop_play` wherever a blueprint covers the table (heads-up, three-handed
    # Limit, No-Limit with three to six): the blueprint's (sampled; No-Limit with its
    # sizes); False: Loki's expert rules.
    preflop_blueprint: bool = True
    # At Limit tables of four or more the same (the three-handed blueprint) once the
    # players who folded first leave no more than three in (`ai.policy.nway.lookup.
    # folded_out`); False: Loki's rules there. No-Limit beyond six: Loki's rules (the
    # same mapping onto the 6-max blueprint is not measured yet).
    preflop_folded_out: bool = True
    # Heads-up: each opponent's shares in the search are the blueprint's moved
    # towards the opponent model by n / (n + evidence_k), n the decisions seen of that
    # player (`ai.search.blueprint_prior`); False: the model's alone (priors drawn from
    # the built-in bots' play).
    blueprint_prior: bool = True
    # No-Limit heads-up: the same with the No-Limit blueprint (`blueprint_prior.nway_prior`:
    # shares and bet sizes). Off in the advisor: the kernel's tables answer every bet up to
    # the pot alike and every bet beyond it alike, so the blueprint's answers (its folds
    # to half-pot and pot bets, and to all-ins) made overbet bluffs with air look best in
    # the advice spots (tests/ai/test_search_spots.py); until the kernel tells sizes
    # apart, advice at No-Limit stays on the model.
    nolimit_prior: bool = True
    evidence_k: float = 200.0
    # Heads-up Limit: the ranges read each opponent action by those same blended shares
    # (`MctsBot._blueprint_reading`), not by the model's alone (priors from the built-in
    # bots' play, which bet only strong hands): the holdings dealt and the play simulated
    # then come from one reading of the player.
    reads_by_blueprint: bool = True
    # With reads_by_blueprint: each holding's action read by the blueprint's strategy for
    # its card bucket at the node reached (`MctsBot._holding_reading`), not by flat shares.
    reads_per_holding: bool = True
    # With reads_per_holding: in the search's simulations each opponent's card-following
    # play (kappa) is the blueprint's strategy for its card bucket with probability 1 - w
    # (w as above), the model's strength thresholds otherwise (`ai.search.kernel.opponent_act`): the
    # play simulated and the range read come from the same per-holding strategy.
    opponents_by_blueprint: bool = True
    # No-Limit: a player's bet or raise beyond the pot read by its size
    # (`RangeTracker.overbet_sizes`): the top slice of its raising holdings, the slice
    # its share of such sizes in that context (the model's, corrected by the sizes seen
    # of it). Smaller sizes are read size-blind.
    reads_overbets: bool = False
    # Heads-up Limit, preflop by the blueprint: where it samples a fold and anything was
    # seen of the opponent, the search (whose opponents carry the evidence weight above)
    # is consulted, and the fold gives way to the best continuing action when that
    # action's whole 95% interval is above folding's 0 (`MctsBot.evidence_overrules`).
    # The equilibrium folds hands that a player seen raising at random pays off; with no
    # evidence, the blueprint's fold.
    preflop_evidence: bool = True
    # The same at No-Limit tables, on the No-Limit blueprints' folds: heads-up (measured:
    # docs/experiments/2026-11-27-nolimit-blueprint-in-the-search.md) and three to six
    # handed, once anything was seen of a player still in
    # (docs/experiments/2026-11-28-six-handed-preflop-evidence.md).
    nolimit_evidence: bool = True
    # No-Limit, preflop by the rules: where they raise, the search picks the size.
    preflop_sizes: bool = True
    # No-Limit heads-up, preflop by the blueprint, once anything was seen of the opponent
    # (`MctsBot.consults_search`): where the blueprint samples a raise the search (against
    # the blended opponents) picks its size up to the pot; with nothing seen, the
    # blueprint's size (`MctsBot.sizes_by_evidence`). Bigger sizes lost: the search valued
    # the all-in against a calling station above raises whose later streets its rollouts
    # play (docs/experiments/2026-11-27-nolimit-preflop-sizes-by-evidence.md).
    evidence_sizes: bool = True
    # The same, and where the blueprint samples a call, the search's raise (up to the
    # pot) replaces it only when that raise's whole 95% interval is above the call's
    # (`ai.bots.mcts.raise_overrules`).
    evidence_raises: bool = True
    # Imaginary shows at a strength-driven player's strength that an unknown player's
    # reliability kappa starts from (`ai.search.reliability`): the more, the longer a
    # card-blind player's bets are believed (a random agent rarely shows after betting).
    prior_shows: float = PRIOR_SHOWS
    # Heads-up Limit after the flop (preflop is the blueprint's already): the blueprint's
    # own sampled action stands unless the search's best beats it by more than this many
    # standard errors of the difference, sqrt(se_best^2 + se_anchor^2) ("deviate only
    # when the search is sure"; `MctsBot.anchored`). None: the search's best, as before;
    # infinity: the blueprint's play. Sampled, not the blueprint's most likely action, so
    # that a large k plays the blueprint's mixed strategy itself (its bluffs and slow
    # plays), the policy the search is meant to beat. k = 1 chosen on the training set
    # (2 and 3 lost to always-raise and calling-station); against the blueprint, exact
    # per decision, mcts - blueprint -5.7 -> +13.0 [+1.7, +24.4] bb/100 on seed 52, pooled
    # with seed 55 -8.9 -> +3.4 [-4.5, +11.3]
    # (docs/experiments/2026-11-29-blueprint-anchored-search.md).
    blueprint_anchor: float | None = 1.0
    # The tree of our last decision continued at the next one of the hand when the line
    # holds. The advisor starts afresh each time: the same spot gets the same answer.
    keep_tree: bool = True

    def iterations(self, limit: bool) -> int:
        return self.limit_iterations if limit else self.no_limit_iterations


DEFAULT = MctsConfig()
ADVISOR = MctsConfig(
    limit_iterations=3000,
    search_preflop=True,
    keep_tree=False,
    nolimit_prior=False,
    # A No-Limit bet beyond 1.4 pots read as the top of the bettor's raises, and the
    # deals drawn from that range with the probability the bettor's shows give its bets
    # (SearchConfig.mixed_ranges): calls of shoves valued against what shoves hold
    # (docs/experiments/2026-11-28-advisor-reads-shoves.md).
    reads_overbets=True,
    # One imaginary show, not four: a card-blind player's bets believed for fewer hands
    # (docs/experiments/2026-11-28-advisor-calibration-validation.md).
    prior_shows=1.0,
    # Its ranges keep the model's reading (its calibration was measured so).
    reads_by_blueprint=False,
    # Its answer is the search's best, the values it shows (the anchor is measured in
    # play only).
    blueprint_anchor=None,
    # Our later decisions in the simulations by the blueprint: values of a sound
    # continuation, not of the rollout rule's (SearchConfig.blueprint_rollouts).
    search=SearchConfig(blueprint_rollouts=True, mixed_ranges=True),
)

# name -> (config, what it ablates)
ABLATIONS: dict[str, tuple[MctsConfig, str]] = {
    "noblueprint": (
        MctsConfig(preflop_blueprint=False, blueprint_prior=False, blueprint_anchor=None),
        "no blueprint: Loki's preflop rules, opponents from the model alone (before #33)",
    ),
    "generic": (MctsConfig(generic_only=True), "no per-player model: the population's"),
    "frequency": (MctsConfig(frequency_only=True), "frequency tables only, no network"),
    "random": (MctsConfig(search=SearchConfig(rollout=RANDOM)), "random rollouts"),
    "uct": (MctsConfig(search=SearchConfig(root=UCT)), "UCT at the root, not halving"),
    "puct": (MctsConfig(search=SearchConfig(root=UCT, puct=True)), "PUCT with the model prior"),
    "noreuse": (MctsConfig(keep_tree=False), "no tree kept between decisions"),
    "best": (
        MctsConfig(search=SearchConfig(continuation=BEST)),
        "values backed up through each later node: its settled action, or folding there "
        "where clearly better (kernel.best_values)",
    ),
}

PROFILES: dict[str, MctsConfig] = {
    "default": DEFAULT,
    "advisor": ADVISOR,
    **{name: config for name, (config, _) in ABLATIONS.items()},
}


def profile(name: str) -> MctsConfig:
    """The named profile; KeyError naming the known ones."""
    try:
        return PROFILES[name or "default"]
    except KeyError:
        raise KeyError(f"unknown mcts profile {name!r} (known: {', '.join(PROFILES)})") from None
