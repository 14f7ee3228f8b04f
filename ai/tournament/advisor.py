"""Tournament decisions for the bots and the advice: push/fold at short stacks, in ICM.

`tournament_decision` recognises the heads-up push/fold spots, the small blind first
in (everyone else folded) or the big blind facing the small blind's all-in, at an
effective stack of at most PUSHFOLD_MAX_BB big blinds in a No-Limit game. It solves
the push/fold game for that spot with the payoffs in prize equity (`spot.icm_payoffs`:
the stacks of everyone still in and the prizes left) near the money, in chips further
out, and plays the equilibrium's action for the hand held. `icm_call` decides any
other call of a lone all-in opponent by prize equity, with the bot's own equity.
`icm_actions` values every other decision's candidates near the money
(`ai.tournament.actions`) and plays the one with the most prize equity. Far from the
money the bot decides as at a cash table; `with_prize_equity` still shows the advice
our stack's prize equity.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ai.game.observation import Decision, Observation
from ai.sim.rules import CALL, FOLD, PREFLOP
from ai.tournament.actions import APPROXIMATION, candidates, parse, prize_values
from ai.tournament.hands import class_of, label
from ai.tournament.icm import icm
from ai.tournament.pushfold import FOLD as FOLDED
from ai.tournament.pushfold import STEAL, Chart, Payoffs, hand_values, solve
from ai.tournament.spot import LIVE_SAMPLES, Blinds, Valuation, chip_payoffs, icm_payoffs
from holdem.views import TableView
from protocol.messages import ActionValue, Advice, DecisionQuery, TournamentSituation

PUSHFOLD_MAX_BB = 15.0
NEAR_MONEY = 2
# Bots whose whole character is one rule keep it in tournaments too.
FIXED_STYLES = frozenset({"always-raise", "calling-station", "always-fold", "random"})


def plays_for_money(style: str) -> bool:
    """Whether a bot (or the advisor) of this registered style decides by prize equity."""
    return style not in FIXED_STYLES


_ITERATIONS = 1500  # the advice's solve: ~0.1 s; the chart agrees with 3000 (tests)


@dataclass(frozen=True)
class TournamentDecision:
    """The action and, per value label, (chips in big blinds, prize equity)."""

    decision: Decision
    values: Mapping[str, tuple[float, float | None]]  # prize None: far from the money
    prize_equity: float | None  # our equity before acting (as if we folded now)

    def annotate(self, advice: Advice) -> Advice:
        """The advice with each action's prize equity beside its chip value."""
        entries = [self._annotated(entry) for entry in advice.values]
        close = None if advice.close_call is None else self._annotated(advice.close_call)
        now = None if self.prize_equity is None else round(self.prize_equity, 4)
        return advice.model_copy(
            update={"values": entries, "close_call": close, "prize_equity": now}
        )

    def _annotated(self, entry: ActionValue) -> ActionValue:
        name = entry.action.value if entry.amount is None else f"raise {entry.amount}"
        found = (
            self.values.get(_entry_label(entry))
            or self.values.get(name)
            or self.values.get(entry.action.value)
        )
        prize = None if found is None or found[1] is None else round(found[1], 4)
        return entry if prize is None else entry.model_copy(update={"prize_equity": prize})


def _start(obs: Observation, i: int) -> int:
    return obs.stacks[i] + obs.bets[i] + obs.collected[i]


def _others(
    obs: Observation, view: TableView, situation: TournamentSituation, skip: set[int]
) -> list[float]:
    """Stacks of everyone still in except the indices in `skip`, after this hand's folds."""
    dealt = set(obs.seats)
    out: list[float] = [float(obs.stacks[i]) for i in range(obs.n) if i not in skip]
    out += [float(s.stack) for s in view.seats if s.seat not in dealt and s.stack > 0]
    out += [float(s) for s in situation.other_stacks]
    return [s for s in out if s > 0]


def _roles(obs: Observation) -> tuple[int, int]:
    """(small blind index, big blind index): heads-up the button (index 1) is the SB."""
    return (1, 0) if obs.n == 2 else (0, 1)


