"""Every setting of the search bot in one frozen config, and its named profiles.

`default` plays at tables (the `mcts` style), `advisor` answers advice and "Let AI
decide", and the rest are ablations, each one switch away from the default (the arena
styles `mcts-<name>`). Nothing here was fitted to the built-in bots: the earlier offset
tables, defend and all-in patches, card-blind switch and margins are in git history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai.search.mcts import BEST, RANDOM, RULE, UCT, SearchConfig


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
    # Preflop searched too; otherwise our preflop play is `MctsBot.preflop_play` (Loki's
    # rules until the blueprint takes that seam over).
    search_preflop: bool = False
    # No-Limit, preflop by the rules: where they raise, the search picks the size.
    preflop_sizes: bool = True
    # The tree of our last decision continued at the next one of the hand when the line
    # holds. The advisor starts afresh each time: the same spot gets the same answer.
    keep_tree: bool = True

    def iterations(self, limit: bool) -> int:
        return self.limit_iterations if limit else self.no_limit_iterations


DEFAULT = MctsConfig()
ADVISOR = MctsConfig(limit_iterations=3000, search_preflop=True, keep_tree=False)

# name -> (config, what it ablates)
ABLATIONS: dict[str, tuple[MctsConfig, str]] = {
    "generic": (MctsConfig(generic_only=True), "no per-player model: the population's"),
    "frequency": (MctsConfig(frequency_only=True), "frequency tables only, no network"),
    "random": (MctsConfig(search=SearchConfig(rollout=RANDOM)), "random rollouts"),
    "uct": (MctsConfig(search=SearchConfig(root=UCT)), "UCT at the root, not halving"),
    "puct": (MctsConfig(search=SearchConfig(root=UCT, puct=True)), "PUCT with the model prior"),
    "rule": (
        MctsConfig(search=SearchConfig(continuation=RULE)),
        "values the plain average, no floor under a free check (before #33)",
    ),
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
