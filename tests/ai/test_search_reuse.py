"""The tree is kept between our decisions in a hand while the line holds."""

from __future__ import annotations

from dataclasses import replace

from search_spots import LIMIT2, NL2, bot, spot

from ai.game.observation import ActionRecord, Decision
from ai.game.observe import apply, observe
from ai.math.range_strength import LEX_INDEX
from ai.models.ranges import holding_strengths
from ai.search.kernel import CARD_CLASSES
from ai.search.reuse import follow
from ai.sim.rules import CALL, CHECK, FLOP


def test_the_next_decision_starts_from_the_kept_subtree() -> None:
    # (A No-Limit hand the search bets small: with others it may move all in, as a
    # bluff or for value, and end the hand.)
    for config, hole in ((LIMIT2, "AhKd"), (NL2, "Jh9h")):
        for buckets in (0, 5):  # the turn keyed by its card, or by our strength class
            obs = spot(config, {1: hole}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
            searcher = bot(iterations=800, seed=2)
            search = replace(searcher.config.search, chance_buckets=buckets)
            searcher.config = replace(searcher.config, search=search)
            state = obs.sim
            assert state is not None
            history: list[ActionRecord] = list(obs.history)
            apply(state, searcher.decide(obs), history, obs)
            kept = searcher._kept
            assert kept is not None and kept.chosen >= 0 and kept.buckets == buckets
            # The dealer follows the line the search visited most: the opponent checks or
            # calls, then a turn card it saw most often (or one of that strength class).
            passive = FLOP * 64 + 8
            lines = kept.root.children[kept.chosen]
            key = max((k for k in lines if k[0] == passive), key=lambda k: lines[k].total)
            flop = tuple(state.runout[:3])
            free = [c for c in range(52) if c not in {*state.holes[0], *flop}]
            if buckets:
                assert key[-1] >= CARD_CLASSES
                turn_card = next(c for c in free if class_of(obs.hole, (*flop, c)) == key[-1])
            else:
                turn_card = key[-1]
            spare = [c for c in free if c != turn_card]
            state.set_cards(holes=[state.holes[0], (spare[0], spare[1])])
            state.set_cards(runout=[turn_card, spare[2]])
            seen = observe(state, history, hand_key="spot")
            apply(state, Decision(CALL if seen.legal.can_call else CHECK), history, seen)
            turn = observe(state, history, hand_key="spot")
            assert turn.index == 0 and turn.board[-1] == turn_card
            root = follow(kept, turn)
            before = lines[key].total
            assert root is not None and root.total == before > 0, (config.variant, buckets)
            searcher.decide(turn)
            assert searcher.last is not None
            assert searcher.last.root.total == before + searcher.iterations


def class_of(hole: tuple[int, int], board: tuple[int, ...]) -> int:
    """Our strength class's key on `board` (five classes), as the search keys it."""
    strength = float(holding_strengths(board, 1)[LEX_INDEX[hole[0], hole[1]]])
    return CARD_CLASSES + min(int(strength * 5), 4)


def test_another_hand_or_another_line_starts_afresh() -> None:
    obs = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    searcher = bot(iterations=200)
    searcher.decide(obs)
    kept = searcher._kept
    assert kept is not None
    other = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    other.hand_key = "another hand"
    assert follow(kept, other) is None
    assert follow(kept, obs) is None  # nothing happened since: not the kept line
