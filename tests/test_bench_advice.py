"""`showdown bench advice`'s player between hands: a broke player buys in again and then
comes back from sitting out (once it stopped there, waiting for a turn that never came)."""

from __future__ import annotations

import json
from typing import Any

from showdown.benchmarks.advice import _Player

SEAT = 6


def state(hand_no: int, stack: int, seat_state: str, actor: int | None = None) -> str:
    seats = [{"seat": SEAT, "state": seat_state, "stack": stack}]
    view = {
        "hand_no": hand_no,
        "hand_in_progress": actor is not None,
        "actor": actor,
        "legal_actions": {"fold": True} if actor == SEAT else None,
        "seats": seats,
        "config": {"max_buy_in": 10_000},
    }
    return json.dumps({"type": "state", "view": view})


class ScriptedSocket:
    """Answers each receive with the next scripted message and keeps what was sent."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.sent: list[dict[str, Any]] = []

    async def recv(self) -> str:
        return self.script.pop(0)

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


async def test_a_broke_player_buys_in_then_sits_back_in_the_same_pause() -> None:
    ws = ScriptedSocket(
        [
            state(5, 0, "sitting_out"),  # lost the stack: the table sat us out
            state(5, 10_000, "sitting_out"),  # the rebuy is in; still sat out
            state(6, 10_000, "active", actor=SEAT),  # back, and our turn
        ]
    )
    player = _Player(ws)
    await player.until("state")
    view = await player.my_turn(SEAT)
    assert view["hand_no"] == 6
    assert [m["type"] for m in ws.sent] == ["rebuy", "sit_back"]
