"""The search's budgets: deterministic for a seed and an iteration budget; a deadline read
from an injected clock (so the test counts iterations, never wall time)."""

from __future__ import annotations

from search_spots import LIMIT2, LIMIT6, NL6, bot, spot

from ai.bots.mcts import MctsBot
from ai.game.observation import Observation
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search.mcts import HALVING, UCT, Search, SearchConfig
from ai.search.opponents import build_tables
from ai.search.profiles import DEFAULT
from ai.sim.rules import CALL, CHECK, RAISE

FLOP6 = spot(NL6, {1: "AhTd"}, [(CALL, 0)] * 5 + [(CHECK, 0)], board="Ts7c2h")
FLOP2 = spot(LIMIT2, {1: "AhTd"}, [(CALL, 0), (CHECK, 0)], board="Ts7c2h")


class TickingClock:
    """Advances one unit every time it is read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 1.0
        return self.now


def search(seed: int = 5, config: SearchConfig | None = None, obs: Observation = FLOP6) -> Search:
    model = OpponentModel(ModelSet.frequency_only())
    ranges = RangeTracker()
    ranges.update(obs, model)
    return Search(obs, ranges, build_tables(obs, model), config, seed=seed)


def test_same_seed_and_budget_give_the_same_search() -> None:
    first = search().run(iterations=300)
    second = search().run(iterations=300)
    assert first.iterations == second.iterations == 300
    assert first.actions == second.actions
    assert first.choice == second.choice
    other = search(seed=6).run(iterations=300)
    assert other.actions != first.actions


def test_the_bot_is_deterministic_for_its_seed() -> None:
    obs = spot(LIMIT6, {4: "QhQd"}, [(RAISE, 0)])
    a, b = bot(iterations=200, seed=9), bot(iterations=200, seed=9)
    first, second = a.decide(obs), b.decide(obs)
    assert (first.kind, first.to, first.values) == (second.kind, second.to, second.values)


def test_a_deadline_stops_the_search_within_one_check() -> None:
    for root in (UCT, HALVING):
        config = SearchConfig(check_every=16, root=root)
        clock = TickingClock()
        result = search(config=config).run(iterations=None, deadline=10.0, clock=clock)
        # The clock passes the deadline on its 10th read; reads come every 16 iterations
        # (halving plays every action still in on a deal: a check may come a deal later).
        assert clock.reads == 10
        actions = len(result.actions)
        assert 9 * 16 <= result.iterations <= 9 * (16 + actions), root
        assert sum(a.visits for a in result.actions) == result.iterations


def test_the_iteration_budget_wins_when_it_comes_first() -> None:
    clock = TickingClock()
    result = search().run(iterations=40, deadline=1e9, clock=clock)
    assert result.iterations == 40


def test_a_deadline_already_past_still_gives_a_legal_answer() -> None:
    result = search().run(iterations=None, deadline=0.0, clock=TickingClock())
    assert result.iterations == 0
    assert result.choice.kind in (CHECK, CALL)  # nothing searched: the free check


def test_the_bot_honours_its_deadline_on_its_clock() -> None:
    searcher: MctsBot = bot(iterations=10_000)
    clock = TickingClock()
    searcher.clock = clock
    searcher.deadline = 5.0
    searcher.explain = True
    decision = searcher.decide(FLOP6)
    assert decision.is_legal(FLOP6.legal)
    assert searcher.last is not None and searcher.last.iterations <= 5 * 16
    # Cut short, the answer may differ from the full search's: the reason says so.
    done = searcher.last.iterations
    assert decision.reason.endswith(f"Stopped at {done} of 10000 hands: busy.")


def test_by_default_our_later_decisions_follow_our_rule() -> None:
    """Every node below the root plays our rule (warm-up NEVER): the same deals give the
    same values each time, and the tree still grows; searched from a node's first visit
    (warm-up 0) the later nodes explore, and the values differ."""
    first = search().run(iterations=200)
    again = search().run(iterations=200)
    assert first.actions == again.actions and first.root.size() > 1
    assert first.choice.kind in {a.kind for a in first.actions}
    ruled = search(obs=FLOP2).run(iterations=2000).actions
    assert ruled != search(config=SearchConfig(warmup=0), obs=FLOP2).run(iterations=2000).actions


def test_a_bot_out_of_time_claims_no_searched_values() -> None:
    """No iteration done: the decision carries no values (advice then estimates them from
    the equity) rather than zeros that read as searched."""
    searcher: MctsBot = bot(iterations=10_000)
    searcher.clock = TickingClock()
    searcher.deadline = 0.0
    decision = searcher.decide(FLOP6)
    assert decision.is_legal(FLOP6.legal)
    assert decision.values is None and decision.spread is None
    assert decision.equity is not None


def test_without_a_fixed_budget_no_limit_searches_longer_than_limit() -> None:
    for obs, budget in ((FLOP2, DEFAULT.limit_iterations), (FLOP6, DEFAULT.no_limit_iterations)):
        searcher = MctsBot(1, models=ModelSet.frequency_only())  # a bot per hand
        searcher.decide(obs)
        assert searcher.last is not None and searcher.last.iterations == budget
    assert DEFAULT.no_limit_iterations > DEFAULT.limit_iterations
