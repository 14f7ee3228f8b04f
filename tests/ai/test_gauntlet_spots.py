"""`showdown spots` (`ai.gauntlet.spots`): a searching bot's margins against the exact ones."""

from __future__ import annotations

import json

import pytest

from ai.arena.exact import HandProbe
from ai.arena.match import BIG_BLIND, Match, MatchConfig
from ai.bots import Bot, Decision, make_bot
from ai.bots.mcts import MctsBot
from ai.bots.simple import RandomBot
from ai.game.observation import Observation
from ai.gauntlet.known import blueprint
from ai.gauntlet.spots import SpotConfig, play_spots, spot_rows, spots_json
from ai.search.mcts import ActionStats, SearchResult
from holdem.config import Variant
from showdown.cli import main

ITERATIONS = 60  # a small budget: the test needs searched decisions, not good ones


def small_mcts(style: str, seed: int) -> Bot:
    bot = make_bot(style, seed)
    if isinstance(bot, MctsBot):
        bot.iterations = ITERATIONS
    return bot


class Oracle(RandomBot):
    """Test only, not fair play: values its legal actions exactly from the arena's real
    state (`obs.sim`, both holdings), the blueprint playing both seats afterwards, each
    shifted by the same 1.5 bb (the margins must not see a common shift), and plays at
    random."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.last: SearchResult | None = None

    def decide(self, obs: Observation) -> Decision:
        decision = super().decide(obs)
        assert obs.sim is not None
        probe = HandProbe(obs.index, (blueprint,), blueprint, [0.0], [0.0])
        stats = [
            ActionStats(str(k), k, 0, 1, probe.q(0, obs.sim, list(obs.history), k) / BIG_BLIND
            + 1.5, 0.0, 1.0)
            for k in obs.legal.kinds
        ]  # fmt: skip
        choice = next(a for a in stats if a.kind == decision.kind)
        self.last = SearchResult(stats, choice, 1, 0.0, None)  # type: ignore[arg-type]
        return decision


def test_the_rows_add_up_to_the_searched_decisions_and_the_probe_leaks_nothing() -> None:
    config = SpotConfig("mcts", "blueprint", 6, 3)
    run = play_spots(config, blueprint, blueprint, small_mcts)
    rows = spot_rows(run.decisions)
    assert rows[-1].key == "all" and rows[-1].decisions == len(run.decisions) > 0
    assert sum(r.decisions for r in rows[:-1]) == len(run.decisions)
    # The same match without the probe: the bot's every searched decision (counted by the
    # match itself), its choices and the chips are the same.
    plain = Match(
        MatchConfig(Variant.LIMIT, ("mcts", "blueprint"), 6, 3, duplicate=True, decisions=True),
        small_mcts,
    ).play()
    ours = [d for d in plain.decisions if d["player"] == plain.names[0]]
    assert run.alone == 0 and len(ours) == len(run.decisions)
    assert [d["choice"] for d in ours] == [d.taken for d in run.decisions]
    assert (plain.net_bb == run.result.net_bb).all()
    # Determinism under the seed.
    assert spots_json(play_spots(config, blueprint, blueprint, small_mcts)) == spots_json(run)


def test_a_bot_whose_values_are_the_exact_ones_shows_no_gap() -> None:
    def make(style: str, seed: int) -> Bot:
        return Oracle(seed) if style == "oracle" else make_bot(style, seed)

    run = play_spots(SpotConfig("oracle", "blueprint", 6, 5), blueprint, blueprint, make)
    assert len(run.decisions) >= 6 and run.unsearched == 0
    assert len({d.taken for d in run.decisions}) >= 2
    for d in run.decisions:
        assert d.search_bb == pytest.approx(d.exact_bb, abs=1e-9)
    assert spot_rows(run.decisions)[-1].gap.mean == pytest.approx(0.0, abs=1e-9)


def test_the_command_prints_the_rows_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["spots", "--opponent", "calling-station", "--continuation", "calling-station"]
    argv += ["--iterations", str(ITERATIONS), "--hands", "4", "--seed", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bot"] == "mcts" and out["opponent"] == "calling-station"
    assert out["hands"] == 4 and out["decisions"] > 0
    rows = out["rows"]
    assert rows[-1]["spot"] == "all"
    assert sum(r["decisions"] for r in rows[:-1]) == out["decisions"]
    for field in ("search", "exact", "search_minus_exact"):
        assert set(rows[-1][field]) == {"mean_bb", "ci95"}
    assert main(["spots", "--opponent", "loki"]) == 2