def near_money(situation: TournamentSituation) -> bool:
    """ICM matters: at most NEAR_MONEY times as many players left as places paid (or few
    enough for exact ICM). Further out, chips are money to within a little, and a big
    field's sampled ICM would cost every bot's decision a tenth of a second or more."""
    paid = sum(1 for p in situation.prizes if p > 0)
    return situation.players_left <= max(NEAR_MONEY * paid, 14)


def pushfold_spot(obs: Observation) -> str | None:
    """ "push" (SB, all folded to it), "call" (BB facing the SB's all-in), else None."""
    if obs.limit or obs.street != PREFLOP or obs.n < 2:
        return None
    sb, bb = _roles(obs)
    others_folded = all(not obs.in_hand[i] for i in range(obs.n) if i not in (sb, bb))
    if not others_folded:
        return None
    sb_acts = [a for a in obs.history if a.player == sb]
    effective = min(_start(obs, sb), _start(obs, bb)) / obs.big_blind
    if effective > PUSHFOLD_MAX_BB:
        return None
    if obs.index == sb and not sb_acts and obs.legal.can_fold:
        all_in = obs.legal.max_to == obs.legal.stack + obs.legal.committed
        return "push" if obs.legal.raise_kind is None or all_in else None
    bb_acts = [a for a in obs.history if a.player == bb]
    if obs.index == bb and len(sb_acts) == 1 and not bb_acts and obs.stacks[sb] == 0:
        return "call" if obs.legal.can_call else None
    return None


def _blinds(obs: Observation, view: TableView, sb: int, bb: int) -> Blinds:
    """Preflop `collected` holds the antes; the blinds are the table's (the SB's bet is
    its whole all-in once it pushed)."""
    dead = sum(obs.collected[i] + obs.bets[i] for i in range(obs.n) if i not in (sb, bb))
    return Blinds(
        sb_blind=float(min(view.config.small_blind, obs.bets[sb] or view.config.small_blind)),
        bb_blind=float(min(obs.bets[bb], obs.big_blind)),
        sb_ante=float(obs.collected[sb]),
        bb_ante=float(obs.collected[bb]),
        dead=float(dead),
    )


@lru_cache(maxsize=256)
def _solve(payoffs: Payoffs) -> Chart:
    return solve(payoffs, _ITERATIONS)


def tournament_decision(obs: Observation, query: DecisionQuery) -> TournamentDecision | None:
    """The push/fold equilibrium's action in prize equity, or None outside those spots
    (and at cash tables)."""
    situation = query.tournament
    role = pushfold_spot(obs)
    if role is None or situation is None:
        return None
    view = query.view
    sb, bb = _roles(obs)
    blinds = _blinds(obs, view, sb, bb)
    sb_start, bb_start = float(_start(obs, sb)), float(_start(obs, bb))
    chips = chip_payoffs(sb_start, bb_start, blinds, float(obs.big_blind))
    money = near_money(situation)
    prize = chips
    if money:
        value = Valuation(tuple(situation.prizes), tuple(_others(obs, view, situation, {sb, bb})))
        prize = icm_payoffs(sb_start, bb_start, blinds, value)
    chart = _solve(_rounded(prize))
    hand = class_of(*obs.hole)
    name = label(hand)
    sb_push, _, bb_call, _ = hand_values(prize, chart, hand)
    sb_chip, _, bb_chip, _ = hand_values(chips, chart, hand)
    unit = "prize equity" if money else "chips (far from the money)"
    if role == "push":
        push = bool(chart.push[hand] > 0.5)
        legal = obs.legal
        to = legal.max_to if legal.raise_kind is not None else 0
        kind = legal.raise_kind if legal.raise_kind is not None else CALL
        push_label = f"raise {to}" if kind != CALL else "call"
        values: dict[str, tuple[float, float | None]] = {
            "fold": (chips.sb[FOLDED], prize.sb[FOLDED] if money else None),
            push_label: (sb_chip, sb_push if money else None),
        }
        decision = Decision(
            kind if push else FOLD, to if push and kind != CALL else 0,
            reason=f"Push/fold equilibrium in {unit}: {'push' if push else 'fold'} {name}"
            f" at {min(sb_start, bb_start) / obs.big_blind:.1f} bb",
            values={k: v[0] for k, v in values.items()},
        )  # fmt: skip
        return TournamentDecision(decision, values, prize.sb[FOLDED] if money else None)
    call = bool(chart.call[hand] > 0.5)
    values = {
        "fold": (chips.bb[STEAL], prize.bb[STEAL] if money else None),
        "call": (bb_chip, bb_call if money else None),
    }
    decision = Decision(
        CALL if call else FOLD,
        reason=f"Push/fold equilibrium in {unit}: {'call' if call else 'fold'} {name}"
        f" against the all-in at {min(sb_start, bb_start) / obs.big_blind:.1f} bb",
        values={k: v[0] for k, v in values.items()},
    )
    return TournamentDecision(decision, values, prize.bb[STEAL] if money else None)


