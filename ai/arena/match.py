"""Bot-vs-bot matches through the fast simulator, headless.

One seat per bot, stacks reset every hand ("infinite stacks", default 200 big
blinds), the button moves one seat each hand. In duplicate format every deal is
played once per rotation of the seats, so each bot holds every seat's cards
against the same board: card luck cancels and far fewer hands separate the bots.
Rotations keep the bots' order around the table; `shuffle_seats` draws a new
order for each deal, so that where a bot sits relative to the others averages out.

Everything is a function of the seed: the deal of hand h comes from its own
Random(seed, h), each bot gets its own seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.arena.exact import ExactProbe
from ai.bots import Bot, HandSummary, make_bot
from ai.bots.mcts import MctsBot
from ai.game.observation import ActionRecord, Observation
from ai.game.observe import apply, observe
from ai.search.mcts import SearchResult
from ai.sim.rules import Rules
from ai.sim.state import SimState
from holdem.config import Straddle, TableConfig, Variant
from holdem.hand import Hand, seats_in_pokerkit_order

SMALL_BLIND = 1
BIG_BLIND = 2
DEFAULT_STACK_BB = 200
BOMB_POT_ANTE_BB = 2  # a bomb pot's ante from every seat, in big blinds
CARDS_PER_EXTRA_RUN = 8  # a later run dealt from preflop: three burns and five cards

Progress = Callable[[int, int], None]  # (hands played, hands in total)
# Builds the player of a listed name with its seed: `make_bot` for our styles; the
# gauntlet's also knows the agents of other packages (`ai.gauntlet.opponents`).
BotMaker = Callable[[str, int], Bot]


@dataclass(frozen=True, slots=True)
class MatchConfig:
    game: Variant
    bots: tuple[str, ...]
    hands: int
    seed: int = 0
    duplicate: bool = False
    stack_bb: int = DEFAULT_STACK_BB
    # Keep every hand as a stored-hand document (Match.records), for training.
    record: bool = False
    # Each deal seats the bots in its own random order (`seating`). Rotations give
    # every bot every seat's cards but keep who sits after whom, and at a table of
    # mixed styles that is worth more than the bots' differences (6-max No-Limit:
    # two pokis in one line-up, +294 and +404 bb/100 on the same deals).
    shuffle_seats: bool = False
    # Keep every searched decision (Match.decisions): the values the search gave, the
    # action chosen and the chips it made to the end of the hand. What the search misses
    # is measured from them (`showdown records correction`, `ai.arena.misses`).
    decisions: bool = False
    # Home-game rules (#34), as a live table deals them: a live straddle of two big blinds
    # (every bot straddles when in the straddle position, three players or more), and a
    # bomb pot every N deals (an ante of BOMB_POT_ANTE_BB big blinds from every seat, no
    # blinds, the preflop checked through). Every rotation of a deal has the same rules.
    straddle: Straddle = Straddle.OFF
    bomb_pot_every: int = 0
    # Run it twice (or three times): players all-in before the river run the board up to
    # this many times, as every bot agrees to every run (docs/rules.md); such a hand's
    # chips are the rules core's (`ai.arena.record.replay`), the later runs dealt from
    # the deal's own spare cards, the same in every rotation.
    run_it_max: int = 1

    @property
    def mode(self) -> str:
        """For the reports: duplicate or plain, and whether the seats were shuffled."""
        mode = "duplicate" if self.duplicate else "plain"
        mode = f"{mode}, seats shuffled" if self.shuffle_seats else mode
        if self.straddle is not Straddle.OFF:
            mode += f", {self.straddle.value} straddle"
        if self.bomb_pot_every:
            mode += f", a bomb pot every {self.bomb_pot_every}"
        if self.run_it_max > 1:
            mode += f", run it up to {self.run_it_max} times"
        return mode

    def table(self) -> TableConfig:
        bomb_pot_ante = BOMB_POT_ANTE_BB * BIG_BLIND if self.bomb_pot_every else 0
        return TableConfig(
            variant=self.game,
            seats=len(self.bots),
            small_blind=SMALL_BLIND,
            big_blind=BIG_BLIND,
            straddle=self.straddle,
            bomb_pot_ante=bomb_pot_ante,
            bomb_pot_every=self.bomb_pot_every,
            run_it_max=self.run_it_max,
        )

    def home_rules(self, deal_no: int) -> tuple[bool, bool]:
        """(straddle, bomb pot) for deal `deal_no` (from 0): bomb pots on every Nth deal
        (as a table counts hands from 1), a straddle in every other hand it applies to."""
        bomb = bool(self.bomb_pot_every) and (deal_no + 1) % self.bomb_pot_every == 0
        straddle = self.straddle is not Straddle.OFF and len(self.bots) >= 3 and not bomb
        return straddle, bomb


@dataclass(frozen=True, slots=True)
class MatchResult:
    names: tuple[str, ...]  # unique display names, one per listed bot
    # Net result per hand and bot in big blinds; shape (hands, bots). Rows of one
    # duplicate deal are consecutive (`rotations` of them).
    net_bb: npt.NDArray[np.float64]
    rotations: int  # hands per deal: 1, or the number of bots in duplicate format
    config: MatchConfig
    records: list[dict[str, Any]] = field(default_factory=list)  # with config.record
    decisions: list[dict[str, Any]] = field(default_factory=list)  # with config.decisions
    # With a probe (`ai.arena.exact`): per hand, the first bot's exact advantages over each
    # baseline, then each baseline's exact value of the hand, in big blinds (hands, 2 * B);
    # and per hand the first baseline's advantages by decision row.
    exact: npt.NDArray[np.float64] | None = None
    exact_rows: list[dict[str, float]] = field(default_factory=list)

    @property
    def hands(self) -> int:
        return int(self.net_bb.shape[0])


def display_names(styles: Sequence[str]) -> tuple[str, ...]:
    """'rational', 'rational#2', ... so repeated styles stay apart in the tables."""
    seen: dict[str, int] = {}
    names = []
    for style in styles:
        seen[style] = seen.get(style, 0) + 1
        names.append(style if seen[style] == 1 else f"{style}#{seen[style]}")
    return tuple(names)


def seating(seed: int, deal_no: int, players: int) -> list[int]:
    """Deal `deal_no`'s order of the bots around the table, from its own random stream
    (so the cards dealt are the same shuffled or not): bot k sits order[k] seats on."""
    order = list(range(players))
    random.Random(f"{seed}:{deal_no}:seating").shuffle(order)
    return order


def deal(rng: random.Random, players: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Hole cards for seat 1..players (by seat, not by position) and a 5-card runout."""
    cards = rng.sample(range(52), 2 * players + 5)
    holes = [(cards[2 * k], cards[2 * k + 1]) for k in range(players)]
    return holes, cards[2 * players :]


