"""Advice for a player: the recommended action, each candidate's value, reads on opponents."""

from __future__ import annotations

from ai.bots.base import Bot
from ai.bots.loki import LokiBot
from ai.bots.mcts import MctsBot
from ai.bots.sizing import raise_to_amount
from ai.game.observation import KIND_NAMES, Decision, Observation
from ai.models.model import OpponentModel
from ai.models.ranges import RangeTracker, grid_of
from ai.search.deals import FloatArray
from ai.sim.rules import BET, KIND_TO_ACTION_KIND, RAISE
from protocol.messages import ActionValue, Advice, OpponentRead

_KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}


def estimated_values(obs: Observation, decision: Decision) -> dict[str, float]:
    """Values in big blinds when the bot did not simulate: the chips each action is expected
    to win at showdown with the decision's equity, everyone calling (fold = 0 more lost)."""
    equity = decision.equity if decision.equity is not None else 0.5
    legal = obs.legal
    bb = obs.big_blind
    values: dict[str, float] = {}
    if legal.can_fold:
        values["fold"] = 0.0
    call = legal.call_amount
    callers = max(obs.n_opponents, 1)
    passive = "check" if legal.can_check else "call"
    values[passive] = (equity * (obs.pot + call) - call) / bb
    if legal.raise_kind is not None:
        to = decision.to if decision.kind >= BET else raise_to_amount(obs, 1.0)
        added = to - legal.committed
        # One caller of the raise at least; the pot grows by both contributions.
        extra = min(callers, 1) * (to - (legal.committed + call))
        word = KIND_NAMES[legal.raise_kind]
        label = word if obs.limit else f"{word} {to}"
        values[label] = (equity * (obs.pot + added + extra) - added) / bb
    return values


def _value_entries(
    values: dict[str, float], spread: dict[str, tuple[float, float]] | None = None
) -> list[ActionValue]:
    entries = []
    for label, value in values.items():
        stderr, share = spread.get(label, (None, None)) if spread else (None, None)
        name, _, amount = label.partition(" ")
        kind = _KIND_BY_NAME.get(name)
        if kind is None:
            continue
        entries.append(
            ActionValue(
                action=KIND_TO_ACTION_KIND[kind],
                amount=int(amount) if amount else None,
                value_bb=round(value, 3),
                stderr_bb=None if stderr is None else round(max(stderr, 0.0), 3),
                share=None if share is None else round(min(max(share, 0.0), 1.0), 3),
            )
        )
    return entries


# Hands of a player below which its statistics are mostly the prior: the advice says
# "no read yet" instead of showing the prior's VPIP, PFR and aggression as if measured.
READ_HANDS = 20


def opponent_reads(obs: Observation, bot: Bot, model: OpponentModel) -> list[OpponentRead]:
    """Per opponent still in the hand: statistics over every stored hand of theirs (once
    there are READ_HANDS of them), the model's prediction for them in this spot, and
    their range as a 13x13 grid: the weights the search dealt them from when it ran (so
    the equity shown is against the range shown), else the bot's Bayes-updated range."""
    dealt: dict[int, FloatArray] = {}
    if isinstance(bot, MctsBot) and bot.last is not None and bot.last.ranges is not None:
        dealt = {i: weights for i, weights, _ in bot.last.ranges}
    if isinstance(bot, LokiBot):
        ranges = bot.ranges
    else:
        ranges = RangeTracker()
        ranges.update(obs, model)
    dead = (*obs.hole, *obs.board)
    reads = []
    for i in obs.opponents:
        player = obs.player_id(i)
        stats = model.stats(player)
        predicted = model.predict_for(obs, i)
        hands = f"{stats.hands} hand{'s' if stats.hands != 1 else ''}"
        known = stats.hands >= READ_HANDS
        note = f"{hands} seen" if known else f"{hands}: no read yet; assuming the population"
        weights = dealt.get(i)
        if weights is None and i in ranges.weights:
            weights = ranges.range_of(i, dead)
        if weights is not None:
            note = f"range ~{100 * float(weights.mean()):.0f}% of hands; {note}"
        reads.append(
            OpponentRead(
                seat=obs.seats[i],
                label=stats.label() if known else "no read yet",
                vpip=round(stats.vpip, 3) if known else None,
                pfr=round(stats.pfr, 3) if known else None,
                aggression=round(stats.aggression, 3) if known else None,
                fold_to_bet=round(stats.fold_to_bet, 3) if known else None,
                note=note[:200],
                hands=stats.hands,
                predicted=[round(float(p), 3) for p in predicted.actions],
                range_grid=None if weights is None else grid_of(weights),
            )
        )
    return reads


def close_call(decision: Decision, bot: Bot) -> ActionValue | None:
    """The runner-up of the search behind `decision` when its 95% interval overlaps the
    chosen action's (`ai.search.mcts.close_call`), as the advice shows it."""
    if not isinstance(bot, MctsBot) or bot.last is None or decision.values is None:
        return None
    result = bot.last
    runner = result.close
    chosen = result.choice
    if runner is None or (chosen.kind, chosen.to) != (decision.kind, decision.to):
        return None  # the search chose only a size, or nothing (its close call is not ours)
    spread = {runner.label: (runner.stderr_bb, runner.share)}
    entries = _value_entries({runner.label: runner.value_bb}, spread)
    return entries[0] if entries else None


def build_advice(obs: Observation, decision: Decision, bot: Bot, model: OpponentModel) -> Advice:
    values = decision.values or estimated_values(obs, decision)
    equity = None if decision.equity is None else min(1.0, max(0.0, decision.equity))
    ehs = None if decision.ehs is None else min(1.0, max(0.0, decision.ehs))
    return Advice(
        action=KIND_TO_ACTION_KIND[decision.kind],
        amount=decision.to if decision.kind in (BET, RAISE) else None,
        values=_value_entries(values, decision.spread if decision.values else None)[:16],
        equity=equity,
        ehs=ehs,
        opponents=opponent_reads(obs, bot, model)[:10],
        reason=decision.reason[:300],
        close_call=close_call(decision, bot),
    )


__all__ = ["build_advice", "close_call", "estimated_values", "opponent_reads"]
