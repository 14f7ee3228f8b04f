"""A compact, fast Hold'em hand: the same rules as holdem.hand (pokerkit), on int lists.

Players are numbered by *index* as in pokerkit: 0 is the first seat left of the
button and the button is last (heads-up: index 0 is the big blind). `seats[index]`
gives the table seat. Cards are ints 0..51 (`holdem.cards.card_index`). The whole
runout (5 board cards) is fixed when the state is built and revealed street by
street, so a state is a deterministic game from then on; search re-deals hidden
cards with `resample_hidden`.

The betting mirrors pokerkit's state machine variable for variable (largest raise
increment, bet count per street, players who acted since the last full raise, sum
of consecutive short all-in raises, actor queue), because matching its edge cases
by construction is far safer than re-deriving them; tests/ai/test_sim_differential.py
plays thousands of hands through both and requires identical results.

>>> from holdem.config import TableConfig, Variant
>>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
>>> s = SimState.new_hand(cfg, {1: 200, 3: 200, 5: 200}, button=5, seed=1)
>>> s.actor, s.legal_actions().min_to
(5, 4)
>>> s.apply(SimAction(RAISE, 6)); s.apply(SimAction(FOLD)); s.apply(SimAction(FOLD))
>>> s.is_terminal(), s.final_stacks()
(True, {1: 199, 3: 198, 5: 203})
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from ai.math.evaluator import rank_hands
from ai.sim.rules import (
    BET,
    BOARD_SIZE_BY_STREET,
    CALL,
    CHECK,
    FOLD,
    KINDS_TABLE,
    PREFLOP,
    RAISE,
    RIVER,
    SHOWDOWN,
    Rules,
    SimAction,
    SimLegal,
)
from ai.sim.showdown import settle
from holdem.actions import Action
from holdem.cards import card_index
from holdem.config import Straddle, TableConfig
from holdem.errors import HandOverError, IllegalActionError
from holdem.hand import seats_in_pokerkit_order

Cards = tuple[int, int]
MAX_PLAYERS = 10
# _ORDER[n][k]: indices 0..n-1 clockwise from k; _AFTER[n][k]: the others, from k's left.
_ORDER = [[(*range(k, n), *range(k)) for k in range(n)] for n in range(MAX_PLAYERS + 1)]
_AFTER = [[order[1:] for order in _ORDER[n]] for n in range(MAX_PLAYERS + 1)]


def to_indices(cards: Iterable[str | int]) -> list[int]:
    """Card strings ("Ah") or indices to indices."""
    return [c if isinstance(c, int) else card_index(c) for c in cards]


class SimState:
    """One hand from the blinds to the payout. Mutable; `clone()` is cheap."""

    __slots__ = (
        "acted",
        "bets",
        "board_len",
        "completion",
        "contrib",
        "holes",
        "in_hand",
        "max_bet",
        "n",
        "n_in_hand",
        "opener",
        "over",
        "queue",
        "raises",
        "rules",
        "runout",
        "seats",
        "short_sum",
        "stacks",
        "start",
        "street",
    )

    rules: Rules
    seats: tuple[int, ...]
    n: int
    start: tuple[int, ...]
    stacks: list[int]
    bets: list[int]  # chips in front of each player this street
    contrib: list[int]  # chips already collected into the pot, per player
    in_hand: list[bool]  # not folded
    n_in_hand: int
    holes: tuple[Cards, ...]
    runout: tuple[int, ...]  # all five board cards; board_len of them are visible
    board_len: int
    street: int  # PREFLOP..RIVER, SHOWDOWN once the hand is over
    queue: list[int]  # indices still to act this round, the actor first
    max_bet: int
    completion: int  # largest bet/raise increment this street
    raises: int  # bets and raises this street (the blinds are not counted)
    acted: int  # bit mask: acted since the last full bet/raise
    short_sum: int  # consecutive short all-in raise increments not yet a full raise
    opener: int  # last aggressor this street (else the first to act)
    over: bool

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[int],
        stacks: Sequence[int],
        holes: Sequence[Cards],
        runout: Sequence[int],
    ) -> None:
        """Post antes and blinds and stop at the first decision.

        `seats`, `stacks` and `holes` are in index order (first seat left of the
        button first, button last); `runout` is the five board cards in order.
        """
        n = len(seats)
        if not 2 <= n <= MAX_PLAYERS or len(stacks) != n or len(holes) != n:
            raise ValueError("need 2 to 10 seats, each with a stack and two hole cards")
        if min(stacks) <= 0:
            raise ValueError("every player in a hand needs chips")
        if len(runout) != 5:
            raise ValueError("the runout is five board cards")
        self.rules = rules
        self.seats = tuple(seats)
        self.n = n
        self.start = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contrib = [0] * n
        self.in_hand = [True] * n
        self.n_in_hand = n
        self.holes = tuple((h[0], h[1]) for h in holes)
        self.runout = tuple(runout)
        self.board_len = 0
        self.street = PREFLOP
        self.queue = []
        self.max_bet = 0
        self.completion = self.raises = self.acted = self.short_sum = self.opener = 0
        self.over = False
        self._post_forced_bets()
        self._begin_betting()
        if rules.bomb_pot:  # no preflop betting: everyone checks, as holdem.hand does
            while not self.over and self.street == PREFLOP:
                self.step(CHECK)

    # -- building ----------------------------------------------------------

    @classmethod
    def new_hand(
        cls,
        config: TableConfig,
        stacks: Mapping[int, int],
        button: int,
        hole_cards: Mapping[int, Sequence[str | int]] | None = None,
        board: Sequence[str | int] = (),
        *,
        rng: random.Random | None = None,
        seed: int | None = None,
        straddle: bool = False,
        bomb_pot: bool = False,
    ) -> SimState:
        """A hand at a table: stacks by seat, the button's seat, any known cards;
        `straddle` or `bomb_pot` deal it as holdem.hand.Hand does with the same flags.

        Hole cards not given and the rest of the board are dealt at random from the
        unused cards (`rng`, or a Random seeded with `seed`).
        """
        order = seats_in_pokerkit_order(list(stacks), button, config.seats)
        known = hole_cards or {}
        given = {seat: to_indices(cards) for seat, cards in known.items()}
        runout = to_indices(board)
        used = [c for cards in given.values() for c in cards] + runout
        if len(set(used)) != len(used):
            raise ValueError("a card is dealt twice")
        missing = 2 * sum(1 for s in order if s not in given) + 5 - len(runout)
        fresh = (rng or random.Random(seed)).sample(sorted(set(range(52)) - set(used)), missing)
        holes: list[Cards] = []
        for seat in order:
            if seat in given:
                first, second = given[seat]
            else:
                first, second = fresh.pop(), fresh.pop()
            holes.append((first, second))
        runout.extend(fresh)
        rules = Rules.of(config, straddle and len(order) >= 3, bomb_pot)
        return cls(rules, order, [stacks[s] for s in order], holes, runout)

    def clone(self) -> SimState:
        new = SimState.__new__(SimState)
        new.rules = self.rules
        new.seats = self.seats
        new.n = self.n
        new.start = self.start
        new.stacks = self.stacks[:]
        new.bets = self.bets[:]
        new.contrib = self.contrib[:]
        new.in_hand = self.in_hand[:]
        new.n_in_hand = self.n_in_hand
        new.holes = self.holes
        new.runout = self.runout
        new.board_len = self.board_len
        new.street = self.street
        new.queue = self.queue[:]
        new.max_bet = self.max_bet
        new.completion = self.completion
        new.raises = self.raises
        new.acted = self.acted
        new.short_sum = self.short_sum
        new.opener = self.opener
        new.over = self.over
        return new

    def resample_hidden(self, rng: random.Random, viewer: int) -> None:
        """Re-deal every card `viewer` (an index) cannot see: others' holes, future board.

        For determinized search: the new cards are uniform over the unseen ones.
        """
        visible = self.runout[: self.board_len]
        seen = {*self.holes[viewer], *visible}
        fresh = rng.sample([c for c in range(52) if c not in seen], 2 * (self.n - 1) + 5)
        holes = list(self.holes)
        for i in range(self.n):
            if i != viewer:
                holes[i] = (fresh.pop(), fresh.pop())
        self.holes = tuple(holes)
        self.runout = visible + tuple(fresh[: 5 - len(visible)])

    def set_cards(self, holes: Sequence[Cards] | None = None, runout: Sequence[int] = ()) -> None:
        """Replace hole cards (index order) and/or the board cards not yet visible.

        `runout` is either all five board cards (the visible ones unchanged) or just
        the ones still to come.
        """
        new_holes = self.holes if holes is None else tuple((h[0], h[1]) for h in holes)
        visible = self.runout[: self.board_len]
        new_runout = self.runout
        if runout:
            if len(runout) == 5:
                if tuple(runout[: self.board_len]) != visible:
                    raise ValueError("the visible board cannot change")
                new_runout = tuple(runout)
            else:
                new_runout = visible + tuple(runout)
        cards = [c for h in new_holes for c in h] + list(new_runout)
        if len(new_holes) != self.n or len(new_runout) != 5 or len(set(cards)) != len(cards):
            raise ValueError("need two distinct hole cards per player and five board cards")
        self.holes = new_holes
        self.runout = new_runout

    # -- reading -----------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.over

    @property
    def actor_index(self) -> int | None:
        return None if self.over else self.queue[0]

    @property
    def actor(self) -> int | None:
        """The seat to act, None when the hand is over."""
        return None if self.over else self.seats[self.queue[0]]

    @property
    def board(self) -> tuple[int, ...]:
        return self.runout[: self.board_len]

    @property
    def pot(self) -> int:
        """Everything in the middle: collected pots plus this street's bets."""
        return sum(self.contrib) + sum(self.bets)

    def to_call(self) -> int:
        """Chips the actor must add to call (0: may check)."""
        i = self.queue[0]
        return min(self.stacks[i], self.max_bet - self.bets[i])

    def index_of(self, seat: int) -> int:
        return self.seats.index(seat)

    def legal_actions(self) -> SimLegal | None:
        """The actor's options, exactly as holdem.Hand.legal_actions gives them."""
        if self.over:
            return None
        i = self.queue[0]
        stack = self.stacks[i]
        bet = self.bets[i]
        to_call = self.max_bet - bet
        if stack < to_call:
            to_call = stack
        bounds = self._raise_bounds(i, to_call)
        if bounds is None:
            kind, low, high = None, 0, 0
        else:
            kind = RAISE if self.max_bet or self.street == PREFLOP else BET
            low, high = bounds
        facing = to_call > 0
        # tuple.__new__ skips NamedTuple's slower generated constructor.
        return tuple.__new__(
            SimLegal,
            (i, self.seats[i], facing, not facing, to_call, facing,
             kind, low, high, bet, stack, KINDS_TABLE[facing, kind]),
        )  # fmt: skip

    def payoffs(self) -> list[int]:
        """Net chips per index (final minus starting stack); meaningful once over."""
        return [s + b - st for s, b, st in zip(self.stacks, self.bets, self.start, strict=True)]

    def final_stacks(self) -> dict[int, int]:
        """Stacks by seat (current ones while the hand is running)."""
        return {seat: self.stacks[i] for i, seat in enumerate(self.seats)}

    # -- acting ------------------------------------------------------------

    def apply(self, action: SimAction | Action) -> None:
        """Apply a legal action or raise IllegalActionError (changing nothing).

        In Limit a bet/raise with `to` 0 means the fixed amount.
        """
        if isinstance(action, Action):
            action = SimAction.from_action(action)
        self.step(action[0], action[1])

    def step(self, kind: int, to: int = 0) -> None:
        """`apply` without building a SimAction: the rollout fast path."""
        if self.over:
            raise HandOverError("the hand is over")
        queue = self.queue
        i = queue[0]
        bets = self.bets
        stacks = self.stacks
        to_call = self.max_bet - bets[i]
        if stacks[i] < to_call:
            to_call = stacks[i]
        if kind == FOLD:
            if not to_call:
                raise IllegalActionError("nothing to call: check instead of folding")
            del queue[0]
            self.acted |= 1 << i
            self.in_hand[i] = False
            self.n_in_hand -= 1
        elif kind in (CHECK, CALL):
            if (kind == CHECK) != (to_call == 0):
                raise IllegalActionError("check only when there is nothing to call, else call")
            del queue[0]
            self.acted |= 1 << i
            bets[i] += to_call
            stacks[i] -= to_call
        elif kind in (BET, RAISE):
            bounds = self._raise_bounds(i, to_call)
            if bounds is None:
                raise IllegalActionError("no bet or raise is allowed now")
            if (kind == RAISE) != (self.max_bet > 0 or self.street == PREFLOP):
                raise IllegalActionError("bet when nobody has bet this street, else raise")
            low, high = bounds
            if self.rules.is_limit and to == 0:
                to = low
            if not low <= to <= high:
                raise IllegalActionError(f"the amount must be from {low} to {high}")
            self._raise_to(i, to)
        else:
            raise IllegalActionError(f"unknown action kind {kind}")
        if not queue or self.n_in_hand <= 1:
            self._end_betting()

    # -- the betting machine (pokerkit's, see the module docstring) -------------

    def _raise_bounds(self, i: int, to_call: int) -> tuple[int, int] | None:
        """(min_to, max_to) for the actor at index i, or None when it may not bet/raise."""
        if to_call < self.completion:
            return None  # facing a short all-in it cannot re-raise
        street = self.street
        rules = self.rules
        if self.raises == rules.max_raises[street]:
            return None  # capped
        if self.short_sum and self.acted >> i & 1:
            return None  # a short all-in does not reopen the betting to who already acted
        stacks = self.stacks
        bets = self.bets
        max_bet = self.max_bet
        if stacks[i] <= max_bet - bets[i]:
            return None  # can only call (all-in)
        in_hand = self.in_hand
        for j in range(self.n):
            if j != i and in_hand[j] and stacks[j] + bets[j] > max_bet:
                break
        else:
            return None  # nobody left who could call a raise
        cap = stacks[i] + bets[i]
        low = rules.min_increment[street]
        if self.completion > low:
            low = self.completion
        low += max_bet
        if low > cap:
            low = cap
        return low, (low if rules.is_limit else cap)

    def _raise_to(self, i: int, to: int) -> None:
        bets = self.bets
        stacks = self.stacks
        increment = to - self.max_bet
        stacks[i] -= to - bets[i]
        bets[i] = to
        self.max_bet = to
        in_hand = self.in_hand
        # Everyone else still in with chips acts again, in order from the raiser's left.
        self.queue = [j for j in _AFTER[self.n][i] if in_hand[j] and stacks[j]]
        self.opener = i
        if increment >= self.completion:
            self.acted = 1 << i  # a full raise: everyone else may raise again
        else:
            self.acted |= 1 << i
        if increment > self.completion:
            self.completion = increment
        self.raises += 1
        if stacks[i]:
            self.short_sum = 0
        else:
            self.short_sum += increment
            if self.short_sum >= self.completion:
                self.short_sum = 0  # short all-ins adding up to a full raise reopen it

    def _live_contrib(self) -> tuple[list[int], int]:
        """(contributions, dead money): a big-blind ante is dead, as pokerkit counts it,
        in the main pot whoever is in it; every other contribution is live."""
        rules = self.rules
        if not (rules.ante and rules.big_blind_ante):
            return self.contrib, 0
        big = 0 if self.n == 2 else 1
        ante = min(rules.ante, self.start[big])
        contrib = self.contrib[:]
        contrib[big] -= ante
        return contrib, ante

    def _post_forced_bets(self) -> None:
        rules = self.rules
        n = self.n
        start = self.start
        stacks = self.stacks
        antes = [0] * n
        if rules.ante and rules.big_blind_ante:
            big = 0 if n == 2 else 1  # as holdem.hand: the big blind antes, heads-up too
            antes[big] = min(rules.ante, start[big])
            stacks[big] -= antes[big]
            self.contrib[big] = antes[big]
        elif rules.ante:
            antes = [min(rules.ante, s) for s in start]
            # Antes are collected like bets: nobody antes more than the second-largest ante.
            cutoff = sorted(antes)[-2]
            for i in range(n):
                collected = min(antes[i], cutoff)
                stacks[i] -= collected
                self.contrib[i] = collected
        if rules.bomb_pot:  # the antes alone: no blinds
            return
        # Heads-up index 0 (not the button) posts the big blind, index 1 the small.
        blinds = (
            [rules.big_blind, rules.small_blind] if n == 2 else [rules.small_blind, rules.big_blind]
        )
        if rules.straddle is not Straddle.OFF and n >= 3:
            blinds += [0] * (n - 2)
            blinds[2 if rules.straddle is Straddle.UTG else n - 1] = 2 * rules.big_blind
        for i, blind in enumerate(blinds):
            # A blind is capped by the stack left after the (uncollected) ante.
            posted = min(blind, start[i] - antes[i])
            if posted > 0:
                self.bets[i] = posted
                stacks[i] -= posted
        self.max_bet = max(self.bets)

    def _begin_betting(self) -> None:
        n = self.n
        bets = self.bets
        stacks = self.stacks
        in_hand = self.in_hand
        if self.street == PREFLOP:
            # Left of the largest blind (ties: the later index); after the flop index 0.
            top = max(range(n), key=lambda j: (bets[j], j))
            opener = (top + 1) % n
        else:
            opener = 0
        self.opener = opener
        first = second = 0  # the two largest bet + stack among players in the hand
        for j in range(n):
            if in_hand[j]:
                total = bets[j] + stacks[j]
                if total > first:
                    first, second = total, first
                elif total > second:
                    second = total
        # Only players with chips who could still lose some of them act.
        self.queue = queue = [
            j for j in _ORDER[n][opener] if in_hand[j] and stacks[j] and second > bets[j]
        ]
        self.completion = self.raises = self.acted = self.short_sum = 0
        if not queue or (len(queue) == 1 and bets[queue[0]] >= self.max_bet):
            self._end_betting()

    def _end_betting(self) -> None:
        self.queue = []
        n = self.n
        bets = self.bets
        stacks = self.stacks
        in_hand = self.in_hand
        survivor = in_hand.index(True) if self.n_in_hand == 1 else -1
        if self.max_bet:
            # Uncalled chips (above the second-largest bet) go back to their owner.
            cutoff = sorted(bets)[-2]
            contrib = self.contrib
            for j in range(n):
                bet = bets[j]
                if bet and j != survivor:  # pokerkit leaves the winner's bet in front of them
                    if bet > cutoff:
                        stacks[j] += bet - cutoff
                        bet = cutoff
                    contrib[j] += bet
                    bets[j] = 0
            self.max_bet = 0
        if survivor >= 0:
            stacks[survivor] += sum(self.contrib) + bets[survivor]
            bets[survivor] = 0
            self._finish()
            return
        # The rest of the board is dealt without betting once at most one player has chips.
        with_chips = 0
        for j in range(n):
            if in_hand[j] and stacks[j]:
                with_chips += 1
        if self.street == RIVER or with_chips <= 1:
            self.board_len = 5
            holes = [h if in_hand[j] else None for j, h in enumerate(self.holes)]
            ranks = rank_hands(self.runout, holes)
            live, dead = self._live_contrib()
            won = settle(live, in_hand, ranks, dead)
            for j in range(n):
                stacks[j] += won[j]
            self._finish()
        else:
            self.street += 1
            self.board_len = BOARD_SIZE_BY_STREET[self.street]
            self._begin_betting()

    def _finish(self) -> None:
        self.over = True
        self.street = SHOWDOWN