def spare_cards(seed: int, deal_no: int, used: Sequence[int], runs: int) -> list[int]:
    """Cards for a deal's later runs (burns included): from the cards nobody holds and
    the first board does not use, in the deal's own random order."""
    taken = set(used)
    rest = [c for c in range(52) if c not in taken]
    random.Random(f"{seed}:{deal_no}:runs").shuffle(rest)
    return rest[: CARDS_PER_EXTRA_RUN * (runs - 1)]


def decision_row(
    obs: Observation,
    result: SearchResult,
    made: int,
    behind: int,
    folded_out: bool,
) -> dict[str, Any]:
    """One searched decision: the spot, every action's searched value (and the share of
    its simulated hands the opponents all folded), the choice, `made`, the chips the
    decider had at the end of the hand minus those it had behind when deciding (what the
    chosen action made from there, the later decisions' too), and `folded_out`: every
    opponent folded before the hand's end (the simulated folds' real counterpart).
    `behind`: the decider's chips behind when deciding (`obs.stacks` may have moved on)."""
    bb = obs.big_blind
    return {
        "player": obs.player_id(obs.index),
        "hand_key": obs.hand_key,
        "street": obs.street,
        "in_hand": obs.n_in_hand,
        "seats": obs.n,
        "limit": obs.limit,
        "pot_bb": obs.pot / bb,  # this street's bets included
        "call_bb": obs.legal.call_amount / bb,
        "behind_bb": behind / bb,
        "committed_bb": obs.legal.committed / bb,  # in front of us this street
        "actions": [
            {
                "label": a.label,
                "kind": a.kind,
                "value_bb": a.value_bb,
                "stderr_bb": a.stderr_bb,
                "folds": a.folds,
                "to_bb": a.to / bb,
            }
            for a in result.actions
        ],
        "choice": result.choice.label,
        "made_bb": made / bb,
        "folded_out": folded_out,
    }


