"""The built-in policy that acts when no AI worker answers in time: simple, legal, instant.

It looks only at the seat's own view (hole cards, board, legal actions):
strong hands bet or raise the minimum once a street (then call, so two strong
hands do not min-raise each other all-in), medium hands check or call a modest
price, weak hands check or fold.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum

from holdem.actions import Action, ActionKind, LegalActions, Street
from holdem.cards import RANKS
from holdem.views import TableView
from protocol.messages import Advice


class Strength(StrEnum):
    WEAK = "weak"
    MEDIUM = "medium"
    STRONG = "strong"


def hand_strength(hole: tuple[str, ...], board: tuple[str, ...]) -> Strength:
    """A rough class of a holding: enough for a fallback, not for winning."""
    if len(hole) != 2:
        return Strength.WEAK
    high, low = sorted((RANKS.index(c[0]) for c in hole), reverse=True)
    if not board:
        if high == low:
            return Strength.STRONG if high >= RANKS.index("T") else Strength.MEDIUM
        if low >= RANKS.index("T") or (high == RANKS.index("A") and low >= RANKS.index("8")):
            return Strength.STRONG if low >= RANKS.index("Q") else Strength.MEDIUM
        suited = hole[0][1] == hole[1][1]
        if suited and (high - low <= 2 or high == RANKS.index("A")):
            return Strength.MEDIUM
        return Strength.WEAK
    counts = Counter(c[0] for c in (*hole, *board))
    hole_ranks = {c[0] for c in hole}
    best = max(counts[r] for r in hole_ranks)
    pairs_with_hole = sum(1 for r in hole_ranks if counts[r] >= 2)
    flush = max(Counter(c[1] for c in (*hole, *board)).values()) >= 5 and any(
        Counter(c[1] for c in (*hole, *board))[c[1]] >= 5 for c in hole
    )
    if best >= 3 or pairs_with_hole == 2 or flush:
        return Strength.STRONG
    if best == 2:
        return Strength.MEDIUM
    return Strength.WEAK


def fallback_action(view: TableView, legal: LegalActions) -> Action:
    seat = next((s for s in view.seats if s.seat == legal.seat), None)
    hole = seat.hole_cards if seat is not None and seat.hole_cards else ()
    strength = hand_strength(hole, view.board)
    big_blind = view.config.big_blind
    # More in front than a blind: this seat already bet or raised on this street.
    raised = seat is not None and seat.bet > (big_blind if view.street is Street.PREFLOP else 0)
    if strength is Strength.STRONG and legal.raise_kind is not None and not raised:
        return Action(kind=legal.raise_kind, amount=legal.min_to)
    if legal.can_check:
        return Action.check()
    cheap = legal.call_amount <= max(2 * big_blind, view.total_pot // 3)
    if strength is not Strength.WEAK and (cheap or strength is Strength.STRONG):
        return Action.call()
    return Action.fold() if legal.can_fold else Action.call()


def fallback_advice(view: TableView, legal: LegalActions, why: str) -> Advice:
    action = fallback_action(view, legal)
    seat = next((s for s in view.seats if s.seat == legal.seat), None)
    strength = hand_strength(seat.hole_cards or () if seat else (), view.board)
    return Advice(
        action=action.kind,
        amount=action.amount,
        reason=f"Built-in fallback ({why}): a {strength.value} hand.",
    )


def is_legal(legal: LegalActions, action: Action, is_limit: bool) -> bool:
    """A cheap check against LegalActions; the table's own rules have the last word."""
    if action.kind not in legal.kinds:
        return False
    if action.kind in (ActionKind.BET, ActionKind.RAISE):
        if action.amount is None:
            return is_limit
        assert legal.min_to is not None and legal.max_to is not None
        return legal.min_to <= action.amount <= legal.max_to
    return True