def _rounded(p: Payoffs) -> Payoffs:
    """Payoffs rounded so that repeated spots share the cached solve."""
    return Payoffs(
        sb=(round(p.sb[0], 6), round(p.sb[1], 6), round(p.sb[2], 6), round(p.sb[3], 6)),
        bb=(round(p.bb[0], 6), round(p.bb[1], 6), round(p.bb[2], 6), round(p.bb[3], 6)),
    )


def icm_call(
    obs: Observation, query: DecisionQuery, decision: Decision
) -> TournamentDecision | None:
    """Facing one all-in opponent, everyone else folded: call or fold by prize equity.

    The chance to win is the bot's own equity against the range it put the opponent on
    (`decision.equity`); the two showdown outcomes and the fold are valued by ICM with
    everyone's stacks. A call that chips favour can be a fold for the money (the bubble).
    """
    situation = query.tournament
    legal = obs.legal
    if situation is None or decision.equity is None or not legal.can_call or not legal.can_fold:
        return None
    if not near_money(situation):
        return None
    if decision.kind not in (CALL, FOLD) or obs.n_in_hand != 2:
        return None
    (opp,) = obs.opponents
    if obs.stacks[opp] != 0:  # the opponent is all in: our call ends the betting
        return None
    me = obs.index
    call = min(legal.call_amount, obs.stacks[me])
    mine_in, theirs_in = obs.invested(me) + call, obs.invested(opp)
    matched = min(mine_in, theirs_in)
    dead = obs.pot - obs.invested(me) - theirs_in
    left = obs.stacks[me] - call
    outcomes = {
        "fold": (obs.stacks[me], obs.stacks[opp] + obs.pot),
        "win": (left + mine_in + matched + dead, theirs_in - matched),
        "lose": (left + mine_in - matched, theirs_in + matched + dead),
    }
    others = _others(obs, query.view, situation, {me, opp})
    value = {
        k: icm([float(a), float(b), *others], situation.prizes, samples=LIVE_SAMPLES)[0]
        for k, (a, b) in outcomes.items()
    }
    eq = min(1.0, max(0.0, decision.equity))
    call_value = eq * value["win"] + (1 - eq) * value["lose"]
    chips_call = (
        eq * (outcomes["win"][0] - obs.stacks[me])
        + (1 - eq) * (outcomes["lose"][0] - obs.stacks[me])
    ) / obs.big_blind
    calls = call_value > value["fold"]
    values = {"fold": (0.0, value["fold"]), "call": (chips_call, call_value)}
    chosen = Decision(
        CALL if calls else FOLD,
        reason=f"All in for the money (ICM): {'call' if calls else 'fold'} with {eq:.0%} equity;"
        f" prize equity {call_value:.2f} calling, {value['fold']:.2f} folding",
        values={k: v[0] for k, v in values.items()},
        equity=decision.equity,
        ehs=decision.ehs,
    )
    return TournamentDecision(chosen, values, value["fold"])


