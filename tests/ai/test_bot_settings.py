"""Bots are built from settings (`make_bot(style, seed, settings)`), not mended after."""

from __future__ import annotations

import pytest

from ai.bots import STYLES, make_bot
from ai.bots.loki import LokiBot
from ai.bots.mcts import MctsBot
from ai.bots.settings import BotSettings
from ai.models.stats import StatsBook


@pytest.mark.parametrize("style", STYLES)
def test_every_style_explains_itself_when_its_host_asks(style: str) -> None:
    assert make_bot(style, 1, BotSettings(explain=True)).explain
    assert not make_bot(style, 1).explain


def test_modelling_bots_read_the_book_they_are_given() -> None:
    book = StatsBook()
    for style in ("loki", "poki", "mcts", "mcts-advisor"):
        bot = make_bot(style, 1, BotSettings(book=book))
        assert isinstance(bot, LokiBot)
        assert bot.book is book
    own = make_bot("loki", 1)
    assert isinstance(own, LokiBot)
    assert own.book is not book


def test_a_search_bot_takes_its_clock_and_tree_keeping_from_the_settings() -> None:
    def clock() -> float:
        return 0.0

    bot = make_bot("mcts", 1, BotSettings(keep_tree=False, clock=clock))
    assert isinstance(bot, MctsBot)
    assert bot.clock is clock
    assert not bot.config.keep_tree
    kept = make_bot("mcts", 1)
    assert isinstance(kept, MctsBot)
    assert kept.config.keep_tree
