"""Each personality on fixed spots: the logic DOMAIN.md §4-5 describes."""

from __future__ import annotations

from search_spots import LIMIT2, LIMIT6, NL2, NL6, spot

from ai.bots import make_bot
from ai.bots.mcts import DEFEND_ODDS
from ai.bots.poki import PokiBot
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE


def limp_around(count: int) -> list[tuple[int, int]]:
    return [(CALL, 0)] * count


def test_always_fold_folds_to_a_bet_and_checks_when_free() -> None:
    bot = make_bot("always-fold")
    facing = spot(LIMIT6, {3: "AsAh"}, [])  # UTG facing the big blind
    assert bot.decide(facing).kind == FOLD
    # The big blind after everyone limped may check for free.
    free = spot(LIMIT6, {2: "7c2d"}, limp_around(5))
    assert free.legal.can_check
    assert bot.decide(free).kind == CHECK


def test_calling_station_calls_and_checks() -> None:
    bot = make_bot("calling-station")
    assert bot.decide(spot(LIMIT6, {3: "7c2d"}, [(RAISE, 4)] * 0)).kind == CALL
    raised = spot(NL6, {4: "7c2d"}, [(RAISE, 50)])
    assert bot.decide(raised).kind == CALL
    assert bot.decide(spot(LIMIT6, {2: "7c2d"}, limp_around(5))).kind == CHECK


def test_always_raise_raises_while_allowed_then_calls() -> None:
    bot = make_bot("always-raise")
    decision = bot.decide(spot(NL6, {3: "7c2d"}, []))
    assert decision.kind == RAISE
    capped = spot(LIMIT6, {6: "7c2d"}, [(RAISE, 4), (RAISE, 6), (RAISE, 8)])
    assert capped.legal.raise_kind is None  # bet + 3 raises: capped
    assert bot.decide(capped).kind == CALL


def test_cautious_folds_weak_hands_and_raises_monsters() -> None:
    bot = make_bot("cautious")
    assert bot.decide(spot(LIMIT6, {4: "7c2d"}, [(RAISE, 4)])).kind == FOLD
    assert bot.decide(spot(LIMIT6, {3: "AsAh"}, [])).kind == RAISE


def test_aggressive_plays_hands_cautious_folds() -> None:
    hand = {3: "Ts7s"}
    aggressive = make_bot("aggressive").decide(spot(LIMIT6, hand, []))
    cautious = make_bot("cautious").decide(spot(LIMIT6, hand, []))
    assert aggressive.kind in (CALL, RAISE)
    assert cautious.kind == FOLD


def test_rational_calls_with_pot_odds_and_folds_without() -> None:
    bot = make_bot("rational")
    # Heads-up river, a small bet into a big pot with a medium hand: the odds pay.
    cheap = spot(
        LIMIT2,
        {2: "KcQd", 1: "2c3d"},
        [(RAISE, 4), (CALL, 0), (BET, 2), (CALL, 0), (BET, 4), (CALL, 0), (CHECK, 0), (BET, 4)],
        board="Kh8s4d9c2s",
    )
    assert cheap.legal.can_call
    assert bot.decide(cheap).kind in (CALL, RAISE)
    # 7-high with no draw facing a pot-sized No-Limit bet: fold.
    hopeless = spot(NL2, {2: "7c2d"}, [(CALL, 0), (CHECK, 0), (BET, 4)], board="AhKsQd")
    assert bot.decide(hopeless).kind == FOLD


def test_loki_raises_aces_and_folds_seven_deuce_to_an_early_raise() -> None:
    bot = make_bot("loki")
    assert bot.decide(spot(LIMIT6, {3: "AsAh"}, [])).kind == RAISE
    bot = make_bot("loki")
    assert bot.decide(spot(LIMIT6, {3: "7c2d"}, [])).kind == FOLD  # UTG, unopened
    bot = make_bot("loki")
    assert bot.decide(spot(LIMIT6, {4: "7c2d"}, [(RAISE, 4)])).kind == FOLD  # facing UTG's raise


def test_loki_bets_the_nuts_and_checks_air_postflop() -> None:
    bot = make_bot("loki")
    nuts = spot(LIMIT6, {1: "AhKh"}, [*limp_around(4), (CALL, 0), (CHECK, 0)], "QhJhTh")
    assert nuts.legal.raise_kind == BET
    decision = bot.decide(nuts)
    assert decision.kind == BET
    assert decision.ehs is not None and decision.ehs > 0.9
    assert "EHS" in decision.reason


def test_poki_raises_the_nuts_on_the_river() -> None:
    bot = make_bot("poki", seed=5)
    assert isinstance(bot, PokiBot)
    river = spot(
        LIMIT2,
        {2: "AhKh", 1: "9c9d"},
        [(CALL, 0), (CHECK, 0), (BET, 2), (CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 4)],
        board="QhJhTh2c3d",
    )
    assert river.legal.raise_kind == RAISE
    decision = bot.decide(river)
    assert decision.kind == RAISE
    values = decision.values
    assert values is not None
    assert values["raise"] > values["call"] > values["fold"] == 0.0
    assert decision.reason.startswith("Raise")


