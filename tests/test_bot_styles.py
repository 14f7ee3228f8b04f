"""The bot styles a table may seat: one list, kept equal in the server, the worker and the web."""

from __future__ import annotations

import re
from pathlib import Path

from ai.bots import STYLES, make_bot
from protocol.messages import BOT_STYLES

WEB_TYPES = Path(__file__).resolve().parents[1] / "frontend" / "src" / "protocol" / "types.ts"


def test_the_worker_plays_every_style_a_table_may_seat() -> None:
    assert STYLES == BOT_STYLES
    for style in BOT_STYLES:
        assert make_bot(style, seed=1) is not None


def test_the_web_client_offers_the_same_styles() -> None:
    block = re.search(r"export const BOT_STYLES = \[(.*?)\] as const", WEB_TYPES.read_text(), re.S)
    assert block is not None
    assert tuple(re.findall(r'"([^"]+)"', block.group(1))) == BOT_STYLES