class Match:
    """A running match; `play()` plays it all, `play_hand()` one hand (for tests)."""

    def __init__(
        self, config: MatchConfig, make: BotMaker = make_bot, probe: ExactProbe | None = None
    ) -> None:
        if len(config.bots) < 2:
            raise ValueError("a match needs at least two bots")
        self.config = config
        self.table = config.table()
        self.rules = Rules.of(self.table)
        self.names = display_names(config.bots)
        self.bots: list[Bot] = [
            make(style, config.seed * 1000 + k) for k, style in enumerate(config.bots)
        ]
        self._wants_summary = [type(b).hand_over is not Bot.hand_over for b in self.bots]
        self.stack = config.stack_bb * BIG_BLIND
        self.records: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []
        self.probe = probe
        self.exact: list[list[float]] = []  # per hand, as MatchResult.exact
        self.exact_rows: list[dict[str, float]] = []

    @property
    def rotations(self) -> int:
        return len(self.bots) if self.config.duplicate else 1

    @property
    def deals(self) -> int:
        rotations = self.rotations
        return max(1, self.config.hands // rotations) if rotations > 1 else self.config.hands

    def play(self, progress: Progress | None = None) -> MatchResult:
        net = self.play_deals(0, self.deals, progress)
        return MatchResult(
            self.names, net, self.rotations, self.config, self.records, self.decisions,
            self.exact_array(), self.exact_rows,
        )  # fmt: skip

    def exact_array(self) -> npt.NDArray[np.float64] | None:
        if self.probe is None:
            return None
        return np.array(self.exact, dtype=np.float64).reshape(len(self.exact), -1) / BIG_BLIND

    def play_deals(
        self, first: int, end: int, progress: Progress | None = None
    ) -> npt.NDArray[np.float64]:
        """Deals first..end-1 (every rotation of each); net big blinds per hand and bot."""
        config = self.config
        n = len(self.bots)
        rotations = self.rotations
        total = (end - first) * rotations
        net = np.zeros((total, n), dtype=np.float64)
        row = 0
        for d in range(first, end):
            holes, runout = deal(random.Random(f"{config.seed}:{d}"), n)
            extra: list[int] = []
            if config.run_it_max > 1:
                used = [c for pair in holes for c in pair] + runout
                extra = spare_cards(config.seed, d, used, config.run_it_max)
            button = d % n + 1
            order = seating(config.seed, d, n) if config.shuffle_seats else list(range(n))
            for r in range(rotations):
                # Rotation r puts bot k in seat (order[k] + r) % n + 1; the cards stay
                # with the seats.
                seat_of_bot = [(order[k] + r) % n + 1 for k in range(n)]
                key = d * rotations + r
                straddle, bomb = config.home_rules(d)
                net[row] = self.play_hand(
                    seat_of_bot, holes, runout, button, key,
                    straddle=straddle, bomb_pot=bomb, extra=extra,
                )  # fmt: skip
                row += 1
                if progress is not None:
                    progress(row, total)
        net /= BIG_BLIND
        return net

    def play_hand(
        self,
        seat_of_bot: Sequence[int],
        holes: Sequence[tuple[int, int]],
        runout: Sequence[int],
        button: int,
        hand_key: int = 0,
        *,
        straddle: bool = False,
        bomb_pot: bool = False,
        extra: Sequence[int] = (),
    ) -> list[int]:
        """Play one hand (with a straddle or as a bomb pot: `MatchConfig.home_rules`; the
        later runs of a run-it-twice board from `extra`); returns each bot's net chips
        (bot order)."""
        n = len(seat_of_bot)
        bot_at_seat = {seat: k for k, seat in enumerate(seat_of_bot)}
        order = seats_in_pokerkit_order(list(bot_at_seat), button, n)
        bot_of_index = [bot_at_seat[seat] for seat in order]
        rules = Rules.of(self.table, straddle, bomb_pot) if straddle or bomb_pot else self.rules
        state = SimState(
            rules, order, [self.stack] * n, [holes[seat - 1] for seat in order], runout
        )
        players = [self.names[k] for k in bot_of_index]
        history: list[ActionRecord] = []
        bots = self.bots
        searched: list[tuple[Observation, SearchResult, int]] = []
        probe = None if self.probe is None else self.probe.hand(state, bot_of_index.index(0))
        while not state.over:
            obs = observe(state, history, hand_key, players)
            bot = bots[bot_of_index[obs.index]]
            decision = bot.decide(obs)
            if probe is not None and obs.index == probe.me:
                probe.decision(state, history, decision.kind)
            behind = state.stacks[obs.index]
            apply(state, decision, history, obs)
            if self.config.decisions and isinstance(bot, MctsBot) and bot.last is not None:
                # The stack behind now (obs.stacks follows the state as the hand goes on).
                searched.append((obs, bot.last, behind))
        payoffs = state.payoffs()
        hand: Hand | None = None
        if self.table.run_it_max > 1 and state.n_in_hand > 1:
            # A showdown: the rules core says whether it ran the board more than once.
            hand = self._replay(state, history, extra)
            if hand.runs > 1:
                final = hand.stacks
                payoffs = [final[seat] - state.start[i] for i, seat in enumerate(state.seats)]
        if probe is not None:
            self.exact.append(probe.advantage + probe.root)
            self.exact_rows.append({k: v / BIG_BLIND for k, v in probe.rows.items()})
        alone = sum(state.in_hand) == 1
        for obs, found, behind in searched:
            made = payoffs[obs.index] + self.stack - behind
            folded_out = alone and state.in_hand[obs.index]
            self.decisions.append(decision_row(obs, found, made, behind, folded_out))
        result = [0] * n
        for index, k in enumerate(bot_of_index):
            result[k] = payoffs[index]
        if any(self._wants_summary):
            self._summarize(state, history, players, hand_key, bot_of_index, payoffs)
        if self.config.record:
            self._record(state, history, players, hand_key, hand)
        return result

    def _replay(self, state: SimState, history: list[ActionRecord], extra: Sequence[int]) -> Hand:
        from ai.arena.record import replay

        return replay(
            self.table, state.seats, state.start, state.holes, state.runout, history,
            straddle=state.rules.straddle is not Straddle.OFF, bomb_pot=state.rules.bomb_pot,
            extra=extra,
        )  # fmt: skip

    def _record(
        self,
        state: SimState,
        history: list[ActionRecord],
        players: list[str],
        hand_key: int,
        hand: Hand | None = None,
    ) -> None:
        from ai.arena.record import arena_record, hand_record

        table_id = f"arena-{self.config.seed}"
        if hand is not None:  # replayed already (a run-it-twice table's showdown)
            done = hand_record(hand, table_id, hand_key + 1, players, state.holes)
            self.records.append(done.model_dump(mode="json"))
            return
        record = arena_record(
            self.table, table_id, hand_key + 1, state.seats, players, state.start,
            state.holes, state.runout, history,
            straddle=state.rules.straddle is not Straddle.OFF, bomb_pot=state.rules.bomb_pot,
        )  # fmt: skip
        self.records.append(record.model_dump(mode="json"))

    def _summarize(
        self,
        state: SimState,
        history: list[ActionRecord],
        players: list[str],
        hand_key: int,
        bot_of_index: list[int],
        payoffs: list[int],
    ) -> None:
        showdown = state.n_in_hand > 1
        shown = {i: state.holes[i] for i in range(state.n) if showdown and state.in_hand[i]}
        board = state.runout[: state.board_len]  # the first run's
        summary = HandSummary(hand_key, players, history, shown, board, payoffs)
        for index, k in enumerate(bot_of_index):
            if self._wants_summary[k]:
                self.bots[k].hand_over(summary, index)