def test_poki_folds_hopeless_hands_to_a_bet() -> None:
    bot = make_bot("poki", seed=5)
    river = spot(
        LIMIT2,
        {2: "7c2d"},
        [(CALL, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0), (BET, 4)],
        board="AhKsQd9h8s",
    )
    assert bot.decide(river).kind == FOLD


def test_no_limit_sizes_are_pot_relative_and_clamped() -> None:
    bot = make_bot("always-raise")
    obs = spot(NL6, {3: "AsAh"}, [], stacks=400)
    decision = bot.decide(obs)
    # Pot-sized raise preflop: call 2 then raise the pot (1 + 2 + 2): to 7.
    assert (decision.kind, decision.to) == (RAISE, 7)
    short = spot(NL6, {3: "AsAh"}, [], stacks=5)
    decision = bot.decide(short)
    assert decision.to == short.legal.max_to == 5  # clamped to the stack


def test_random_bot_is_reproducible_from_its_seed() -> None:
    obs = spot(NL6, {3: "AsAh"}, [])
    first = [make_bot("random", seed=9).decide(obs) for _ in range(3)]
    assert len({(d.kind, d.to) for d in first}) == 1


def test_mcts_opens_more_hands_with_a_raise_at_limit_tables_of_three_or_more() -> None:
    """Preflop mcts plays Loki's rules, but at Limit tables of three or more raises with
    LIMIT_RAISE_RATIO of the hands it plays, not Loki's RAISE_RATIO: under the gun at six
    seats eights (the top 11% against five) are a raise for it and a call for loki.
    Heads-up and in No-Limit it plays Loki's share."""
    mcts = make_bot("mcts", seed=1)
    loki = make_bot("loki", seed=1)
    under_the_gun = spot(LIMIT6, {3: "8h8d"}, [])
    assert mcts.decide(under_the_gun).kind == RAISE
    assert loki.decide(under_the_gun).kind == CALL
    assert make_bot("mcts-lokipreflop", seed=1).decide(under_the_gun).kind == CALL
    no_limit = spot(NL6, {3: "8h8d"}, [])
    assert mcts.decide(no_limit).kind == CALL
    # The big blind heads-up after the button limped: T8 (the top 51% against one) would
    # be a raise with mcts's share at six seats; heads-up both check.
    limped = spot(LIMIT2, {1: "Th8d"}, [(CALL, 0)])
    assert make_bot("mcts", seed=1).decide(limped).kind == CHECK
    assert make_bot("loki", seed=1).decide(limped).kind == CHECK


def test_mcts_calls_a_re_raise_at_a_good_price_once_it_put_chips_in() -> None:
    """Loki's rules fold a raising hand outside the top of the range to a re-raise, at 6 to
    1 here; at Limit tables of three or more mcts calls whenever it has put chips in and
    the call is under DEFEND_ODDS of the pot after it. Not at a worse price, not before
    entering, not heads-up, not in No-Limit (`mcts-nodefend` keeps the rules)."""
    button_raised = [(FOLD, 0)] * 3 + [(RAISE, 4), (RAISE, 6), (FOLD, 0)]  # SB re-raises
    opened = spot(LIMIT6, {6: "Kh8d"}, [(FOLD, 0)] * 3)
    assert make_bot("mcts", seed=1).decide(opened).kind == RAISE
    facing = spot(LIMIT6, {6: "Kh8d"}, button_raised)
    assert facing.pot_odds < DEFEND_ODDS
    mcts = make_bot("mcts", seed=1)
    decision = mcts.decide(facing)
    assert decision.kind == CALL
    assert decision.reason.startswith("Call: 2 more to win 12 after putting chips in, 14% of")
    assert "the rules alone: Fold" in decision.reason
    assert make_bot("mcts-nodefend", seed=1).decide(facing).kind == FOLD
    # A limper facing three raises: 6 more to win 23, 21% of the pot after calling.
    dear = spot(
        LIMIT6, {3: "Kh8d"}, [(CALL, 0), (RAISE, 4), (RAISE, 6), (RAISE, 8)] + [(FOLD, 0)] * 2
    )
    assert dear.pot_odds >= DEFEND_ODDS
    assert make_bot("mcts", seed=1).decide(dear).kind == FOLD
    # Not having entered: the big blind's chips are not its own accord.
    cold = spot(LIMIT6, {2: "Kh8d"}, [(FOLD, 0)] * 3 + [(RAISE, 4), (RAISE, 6)])
    assert make_bot("mcts", seed=1).decide(cold).kind == FOLD
    heads_up = spot(LIMIT2, {2: "7h2d"}, [(RAISE, 4), (RAISE, 6)])  # the big blind re-raised
    assert heads_up.pot_odds < DEFEND_ODDS
    assert make_bot("mcts", seed=1).decide(heads_up).kind == FOLD
    no_limit = spot(NL6, {6: "7h2d"}, [(FOLD, 0)] * 3 + [(RAISE, 4), (RAISE, 6), (FOLD, 0)])
    assert no_limit.pot_odds < DEFEND_ODDS
    assert make_bot("mcts", seed=1).decide(no_limit).kind == FOLD
