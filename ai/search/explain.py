"""One sentence of reasoning built only from the search's numbers, never against them.

The chosen action has the best value (or is the best smaller action an overbet all-in
did not clearly beat, which the sentence then says), so the sentence
leads with it and its margin over the next best, or names the close call when the two
values' 95% intervals overlap; a bet or raise says how often the opponents folded to it
in the simulated hands (the folds its value assumes); equity (against the ranges the
reads show) and pot odds come after, and when they point the other way the sentence
says why the values differ (what the later streets win or cost).
"""

from __future__ import annotations

from ai.game.observation import Observation
from ai.search.mcts import ActionStats, SearchResult
from ai.sim.rules import BET, FOLD

MAX_CHARS = 300


def _title(stats: ActionStats, limit: bool) -> str:
    word, _, amount = stats.label.partition(" ")
    if amount and stats.kind >= BET:
        return f"{word.capitalize()} to {amount}"
    return word.capitalize()


def _gerund(stats: ActionStats) -> str:
    word = stats.label.split()[0]
    return {"check": "checking", "call": "calling", "bet": "betting"}.get(word, "raising")


def _value(stats: ActionStats) -> str:
    if stats.kind == FOLD:
        return "fold 0"
    if stats.floored:
        return f"{stats.label} at least {stats.value_bb:+.1f} bb (we can fold to a bet later)"
    return f"{stats.label} {stats.value_bb:+.1f} bb (±{stats.stderr_bb:.1f})"


def _over(result: SearchResult) -> str:
    return f"over {result.iterations} simulated hands"


def reason(result: SearchResult, obs: Observation) -> str:
    """E.g. "Raise to 12: +1.4 bb (±0.3) over 2000 simulated hands, 41% of them; ahead of
    call +0.6 bb (±0.2), fold 0. 63% equity against their ranges, pot odds 25%."

    >>> from ai.search.mcts import ActionStats
    >>> fold = ActionStats("fold", 0, 0, 0, 0.0, 0.0, 0.0)
    >>> a = [fold, ActionStats("call", 2, 0, 90, -1.2, 0.3, 1.0)]
    >>> from types import SimpleNamespace as NS
    >>> r = NS(actions=a, choice=a[0], iterations=90, equity=0.3, close=None)
    >>> o = NS(limit=True, pot_odds=0.25, n_opponents=1)
    >>> print(reason(r, o))  # doctest: +NORMALIZE_WHITESPACE
    Fold: calling loses 1.2 bb (±0.3) over 90 simulated hands. 30% equity against the
    opponent's range beats the pot odds of 25%, but the later streets cost more.
    """
    choice = result.choice
    others = sorted(
        (s for s in result.actions if s is not choice and (s.visits or s.kind == FOLD)),
        key=lambda s: -s.value_bb,
    )
    whom = "their ranges" if obs.n_opponents > 1 else "the opponent's range"
    equity = f"{100 * result.equity:.0f}% equity against {whom}"
    odds = obs.pot_odds
    if choice.kind == FOLD:
        best = others[0] if others else None
        if best is None:
            head = "Fold: nothing else was searched"
        elif best.value_bb > 0:
            # Chosen under a margin: the bet's or call's lead is within its uncertainty.
            head = (
                f"Fold: {_gerund(best)} {best.value_bb:+.1f} bb (±{best.stderr_bb:.1f}) "
                f"{_over(result)} is not clearly better"
            )
        else:
            head = (
                f"Fold: {_gerund(best)} loses {-best.value_bb:.1f} bb "
                f"(±{best.stderr_bb:.1f}) {_over(result)}"
            )
        if getattr(result, "close", None) is not None and best is not None and best.value_bb <= 0:
            head += ", a close call: their 95% intervals overlap"
        if odds and result.equity >= odds:
            tail = (
                f"{equity} beats the pot odds of {100 * odds:.0f}%, but the later streets cost more"
            )
        else:
            tail = equity + (f", pot odds {100 * odds:.0f}%" if odds else "")
        return f"{head}. {tail}."[:MAX_CHARS]
    value = (
        f"at least {choice.value_bb:+.1f} bb (we can fold to a bet later)"
        if getattr(choice, "floored", False)
        else f"{choice.value_bb:+.1f} bb (±{choice.stderr_bb:.1f})"
    )
    head = (
        f"{_title(choice, obs.limit)}: {value} {_over(result)}, {100 * choice.share:.0f}% of them"
    )
    close = getattr(result, "close", None)
    if others and others[0].value_bb > choice.value_bb:
        # An overbet all-in whose lead is within its uncertainty.
        head += f"; {_value(others[0])} is not clearly better"
    elif close is not None:
        head += f"; a close call with {_value(close)}: their 95% intervals overlap"
    elif others:
        head += "; ahead of " + ", ".join(_value(s) for s in others[:2])
    if choice.kind >= BET:
        head += f"; they all fold in {100 * choice.folds:.0f}% of those hands"
    if odds and result.equity < odds:
        tail = f"{equity} is below the pot odds of {100 * odds:.0f}%, but the later streets pay"
    else:
        tail = equity + (f", pot odds {100 * odds:.0f}%" if odds else "")
    return f"{head}. {tail}."[:MAX_CHARS]
