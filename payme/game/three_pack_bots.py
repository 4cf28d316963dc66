"""Bots for Rummy 3-Pack: ``random``, ``greedy`` and ``strong``.

A bot sees only what its seat may see (``game.view(seat)``) and the legal actions, and
returns one of them.  Each bot owns a seeded random source, so a game with bots is as
repeatable as its seed.

>>> from payme.game.three_pack import new_three_pack_game
>>> g = new_three_pack_game(players=3, seed=3)
>>> bot = make_three_pack_bot("greedy", g.rules, seed=1)
>>> action = bot.choose(g.view(g.first), g.legal_actions())
>>> g.can(action).ok
True
>>> make_three_pack_bot("clever", g.rules, seed=1)
Traceback (most recent call last):
...
ValueError: unknown Rummy 3-Pack bot 'clever': choose random, greedy, strong or expert
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from payme.cards import CARDS, Card, parse_card
from payme.deprecation import renamed
from payme.game.actions import Action, Discard, Draw, DropOut, GoOut, LayDownRummy
from payme.game.bots import Bot, BotFactory, SeededBot, by_name, imported_later
from payme.game.generations import BOT_GENERATION
from payme.game.three_pack import unmelded_count
from payme.game.view import SeatView, ThreePackView, narrow
from payme.rulesets import Ruleset, RulesLike
from payme.rulesets import rules as get_rules


def _winning_move(legal: Sequence[Action]) -> Action | None:
    """Laying down both RUMMY cards, else going out (with nothing or the first leftover)."""
    for a in legal:
        if isinstance(a, LayDownRummy):
            return a
    outs = [a for a in legal if isinstance(a, GoOut)]
    if outs:
        # Meld everything if possible; else keep a NOMELD-type leftover in hand over
        # giving a card to the pile (it makes no difference to the result).
        return next((a for a in outs if a.discard is None), outs[0])
    return None


class ThreePackRandomBot(SeededBot):
    """Any legal move, chosen uniformly — except dropping out, which it never does."""

    name = "random"

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        stay = [a for a in legal if not isinstance(a, DropOut)]
        return self.rng.choice(stay or list(legal))


class ThreePackGreedyBot(SeededBot):
    """Fewest unmelded cards now: takes the top discard when that lowers its unmelded count,
    discards to the lowest count, goes out or lays down both RUMMY cards when it can."""

    name = "greedy"

    def __init__(self, rules: Ruleset, seed: int, generation: int = BOT_GENERATION) -> None:
        super().__init__(rules, seed, generation)
        self.never = frozenset(rules.never_discarded)

    def unmelded(self, hand: Sequence[Card]) -> int:
        return unmelded_count(self.rules, hand)

    def discards(self, hand: Sequence[Card]) -> Iterator[tuple[Card, list[Card]]]:
        """Each kind of card ``hand`` may throw, with the hand it leaves.

        Always in the same order (the reverse of card order), so that bots that keep the
        first of equal options break ties the same way every time.

        >>> bot = ThreePackGreedyBot(get_rules("three_pack"), seed=0)
        >>> from payme.cards import parse_hand
        >>> [(c.token, len(rest)) for c, rest in bot.discards(parse_hand("2C 9H 9H"))]
        [('2C', 2), ('9H', 2)]
        """
        for c in sorted(set(hand), reverse=True):
            if c.token in self.never:
                continue
            rest = list(hand)
            rest.remove(c)
            yield c, rest

    def fewest_after_discard(self, hand: Sequence[Card]) -> tuple[int, Card | None]:
        best: tuple[int, Card | None] = (len(hand) + 1, None)
        for c, rest in self.discards(hand):
            n = self.unmelded(rest)
            if n < best[0]:
                best = (n, c)
        return best

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self._choose(narrow(view, ThreePackView), legal)

    def _choose(self, view: ThreePackView, legal: Sequence[Action]) -> Action:
        win = _winning_move(legal)
        if win is not None:
            return win
        hand = list(view.hand)
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            if view.phase == "final_draw":
                return draws[0]  # only draws that let it go out are offered
            top = next((a for a in draws if a.source == "discard" and a.take == 1), None)
            stock = next((a for a in draws if a.source == "stock"), None)
            if top is not None:
                after, _ = self.fewest_after_discard([*hand, *view.discard_pile[-1:]])
                if stock is None or after < self.unmelded(hand):
                    return top
            return stock if stock is not None else draws[0]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            _, card = self.fewest_after_discard(hand)
            return next((a for a in discards if a.card == card), discards[0])
        return legal[0]


class ThreePackStrongBot(ThreePackGreedyBot):
    """Weighs draws by the unseen cards, keeps wild cards, watches the table.

    * A hand is valued by its unmelded count less the chance that the next stock card
      melds: the *improvers* are the unseen cards (the pack less its own hand, every
      discard it saw and every card laid down) that would not raise the count.
    * It discards to the fewest unmelded cards, then to the most improvers; it keeps wild
      cards and RUMMY cards, and avoids cards the next player has shown interest in (same
      rank, or same suit close by, as cards that player took from the pile).
    * It takes the top discard when the hand it leaves beats the expected hand after a
      stock draw, always takes a RUMMY card, goes out when it can and lays down both RUMMY
      cards when it holds them.
    """

    name = "strong"
    lookahead = 0.5
    """Weight of the improvers one turn further on when comparing draws."""
    caution = 0.01
    """Weight of a discard's closeness to what the next player took (set each turn)."""

    def __init__(self, rules: Ruleset, seed: int, generation: int = BOT_GENERATION) -> None:
        super().__init__(rules, seed, generation)
        self.wild_tokens = frozenset(t for t, _ in rules.special_wilds)
        keep = set(self.wild_tokens)
        keep.update(t for t in (rules.holder_wins, rules.instant_win_pair) if t)
        self.keep_tokens = frozenset(keep)
        self.prize = parse_card(rules.holder_wins) if rules.holder_wins else None
        self.high_ace = rules.ace == "low_or_high"

    # --- what it knows --------------------------------------------------------------

    def unseen(self, view: ThreePackView) -> Counter[Card]:
        """Cards it has not seen anywhere: candidates for the next stock card.

        The pack less its own hand, the discard pile as it remembers it, the cards it saw
        other players take from the pile (until it sees them discarded again) and every
        card laid down.  A rebuilt stock (the Go Out variation) takes the pile back in.
        """
        left: Counter[Card] = Counter({CARDS[i]: n for i, n in enumerate(view.pack_counts) if n})
        left.subtract(view.hand)
        me = view.seat
        pile: list[Card] = []
        taken: dict[int, Counter[Card]] = {}
        for seat, kind, cards in view.public_log:
            if kind == "discard":
                pile.extend(cards)
                held = taken.get(seat)
                if held is not None:
                    held.subtract(cards)
            elif kind == "take":
                del pile[len(pile) - len(cards) :]
                if seat != me:
                    taken.setdefault(seat, Counter()).update(cards)
            elif kind == "rebuild":
                del pile[:-1]
        left.subtract(pile)
        for held in taken.values():
            left.subtract(+held)
        for melds in view.melds:
            for m in melds:
                left.subtract(m.cards)
        return +left

    def remembered_pile(self, view: ThreePackView) -> list[Card]:
        """The discard pile as a player who watched every discard and take remembers it."""
        pile: list[Card] = []
        for _seat, kind, cards in view.public_log:
            if kind == "discard":
                pile.extend(cards)
            elif kind == "take":
                del pile[len(pile) - len(cards) :]
            elif kind == "rebuild":
                del pile[:-1]
        return pile

    def interest(self, view: ThreePackView, seat: int) -> list[Card]:
        """Cards ``seat`` took from the discard pile (and may still hold)."""
        return [
            c for s, kind, cards in view.public_log if s == seat and kind == "take" for c in cards
        ]

    # --- valuation ------------------------------------------------------------------

    def _near(self, a: Card, b: Card) -> bool:
        """Whether ``a`` could share a small meld with ``b`` (same rank, or suit nearby)."""
        ra, rb = a.rank, b.rank
        if ra is None or rb is None:
            return False
        if ra == rb:
            return True
        if a.suit != b.suit:
            return False
        gap = abs(ra - rb)
        if self.high_ace and 1 in (ra, rb):
            gap = min(gap, 14 - max(ra, rb))
        return gap <= 2

    def improvers(self, hand: Sequence[Card], unseen: Counter[Card]) -> int:
        """Unseen cards that would join ``hand`` without raising its unmelded count."""
        base = self.unmelded(hand)
        count = 0
        for x, n in unseen.items():
            if x.rank is None:
                if x.token in self.rules.never_melded:
                    continue
            elif not any(self._near(x, c) for c in hand):
                continue  # nothing to meld with: it can only add to the count
            if self.unmelded([*hand, x]) <= base:
                count += n
        return count

    def value(self, hand: Sequence[Card], unseen: Counter[Card], total: int) -> float:
        """Unmelded count less the chance the next stock card melds (lower is better)."""
        return self.unmelded(hand) - self.improvers(hand, unseen) / max(total, 1)

    def danger(self, card: Card, wanted: Sequence[Card]) -> int:
        return sum(1 for w in wanted if self._near(card, w))

    def best_keep(
        self, hand: Sequence[Card], unseen: Counter[Card], wanted: Sequence[Card]
    ) -> tuple[float, Card | None, int]:
        """The card to discard from ``hand``, the value of the hand kept and its count."""
        total = sum(unseen.values())
        # Keeping a wild or RUMMY card is worth a card of count.
        options = [
            (self.unmelded(rest) + (1 if c.token in self.keep_tokens else 0), c, rest)
            for c, rest in self.discards(hand)
        ]
        if not options:
            return float(self.unmelded(hand)), None, self.unmelded(hand)
        low = min(o[0] for o in options)
        best: tuple[tuple[float, int], float, Card | None, int] = ((float("inf"), 0), 0.0, None, 0)
        for n, c, rest in options:
            if n > low:
                continue
            v = self.value(rest, unseen, total)
            score = (v + self.caution * self.danger(c, wanted), -(c.rank or 0))
            if score < best[0]:
                best = (score, v, c, self.unmelded(rest))
        return best[1], best[2], best[3]

    # --- choices (``choose`` is the greedy bot's: it narrows the view to this) -------------

    def _choose(self, view: ThreePackView, legal: Sequence[Action]) -> Action:
        win = _winning_move(legal)
        if win is not None:
            return win
        hand = list(view.hand)
        unseen = self.unseen(view)
        seat, players = view.seat, view.players
        nxt = next(
            (seat + i) % players for i in range(1, players + 1) if view.active[(seat + i) % players]
        )
        wanted = self.interest(view, nxt)
        # With the stock all but gone, the next player may get a last chance to go out
        # with this discard: feeding them weighs more.
        self.caution = 0.5 if view.stock_estimate <= 1 else 0.01
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            if view.phase == "final_draw":
                return draws[0]  # only draws that let it go out are offered
            return self.choose_draw(view, hand, unseen, wanted, draws)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            _, card, _ = self.best_keep(hand, unseen, wanted)
            return next((a for a in discards if a.card == card), discards[0])
        return legal[0]

    def choose_draw(
        self,
        view: ThreePackView,
        hand: list[Card],
        unseen: Counter[Card],
        wanted: Sequence[Card],
        draws: Sequence[Draw],
    ) -> Action:
        stock = next((a for a in draws if a.source == "stock"), None)
        pile = self.remembered_pile(view)
        total = sum(unseen.values())
        best: tuple[float, Draw] | None = None
        for a in draws:
            if a.source != "discard":
                continue
            if a.take == 1:
                taken = list(view.discard_pile[-1:])
            elif self.rules.variation_three_card_draw:
                if len(pile) < 2:
                    continue
                taken = pile[-2:]  # the stock card comes on top, unknown: not valued
            elif a.take <= min(len(pile), 3):
                taken = pile[-a.take :]  # deeper takes swell the hand: not considered
            else:
                continue
            if self.prize is not None and self.prize in taken:
                return a  # a RUMMY card makes it a winner
            v, _, u = self.best_keep([*hand, *taken], unseen, wanted)
            # The count after this turn, less the chance of melding one turn on; extra
            # cards kept from a deep take cost flexibility.
            chance = u - v
            score = u - self.lookahead * chance + (a.take - 1) * 0.5
            if best is None or score < best[0]:
                best = (score, a)
        if stock is None:
            return best[1] if best is not None else draws[0]
        if best is not None:
            chance = self.improvers(hand, unseen) / max(total, 1)
            # Stock: the count after this turn is expected to drop by the chance a stock
            # card melds, and about as much again one turn on.
            stock_score = self.unmelded(hand) - chance - self.lookahead * chance
            if best[0] < stock_score - 1e-9:
                return best[1]
        return stock


