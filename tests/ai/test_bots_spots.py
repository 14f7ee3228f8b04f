"""Each personality on fixed spots: the logic DOMAIN.md §4-5 describes."""

from __future__ import annotations

from search_spots import LIMIT2, LIMIT6, NL2, NL6, spot

from ai.bots import make_bot
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


def test_mcts_plays_lokis_preflop_rules_unpatched_at_multiway_limit() -> None:
    """Preflop at Limit tables of four or more, where more players are still in than
    the three-handed blueprint seats, mcts plays Loki's rules as they are
    (`MctsBot.preflop_play`; elsewhere the blueprint: test_search_preflop_multiway.py):
    no raising share, defence or all-in patch fitted to the built-in bots. Under the gun
    at six seats eights are a call for both; a raising hand that entered folds to a
    re-raise at 6 to 1 as the rules do (mcts there, the button after three folds, plays
    the three-handed blueprint)."""
    under_the_gun = spot(LIMIT6, {3: "8h8d"}, [])
    button_raised = [(FOLD, 0)] * 3 + [(RAISE, 4), (RAISE, 6), (FOLD, 0)]  # SB re-raises
    facing = spot(LIMIT6, {6: "Kh8d"}, button_raised)
    for obs, kind in ((under_the_gun, CALL), (facing, FOLD)):
        assert make_bot("loki", seed=1).decide(obs).kind == kind
    assert make_bot("mcts", seed=1).decide(under_the_gun).kind == CALL