def icm_actions(
    obs: Observation, query: DecisionQuery, decision: Decision
) -> TournamentDecision | None:
    """Near the money, any other decision: the search's candidates valued in prize
    equity (`ai.tournament.actions`: the search's fold share, else win or lose), and the
    one with the most prize equity played. None far from the money, at cash tables, or
    without searched values (nothing to choose among)."""
    situation = query.tournament
    if situation is None or not near_money(situation) or not decision.values:
        return None
    chips = decision.values
    prizes = prize_values(obs, query, chips, decision.folds)
    pool = [k for k in candidates(decision) if k in prizes]
    if not pool:
        return None
    chip_best = max(pool, key=lambda k: chips[k])
    best = max(pool, key=lambda k: (prizes[k], k == chip_best))
    parsed = parse(best, obs)
    if parsed is None:  # pragma: no cover - prize_values keeps only actions
        return None
    kind, to = parsed
    said = f"{best} for prize equity {prizes[best]:.2f} ({chips[best]:+.1f} bb)"
    if best == chip_best:
        runner = max((k for k in pool if k != best), key=lambda k: prizes[k], default=None)
        why = "" if runner is None else f"; {runner} {prizes[runner]:.2f} ({chips[runner]:+.1f} bb)"
        why += "; also the best in chips"
    else:
        why = (
            f"; {chip_best} is best in chips ({chips[chip_best]:+.1f} bb) but worth"
            f" {prizes[chip_best]:.2f}"
        )
    busy = decision.reason.partition(" Stopped at ")[2]  # the search was cut short: say so
    note = f" Stopped at {busy}" if busy else ""
    chosen = Decision(
        kind,
        to,
        reason=f"Near the money (ICM, {APPROXIMATION}): {said}{why}{note}",
        values=dict(chips),
        equity=decision.equity,
        ehs=decision.ehs,
        spread=decision.spread,
        folds=decision.folds,
    )
    values = {k: (v, prizes.get(k)) for k, v in chips.items()}
    return TournamentDecision(chosen, values, None)


def prize_equity_now(obs: Observation, view: TableView, situation: TournamentSituation) -> float:
    """Our prize equity with the stacks as they were when the hand began."""
    mine = float(_start(obs, obs.index))
    others = [float(_start(obs, i)) for i in range(obs.n) if i != obs.index]
    others += _others(obs, view, situation, set(range(obs.n)))
    return icm([mine, *others], situation.prizes, samples=LIVE_SAMPLES)[0]


def with_prize_equity(
    advice: Advice, obs: Observation, query: DecisionQuery, tour: TournamentDecision | None
) -> Advice:
    """The advice with prize equities: per action near the money (from the decision's
    valuation, else each value's two-outcome approximation), our stack's now always."""
    if tour is not None:
        advice = tour.annotate(advice)
    situation = query.tournament
    if situation is not None and near_money(situation):
        advice = _fill_prizes(advice, obs, query)
    if query.tournament is None or advice.prize_equity is not None:
        return advice
    now = prize_equity_now(obs, query.view, query.tournament)
    return advice.model_copy(update={"prize_equity": round(now, 4)})


def _entry_label(entry: ActionValue) -> str:
    kind = entry.action.value
    return kind if entry.amount is None else f"{kind} {entry.amount}"


def _fill_prizes(advice: Advice, obs: Observation, query: DecisionQuery) -> Advice:
    """Every action of the advice that has no prize equity yet gets its approximation."""
    entries = [*advice.values, *([advice.close_call] if advice.close_call else [])]
    missing = {_entry_label(e): e.value_bb for e in entries if e.prize_equity is None}
    if not missing:
        return advice
    prizes = prize_values(obs, query, missing)

    def filled(entry: ActionValue) -> ActionValue:
        prize = prizes.get(_entry_label(entry))
        if entry.prize_equity is not None or prize is None:
            return entry
        return entry.model_copy(update={"prize_equity": round(prize, 4)})

    close = None if advice.close_call is None else filled(advice.close_call)
    return advice.model_copy(
        update={"values": [filled(e) for e in advice.values], "close_call": close}
    )


__all__ = [
    "FIXED_STYLES",
    "PUSHFOLD_MAX_BB",
    "TournamentDecision",
    "icm_actions",
    "icm_call",
    "near_money",
    "plays_for_money",
    "prize_equity_now",
    "pushfold_spot",
    "tournament_decision",
    "with_prize_equity",
]
