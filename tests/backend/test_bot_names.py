"""A bot's name says its style, at every table (issue #34: "Ada" was rational at one
table and mcts at the next)."""

from __future__ import annotations

from backend_testlib import RunningServer, create_table, guest

from backend.bot_names import NAMES, bot_name
from protocol.messages import BOT_STYLES


def test_every_name_belongs_to_one_style() -> None:
    owners = [name for style in BOT_STYLES for name in NAMES[style]]
    assert len(owners) == len(set(owners))


def test_a_style_s_bots_at_one_table_are_told_apart() -> None:
    taken: list[str] = []
    for _ in range(len(NAMES["mcts"]) + 2):
        taken.append(bot_name("mcts", taken))
    assert taken == [*NAMES["mcts"], "Monty 2", "Monty 3"]


async def test_the_same_style_has_the_same_names_at_every_table(server: RunningServer) -> None:
    token, _ = await guest(server, "Ana")
    first = await create_table(server, token, seats=6, bots=3, bot_styles=["rational", "mcts"])
    second = await create_table(server, token, seats=6, bots=3, bot_styles=["mcts", "rational"])
    named: dict[str, set[str]] = {}
    for table in (first, second):
        for seat in table["view"]["seats"]:
            named.setdefault(seat["name"], set()).add(seat["bot_style"])
    assert all(len(styles) == 1 for styles in named.values()), named
    assert named["Ada"] == {"rational"} and named["Monty"] == {"mcts"}
    assert [s["name"] for s in second["view"]["seats"]] == ["Monty", "Ada", "Carlo"]