BOTS: dict[str, BotFactory] = by_name(
    ThreePackRandomBot,
    ThreePackGreedyBot,
    ThreePackStrongBot,
    expert=imported_later("payme.game.three_pack_expert", "ThreePackExpert"),
)
"""Rummy 3-Pack's bots by name (see :data:`payme.game.BOT_NAMES`)."""


def make_three_pack_bot(name: str, rules: RulesLike, seed: int) -> Bot:
    """A Rummy 3-Pack bot by name (``random``, ``greedy``, ``strong``) with its own rng."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(
            f"unknown Rummy 3-Pack bot {name!r}: choose random, greedy, strong or expert"
        )
    return factory(get_rules(rules), seed, BOT_GENERATION)


# Names this module had before each name got one meaning (kept for one release).
__getattr__ = renamed(
    __name__,
    {
        "BOT_NAMES": "payme.game:BOT_NAMES",
        "RandomBot": "payme.game.three_pack_bots:ThreePackRandomBot",
        "GreedyBot": "payme.game.three_pack_bots:ThreePackGreedyBot",
        "StrongBot": "payme.game.three_pack_bots:ThreePackStrongBot",
        "ThreePackBot": "payme.game.bots:Bot",
    },
)


__all__ = [
    "BOTS",
    "ThreePackGreedyBot",
    "ThreePackRandomBot",
    "ThreePackStrongBot",
    "make_three_pack_bot",
]
