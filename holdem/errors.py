"""Typed errors whose messages a player understands; raising one changes nothing."""

from __future__ import annotations


class RuleError(Exception):
    """Base of every rule violation. `code` is stable for clients; str() is for people."""

    code = "rule"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalActionError(RuleError):
    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    code = "not_your_turn"


class HandOverError(IllegalActionError):
    code = "hand_over"


class SeatError(RuleError):
    """Sitting, standing, sitting out or rebuying at the wrong time or place."""

    code = "seat"


class BuyInError(SeatError):
    code = "buy_in"


class ConfigError(RuleError):
    code = "config"
