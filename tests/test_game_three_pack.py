"""Rummy 3-Pack games and matches: each rule of RULES.md, its edge cases, and many seeded
random games checked after every action."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from operator import attrgetter

import pytest
from three_pack_helpers import FILLERS, RUMMY, TP, arrange, variant

from payme.cards import CARDS, Card, format_hand, parse_card, parse_hand
from payme.game import actions, replay
from payme.game.actions import Discard, Draw, DropOut, GoOut, IllegalAction, LayDownRummy, LayOff
from payme.game.position import with_fields
from payme.game.three_pack import (
    ThreePackGame,
    ThreePackMatch,
    deal_order_key,
    go_out_options,
    new_three_pack_game,
    play_three_pack,
    replay_three_pack,
    seven_pile_shuffle,
)
from payme.pack import Pack
from payme.rulesets import Ruleset
from payme.solver import evaluate

_index = attrgetter("index")


class _PackCounts(dict[tuple[int, ...], Counter[int]]):
    def __missing__(self, counts: tuple[int, ...]) -> Counter[int]:
        self[counts] = c = Counter({i: n for i, n in enumerate(counts) if n})
        return c


PACKS = _PackCounts()


def _counts(g: ThreePackGame) -> Counter[int]:
    return Counter(map(_index, g.cards_in_play().elements()))


def check_invariants(g: ThreePackGame) -> None:
    assert dict.__eq__(_counts(g), PACKS[g.pack.counts]), "a card was created or lost"
    assert len(g.winners()) <= (g.rules.max_winners or g.players)
    assert (g.to_move is None) == g.over
    if not g.over:
        assert g.active[g.to_move]
        assert not g.winners()
    else:
        assert set(g.winners()) == {r["seat"] for r in g.results() if r["winner"]}
    if g.discard_pile:
        assert g.discard_pile[-1].token not in g.rules.never_discarded
    for s in range(g.players):
        if not g.active[s]:
            assert not g.hand_of(s) and s not in g.winners()


# ---------------------------------------------------------------------- set-up


def test_player_count_cards_dealt_and_optional_cards_are_checked() -> None:
    with pytest.raises(ValueError, match="2-10 players"):
        new_three_pack_game(players=1)
    with pytest.raises(ValueError, match="2-10 players"):
        new_three_pack_game(players=11)
    with pytest.raises(ValueError, match="from 2 to 10"):
        new_three_pack_game(players=3, dealt=11)
    with pytest.raises(ValueError, match="0 to 3 optional NOGO"):
        new_three_pack_game(players=3, optional={"NOGO": 4})
    with pytest.raises(ValueError, match="no optional 'RUMMY'"):
        new_three_pack_game(players=3, optional={"RUMMY": 1})
    with pytest.raises(ValueError, match="pay_me"):
        ThreePackGame("denexa", 3, 1)


@pytest.mark.parametrize(("players", "dealt"), [(2, 2), (4, 7), (10, 10)])
def test_deal_uses_the_chosen_pack_and_hand_size_with_no_upcard(players: int, dealt: int) -> None:
    optional = {"NOMELD": 2, "NOGO": 1, "WILD": 6}
    g = new_three_pack_game(players=players, seed=players, dealt=dealt, optional=optional)
    pack = Pack.of(TP, players, optional)
    assert len(pack) == 156 + 5 + 9
    assert g.cards_in_play() == Counter(pack.cards())
    assert [len(g.hand_of(s)) for s in range(players)] == [dealt] * players
    assert g.discard_pile == ()  # no upcard
    assert len(g.stock) == len(pack) - players * dealt
    assert g.first == (g.dealer + 1) % players and g.to_move == g.first
    assert g.phase == "draw"
    assert g.legal_actions()[0] == Draw(g.first, "stock")
    assert Draw(g.first, "discard") not in g.legal_actions()


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_dealers_left() -> None:
    # With ``first`` given there is no face-up deal: the only shuffle is the deal's.
    g = new_three_pack_game(players=3, seed=11, dealt=4, first=1)
    deck = Pack.of(TP, 3, {}).cards()
    random.Random(11).shuffle(deck)
    top_down = deck[::-1]
    for k, seat in enumerate([1, 2, 0]):
        assert list(g.hand_of(seat)) == top_down[k:12:3]
    assert list(g.stock) == deck[: len(deck) - 12]
    assert g.dealer == 0


def test_face_up_deal_order_is_king_high_ace_low_then_spades_clubs_diamonds_hearts() -> None:
    ranks = "KQJT98765432A"
    ladder = [parse_card(r + s) for r in ranks for s in "SCDH"]
    keys = [deal_order_key(c) for c in ladder]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == 52
    with pytest.raises(ValueError, match="not a regular card"):
        deal_order_key(parse_card("WILD"))


def _regular_keys(cards: tuple[Card, ...]) -> tuple[tuple[int, int], ...]:
    return tuple(deal_order_key(c) for c in cards if c.is_regular)


def test_highest_face_up_card_deals_and_each_player_gets_cards_until_a_regular_one() -> None:
    tie_seen = special_seen = False
    for seed in range(300):
        g = new_three_pack_game(players=10, seed=seed, dealt=2)
        keys = [_regular_keys(cards) for cards in g.preliminary]
        # Each player's cards: specials until a regular card, then (tie-breaks) more rounds.
        for cards in g.preliminary:
            assert cards[-1].is_regular
            special_seen |= not cards[0].is_regular
        best = max(keys)
        assert keys.count(best) == 1, "the highest must be unique after tie-breaks"
        assert g.dealer == keys.index(best) and g.first == (g.dealer + 1) % 10
        extra = [p for p, k in enumerate(keys) if len(k) > 1]
        if extra:
            tie_seen = True
            # Only players whose first cards were identical and highest got more cards.
            firsts = {keys[p][0] for p in extra}
            assert len(firsts) == 1
            assert firsts.pop() == max(k[0] for k in keys)
            assert sum(k[0] == keys[extra[0]][0] for k in keys) == len(extra)
        assert "face up" in g.history[0].event
    assert tie_seen and special_seen


def test_seven_pile_shuffle_deals_seven_piles_and_stacks_them() -> None:
    cards = [CARDS[i] for i in range(14)]  # AS..AH bottom to top: top is AH (index 13)
    out = seven_pile_shuffle(cards)
    assert sorted(out) == sorted(cards)
    # Top-down the cards are 13, 12, ... 0; pile k gets the (k)th and (k+7)th of them, the
    # later one on top; pile 1 (k=0) ends on top of the stack, pile 7 at the bottom.
    piles = [[13 - k, 13 - k - 7] for k in range(7)]  # bottom, top for each pile
    expected = [i for pile in reversed(piles) for i in pile]
    assert [c.index for c in out] == expected


def test_seven_pile_shuffle_variation_changes_the_deal_but_not_the_pack() -> None:
    plain = new_three_pack_game(players=4, seed=3, first=0)
    seven = new_three_pack_game(variant(variation_seven_pile_shuffle=True), 4, 3, first=0)
    assert seven.cards_in_play() == plain.cards_in_play()
    deck = plain.pack.cards()
    random.Random(3).shuffle(deck)
    deck = seven_pile_shuffle(deck)
    assert seven.hand_of(0)[0] == deck[-1] and seven.stock[-1] == deck[-4 * 7 - 1]
    assert [seven.hand_of(s) for s in range(4)] != [plain.hand_of(s) for s in range(4)]
    assert "7-pile" in seven.history[-1].event


def test_seating_variation_puts_the_lowest_card_first_and_the_dealer_on_its_right() -> None:
    r = variant(variation_seating=True)
    for seed in range(40):
        g = new_three_pack_game(r, players=5, seed=seed)
        keys = [_regular_keys(cards) for cards in g.preliminary]
        assert len(set(keys)) == 5  # every tie that matters is broken
        assert sorted(g.seating) == list(range(5))
        assert g.first == 0 and g.dealer == 4
        assert keys[g.seating[0]] == min(keys)
        assert keys[g.seating[4]] == max(keys)
        assert any("Seating" in rec.event for rec in g.history)


# ---------------------------------------------------------------------- turns


def test_a_turn_is_draw_then_discard_and_only_the_top_discard_may_be_drawn() -> None:
    g = new_three_pack_game(players=3, seed=5, dealt=7, first=0)
    g = arrange(g, pile="5C 9D")
    hand = list(g.hand_of(0))
    v = g.can(Discard(0, hand[0]))
    assert not v and v.rule == "a turn: draw, then go out or discard"
    assert "draw first" in v.reason
    assert not g.can(Draw(1, "stock")) and "seat 0's turn" in g.can(Draw(1, "stock")).reason
    v = g.can(Draw(0, "discard", 2))
    assert not v and "only the top discard" in v.reason
    assert not g.can(GoOut(0))
    g.apply(Draw(0, "discard"))
    assert parse_card("9D") in g.hand_of(0) and g.discard_pile == (parse_card("5C"),)
    assert not g.can(Draw(0, "stock")) and "drawn already" in g.can(Draw(0, "stock")).reason
    g.apply(Discard(0, parse_card("9D")))  # taking a discard back is allowed
    assert g.to_move == 1 and g.phase == "draw" and g.view(0).turns == (1, 0, 0)
    with pytest.raises(IllegalAction, match="holds no"):
        g.apply(Draw(1, "stock")) and g.apply(Discard(1, parse_card("RUMMY")))
    check_invariants(g)


def test_an_illegal_action_leaves_the_game_unchanged() -> None:
    g = new_three_pack_game(players=3, seed=8, first=2)
    before = (g.history, g.to_position())
    for bad in [
        Discard(2, g.hand_of(2)[0]),
        GoOut(2),
        Draw(0, "stock"),
        Draw(2, "discard"),
        Draw(2, "stock", 2),
        LayOff(2),
        LayDownRummy(2),
        Draw(7, "stock"),
    ]:
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert (g.history, g.to_position()) == before
    assert g.actions == ()


def test_nomeld_and_nogo_are_never_discarded() -> None:
    g = new_three_pack_game(players=2, seed=1, first=0, optional={"NOMELD": 1, "NOGO": 1})
    g = arrange(g, {0: "NOMELD NOGO 2C 6D KH 9S 4H"})
    g.apply(Draw(0, "stock"))
    for token in ("NOMELD", "NOGO"):
        v = g.can(Discard(0, parse_card(token)))
        assert not v and v.rule == "NOMELD and NOGO are never discarded"
        assert Discard(0, parse_card(token)) not in g.legal_actions()
    assert Discard(0, parse_card("2C")) in g.legal_actions()


# ---------------------------------------------------------------------- going out


def test_going_out_melding_every_card_wins_and_ends_the_game() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "4H 5H 6H 9C 9D 9S WILD"}, stock_top="7H")
    g.apply(Draw(0, "stock"))
    assert GoOut(0, None) in g.legal_actions()
    rec = g.apply(GoOut(0))
    assert "goes out" in rec.event
    assert g.over and g.winners() == (0,) and g.went_out == 0
    assert g.results()[0] == {
        "seat": 0,
        "winner": True,
        "how": "went out",
        "turns": 1,
        "dropped": False,
    }
    assert sum(len(m) for m in g.view(0).melds[0]) == 8 and g.hand_of(0) == ()
    assert not g.can(Draw(1, "stock")) and g.can(Draw(1, "stock")).rule == "the game is over"
    check_invariants(g)


def test_going_out_may_leave_one_card_which_is_discarded() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "4H 5H 6H 9C 9D 9S KD"}, stock_top="7H")
    g.apply(Draw(0, "stock"))
    assert not g.can(GoOut(0, None))
    assert "1 card would stay unmelded" in g.can(GoOut(0, None)).reason
    assert not g.can(GoOut(0, parse_card("9C")))  # leaving a 9 breaks the group
    g.apply(GoOut(0, parse_card("KD")))
    assert g.discard_pile[-1] == parse_card("KD") and g.winners() == (0,)
    check_invariants(g)


def test_two_unmelded_cards_cannot_go_out() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "4H 5H 6H 9C 9D QS KD"}, stock_top="2C")
    g.apply(Draw(0, "stock"))
    assert not any(isinstance(a, GoOut) for a in g.legal_actions())
    v = g.can(GoOut(0, parse_card("KD")))
    assert not v and v.rule == "go out: meld every card but at most one, never NOGO"


def test_nogo_may_not_be_left_over_but_nomeld_may_and_stays_in_the_hand() -> None:
    opts = {"NOMELD": 1, "NOGO": 1}
    g = new_three_pack_game(players=3, seed=2, first=0, optional=opts)
    g = arrange(g, {0: "4H 5H 6H 9C 9D 9S NOGO"}, stock_top="7H")
    g.apply(Draw(0, "stock"))
    v = g.can(GoOut(0, parse_card("NOGO")))
    assert not v and "NOGO may not be the card left over" in v.reason
    assert not any(isinstance(a, GoOut) for a in g.legal_actions())

    g = new_three_pack_game(players=3, seed=2, first=0, optional=opts)
    g = arrange(g, {0: "4H 5H 6H 9C 9D 9S NOMELD"}, stock_top="7H")
    g.apply(Draw(0, "stock"))
    assert g.legal_actions()[0] == GoOut(0, parse_card("NOMELD"))
    g.apply(GoOut(0, parse_card("NOMELD")))
    assert g.hand_of(0) == (parse_card("NOMELD"),) and parse_card("NOMELD") not in g.discard_pile
    assert g.winners() == (0,)
    check_invariants(g)


def test_rummy_counts_as_a_meld_of_its_own_when_going_out() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "RUMMY 5H 6H 7H 9C 9D KS"}, stock_top="9S")
    g.apply(Draw(0, "stock"))
    g.apply(GoOut(0, parse_card("KS")))
    assert any(m.cards == (RUMMY,) for m in g.view(0).melds[0])
    assert g.results()[0]["how"] == "went out" and g.winners() == (0,)


# ---------------------------------------------------------------------- RUMMY cards


def test_both_rummy_cards_laid_down_in_ones_turn_win_at_once() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "RUMMY RUMMY 2C 6D KH 9S 4H"})
    assert LayDownRummy(0) in g.legal_actions()  # at the start of the turn, before drawing
    g.apply(Draw(0, "stock"))
    assert LayDownRummy(0) in g.legal_actions()  # or during it
    assert not g.can(LayDownRummy(1))
    g.apply(LayDownRummy(0))
    assert g.over and g.winners() == (0,)
    assert g.results()[0]["how"] == "both rummy" and [m.cards for m in g.view(0).melds[0]] == [
        (RUMMY,),
        (RUMMY,),
    ]
    check_invariants(g)


def test_one_rummy_card_cannot_be_laid_down_to_win() -> None:
    g = new_three_pack_game(players=3, seed=2, first=0)
    g = arrange(g, {0: "RUMMY 2C 6D KH 9S 4H 8D"})
    v = g.can(LayDownRummy(0))
    assert not v and "holds 1 of the 2 RUMMY" in v.reason
    assert v.rule == "lay down both RUMMY cards during your turn to win"


def test_both_rummy_cards_dealt_to_one_player() -> None:
    found = None
    for seed in range(400):
        g = new_three_pack_game(players=6, seed=seed, dealt=10)
        holders = [s for s in range(6) if g.hand_of(s).count(RUMMY) == 2]
        if holders:
            found = (seed, holders[0])
            break
    assert found is not None, "no deal in 400 seeds gave one player both RUMMY cards"
    seed, holder = found
    # The holder may win at its first turn ...
    g = new_three_pack_game(players=6, seed=seed, dealt=10)
    while g.to_move != holder:
        g.apply(Draw(g.to_move, "stock"))
        hand = g.hand_of(g.to_move)
        g.apply(Discard(g.to_move, next(c for c in hand if c.is_regular)))
    g.apply(LayDownRummy(holder))
    assert g.winners() == (holder,)
    # ... and if someone goes out before that turn, both win.
    g = new_three_pack_game(players=6, seed=seed, dealt=10)
    if g.first == holder:
        return
    mover = g.first
    hands = [format_hand(g.hand_of(s)) for s in range(6)]
    hands[mover] = "2S 3S 4S 5S 6S 7S 8S 9S TS JS"
    g = ThreePackGame.from_position(
        with_fields(g.to_position(), hands=" / ".join(hands), stock="* QS")
    )
    g.apply(Draw(mover, "stock"))
    g.apply(GoOut(mover))
    assert set(g.winners()) == {mover, holder}
    assert g.results()[holder]["how"] == "rummy card"


def test_three_winners_one_goes_out_and_two_hold_a_rummy_card() -> None:
    g = new_three_pack_game(players=4, seed=2, first=0)
    g = arrange(
        g,
        {0: "4H 5H 6H 9C 9D 9S KD", 1: "RUMMY 2C 3D 8S JH QC 5S", 2: "RUMMY 2D 3C 8H JS QD 5C"},
        stock_top="7H",
    )
    g.apply(Draw(0, "stock"))
    g.apply(GoOut(0, parse_card("KD")))
    assert g.winners() == (0, 1, 2)
    assert [r["how"] for r in g.results()] == ["went out", "rummy card", "rummy card", ""]
    check_invariants(g)


# ---------------------------------------------------------------------- stock exhausted


def test_last_stock_card_ends_the_game_when_the_next_player_cannot_go_out() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(g, {2: "RUMMY 2C 6D KH 9S 4H 8D"}, stock_top="QH", stock_size=1, pile="3S")
    rec = g.apply(Draw(0, "stock"))
    assert "last stock card" in rec.event
    g.apply(Discard(0, parse_card("QH")))
    assert g.over and g.winners() == (2,)  # seat 1 cannot go out; seat 2 holds a RUMMY
    assert "cannot go out by drawing" in g.history[-1].event
    check_invariants(g)


def test_the_next_player_may_draw_the_last_discard_to_go_out() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(g, {1: "4H 5H 6H 9C 9D 9S KD"}, stock_top="7H", stock_size=1)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, parse_card("7H")))
    assert g.phase == "final_draw" and g.to_move == 1
    assert g.legal_actions() == [Draw(1, "discard"), DropOut(1)]
    assert not g.can(Draw(1, "stock"))
    g.apply(Draw(1, "discard"))
    assert g.phase == "final_go_out"
    assert not g.can(Discard(1, parse_card("KD")))
    g.apply(GoOut(1, parse_card("KD")))
    assert g.winners() == (1,) and g.view(0).turns == (1, 1, 0)
    check_invariants(g)


def test_a_discard_that_does_not_help_gives_no_chance() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(g, {1: "4H 5H 6H 9C 9D 9S KD"}, stock_top="7H", stock_size=1)
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, parse_card(FILLERS[0].split()[0])))
    assert g.over and g.winners() == ()


def test_a_next_player_holding_rummy_gets_no_chance_and_only_the_next_player_may_try() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(
        g, {1: "RUMMY 5H 6H 9C 9D 9S KD", 2: "4H 5H 6H 9C 9D 9S KD"}, stock_top="7H", stock_size=1
    )
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, parse_card("7H")))
    # Seat 1 holds a RUMMY card: the game ends; seat 2 could have gone out but is not next.
    assert g.over and g.winners() == (1,)


def test_the_last_chance_skips_a_player_who_dropped_out() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(g, {2: "4H 5H 6H 9C 9D 9S KD"}, stock_top="7H", stock_size=1)
    g.apply(DropOut(1))
    g.apply(Draw(0, "stock"))
    g.apply(Discard(0, parse_card("7H")))
    assert g.phase == "final_draw" and g.to_move == 2


def test_go_out_variation_rebuilds_the_stock_from_the_discards() -> None:
    r = variant(variation_go_out=True)
    with pytest.raises(ValueError, match="without NOGO"):
        new_three_pack_game(r, 3, 1, optional={"NOGO": 1})
    g = new_three_pack_game(r, players=3, seed=4, first=0)
    g = arrange(g, stock_top="7H", stock_size=1, pile="2H 3H 4H")
    g.apply(Draw(0, "stock"))
    below = list(g.discard_pile)
    assert below[-3:] == list(parse_hand("2H 3H 4H"))
    g.apply(Discard(0, parse_card("7H")))
    assert not g.over and g.to_move == 1 and g.phase == "draw"
    assert g.discard_pile == (parse_card("7H"),)
    assert Counter(g.stock) == Counter(below) and g.stock != below
    assert "shuffled into a new stock" in g.history[-1].event
    check_invariants(g)


# ---------------------------------------------------------------------- variations


def test_three_card_draw_takes_two_discards_and_the_top_stock_card() -> None:
    r = variant(variation_three_card_draw=True)
    g = new_three_pack_game(r, players=3, seed=4, first=0)
    g = arrange(g, pile="8C 9C", stock_top="TC")
    assert Draw(0, "discard", 2) in g.legal_actions()
    assert not g.can(Draw(0, "discard", 3))
    g.apply(Draw(0, "discard", 2))
    assert len(g.hand_of(0)) == 10 and g.discard_pile == ()
    assert {parse_card(t) for t in ("8C", "9C", "TC")} <= set(g.hand_of(0))
    assert not g.can(Draw(0, "discard"))  # one draw a turn
    g.apply(Discard(0, parse_card("AS")))
    assert not g.can(Draw(1, "discard", 2))  # the pile holds one card
    assert "at least two" in g.can(Draw(1, "discard", 2)).reason
    g2 = new_three_pack_game(players=3, seed=4, first=0)
    g2 = arrange(g2, pile="8C 9C")
    assert not g2.can(Draw(0, "discard", 2))  # not without the variation
    with pytest.raises(ValueError, match="not both"):
        new_three_pack_game(
            variant(variation_three_card_draw=True, variation_spread_discard_pile=True), 3
        )


def test_spread_out_pile_lets_any_discard_be_taken_with_all_above_it() -> None:
    r = variant(variation_spread_discard_pile=True)
    g = new_three_pack_game(r, players=3, seed=4, first=0)
    g = arrange(g, pile="8C 9C JD QH")
    assert [a.take for a in g.legal_actions() if isinstance(a, Draw) and a.source == "discard"] == [
        1,
        2,
        3,
        4,
    ]
    assert g.view(1).discard_pile == tuple(parse_hand("8C 9C JD QH"))
    assert not g.can(Draw(0, "discard", 5))
    g.apply(Draw(0, "discard", 3))
    assert g.discard_pile == (parse_card("8C"),)
    assert {parse_card(t) for t in ("9C", "JD", "QH")} <= set(g.hand_of(0))
    plain = new_three_pack_game(players=3, seed=4, first=0)
    plain = arrange(plain, pile="8C 9C JD QH")
    assert plain.view(1).discard_pile == (parse_card("QH"),)


# ---------------------------------------------------------------------- dropping out


def test_dropping_out_any_time_removes_the_cards_unseen() -> None:
    g = new_three_pack_game(players=4, seed=6, first=0)
    held = list(g.hand_of(2))
    g.apply(DropOut(2))  # not its turn
    assert not g.active[2] and g.hand_of(2) == () and held
    assert g.cards_in_play() == Counter(g.pack.cards())  # out of play, not lost
    assert g.view(0).hand_counts[2] == 0
    assert "unseen" in g.history[-1].event and str(held[0]) not in g.history[-1].event
    assert not g.can(Draw(2, "stock")) and "dropped out" in g.can(DropOut(2)).reason
    g.apply(Draw(0, "stock"))
    g.apply(DropOut(0))  # during its own turn, after drawing: the turn ends
    assert g.to_move == 1 and g.phase == "draw"
    g.apply(Draw(1, "stock"))
    g.apply(Discard(1, g.hand_of(1)[0]))
    assert g.to_move == 3  # seat 2 is skipped
    check_invariants(g)


def test_when_one_player_is_left_the_game_ends_and_only_a_rummy_holder_wins() -> None:
    g = new_three_pack_game(players=2, seed=6, first=0)
    g = arrange(g, {1: "RUMMY 2C 6D KH 9S 4H 8D"})
    g.apply(DropOut(0))
    assert g.over and g.winners() == (1,) and g.results()[0]["dropped"]
    g = new_three_pack_game(players=2, seed=6, first=0)
    g = arrange(g)
    g.apply(DropOut(1))
    assert g.over and g.winners() == ()


# ---------------------------------------------------------------------- views, records


def test_a_view_shows_ones_own_hand_and_counts_never_anothers_cards() -> None:
    g = new_three_pack_game(players=3, seed=9, first=0)
    g = arrange(g, pile="5D")
    v = g.view(1)
    assert v.hand == tuple(sorted(g.hand_of(1)))
    assert v.hand_counts == (7, 7, 7) and v.top_discard == parse_card("5D")
    hidden = {c for s in (0, 2) for c in g.hand_of(s)} - set(g.hand_of(1)) - {parse_card("5D")}
    text = repr({f.name: getattr(v, f.name) for f in dataclasses.fields(v) if f.name != "rules"})
    assert not any(repr(c) in text for c in hidden)
    assert v.stock_estimate % 5 == 0 and abs(v.stock_estimate - len(g.stock)) <= 2
    with pytest.raises(ValueError, match="no seat 3"):
        g.view(3)


def test_records_never_reveal_a_stock_card() -> None:
    g = play_three_pack(players=3, bots=("greedy",), seed=12)
    for rec in g.history:
        if isinstance(rec.action, Draw) and rec.action.source == "stock":
            assert dict(rec.details)["cards"] == ""
    assert all(rec.number == i + 1 for i, rec in enumerate(g.history))
    assert [r.action for r in g.history if r.action is not None] == list(g.actions)


def test_replay_rebuilds_the_game_exactly() -> None:
    opts = {"dealt": 6, "optional": {"WILD": 2, "NOMELD": 1}}
    g = play_three_pack(players=4, bots=("random", "strong"), seed=21, **opts)
    again = replay_three_pack("three_pack", 4, 21, g.actions, **opts)
    assert again.history == g.history and again.winners() == g.winners()
    assert again.results() == g.results()
    other = play_three_pack(players=4, bots=("random", "strong"), seed=22, **opts)
    assert other.history != g.history


# ---------------------------------------------------------------------- matches


def settle(match: ThreePackMatch, winners: set[int]) -> None:
    """End the match's current game with exactly ``winners`` (at most two): they hold a
    RUMMY card each and the last stock card runs out with nobody able to go out."""
    assert len(winners) <= 2
    game = match.game
    mover = game.to_move
    assert mover is not None
    hands = {s: ("RUMMY " + " ".join(FILLERS[s % 3].split()[1 : game.dealt])) for s in winners}
    game = match.games[-1] = arrange(game, hands, stock_top="KC", stock_size=1)
    game.apply(Draw(mover, "stock"))
    card = next(c for c in game.hand_of(mover) if c.is_regular)
    game.apply(Discard(mover, card))
    assert game.over and set(game.winners()) == winners


def test_a_match_scores_one_point_per_winner_and_moves_the_first_player_left() -> None:
    m = ThreePackMatch(players=3, seed=3)
    first_players = [m.game_players[-1][m.game.first]]
    settle(m, {0})
    assert m.next_game() is not None
    assert m.points == [1, 0, 0]
    first_players.append(m.game_players[-1][m.game.first])
    settle(m, set())  # a tie game: nobody won
    m.next_game()
    first_players.append(m.game_players[-1][m.game.first])
    settle(m, {1})
    m.next_game()
    first_players.append(m.game_players[-1][m.game.first])
    t = m.table
    step = [t[(t.index(p) + 1) % 3] for p in first_players]
    assert first_players[1] == step[0]  # moved one seat left
    assert first_players[2] == first_players[1]  # not after a tie game
    assert first_players[3] == step[2]
    assert m.points == [1, 1, 0] and not m.over


def test_a_player_reaching_two_points_alone_wins_the_match() -> None:
    m = ThreePackMatch(players=3, seed=3)
    settle(m, {seat for seat, p in enumerate(m.game_players[-1]) if p == 2})
    m.next_game()
    settle(m, {seat for seat, p in enumerate(m.game_players[-1]) if p == 2})
    assert m.next_game() is None
    assert m.over and m.winner == 2 and m.points == [0, 0, 2]


def test_players_tied_at_two_play_tie_break_games_among_themselves() -> None:
    m = ThreePackMatch(players=4, seed=5)

    def seats_of(*players: int) -> set[int]:
        return {s for s, p in enumerate(m.game_players[-1]) if p in players}

    settle(m, seats_of(0, 1))
    m.next_game()
    settle(m, seats_of(0, 1))
    tie_break = m.next_game()
    assert tie_break is not None and tie_break.players == 2
    assert sorted(m.game_players[-1]) == [0, 1] and m.tie_break[-1]
    settle(m, seats_of(0, 1))  # both win again: still tied, at 3
    again = m.next_game()
    assert again is not None and m.points[:2] == [3, 3] and m.tie_break[-1]
    settle(m, seats_of(1))
    assert m.next_game() is None and m.winner == 1 and m.points == [3, 4, 0, 0]


def test_a_match_is_refused_a_next_game_before_the_current_one_ends() -> None:
    m = ThreePackMatch(players=3, seed=1)
    with pytest.raises(ValueError, match="not over"):
        m.next_game()


def test_matches_played_by_bots_end_with_one_winner() -> None:
    for seed in range(3):
        m = ThreePackMatch(players=3, seed=seed, dealt=5).play(("greedy", "strong", "random"))
        assert m.over and m.points[m.winner] == max(m.points) >= 2
        assert sum(m.points) == sum(len(g.winners()) for g in m.games)


# ---------------------------------------------------------------------- random games


def _random_illegal(g: ThreePackGame, rng: random.Random) -> list[actions.Action]:
    s = g.to_move if g.to_move is not None else 0
    other = (s + 1) % g.players
    card = rng.choice(CARDS)
    return [
        Draw(other, "stock"),
        Discard(s, card),
        GoOut(s, card),
        Draw(s, "discard", rng.randint(2, 6)),
        Draw(s, "stock"),
        Discard(other, card),
        LayDownRummy(other),
        LayDownRummy(s),
        GoOut(other),
        LayOff(s),
    ]


def _play_random(seed: int) -> ThreePackGame:
    """A game of random legal moves (going out when possible, mostly) under random options,
    with every invariant checked after each action and illegal actions tried on the way."""
    rng = random.Random(seed)
    flags = {
        "variation_three_card_draw": rng.random() < 0.2,
        "variation_seating": rng.random() < 0.2,
        "variation_seven_pile_shuffle": rng.random() < 0.2,
        "variation_go_out": rng.random() < 0.15,
    }
    if not flags["variation_three_card_draw"]:
        flags["variation_spread_discard_pile"] = rng.random() < 0.2
    r = variant(**flags)
    players = rng.randint(2, 10)
    optional = {"NOMELD": rng.randint(0, 3), "WILD": rng.randint(0, 6)}
    if not flags["variation_go_out"]:
        optional["NOGO"] = rng.randint(0, 3)
    g = new_three_pack_game(
        r, players, seed, dealt=rng.randint(2, 10), optional=optional, turn_limit=300
    )
    check_invariants(g)
    illegal = _random_illegal(g, rng)
    while not g.over:
        legal = g.legal_actions()
        assert legal[-1] == DropOut(g.to_move)
        a = rng.choice(legal)
        assert g.can(a), (a, g.can(a))
        if rng.random() < 0.3:
            illegal = _random_illegal(g, rng)
        for bad in rng.sample(illegal, 1):
            if bad in legal or (isinstance(bad, Draw) and g.can(bad)):
                continue  # a hidden deep Spread-Out draw is legal: not listed in the sample
            verdict = g.can(bad)
            assert not verdict and verdict.reason, bad
            before = len(g.history)
            try:
                g.apply(bad)
            except IllegalAction as e:
                assert e.reason == verdict.reason
            else:
                raise AssertionError(f"{bad} was accepted")
            assert len(g.history) == before
        goes = [a for a in legal if isinstance(a, GoOut | LayDownRummy)]
        stock = Draw(g.to_move, "stock")
        if goes and rng.random() < 0.8:
            action: actions.Action = rng.choice(goes)
        elif rng.random() < 0.002:
            action = DropOut(rng.choice([s for s in range(g.players) if g.active[s]]))
        elif stock in legal and rng.random() < 0.7:
            action = stock
        else:
            # Deep Spread-Out takes swell a hand (and the solver's work): rarely take one.
            shallow = [a for a in legal[:-1] if not isinstance(a, Draw) or a.take <= 3]
            deep = rng.random() < 0.05
            action = rng.choice((legal[:-1] if deep else shallow) or legal)
        g.apply(action)
        check_invariants(g)
    return g


@pytest.mark.slow  # a long sweep (most of the unit run): make test runs it, make check not
@pytest.mark.parametrize("block", range(4))
def test_seeded_random_games_keep_every_invariant(block: int) -> None:
    hows: Counter[str] = Counter()
    ties = 0
    for seed in range(block * 400, block * 400 + 400):
        g = _play_random(seed)
        hows.update(row["how"] for row in g.results())
        opts = {"dealt": g.dealt, "optional": g.optional, "turn_limit": 300}
        if seed % 20 == 0:
            again = replay(g.rules, g.players, g.seed, g.actions, **opts)
            assert again.history == g.history
        if seed % 40 == 20:
            # A tie agreed halfway through replays exactly too (the agreement is no action).
            half = g.actions[: len(g.actions) // 2]
            tied = replay(g.rules, g.players, g.seed, half, **opts)
            if not tied.over:
                tied.agree_tie()
                again = replay(g.rules, g.players, g.seed, half, tie=True, **opts)
                assert again.history == tied.history and again.winners() == ()
                ties += 1
    # The games reach every kind of win.
    assert hows["went out"] and hows["rummy card"] and hows["both rummy"]
    assert ties >= 5


def test_the_quick_no_never_contradicts_the_solver() -> None:
    """``go_out_options`` skips the solver when a quick count proves a hand cannot go out
    (or when one evaluation leaves two cards unmelded); the solver must agree."""
    from payme.game.three_pack import _hopeless
    from payme.solver import can_go_out

    rng = random.Random(4)
    deck = Pack.of(TP, 4, {"NOMELD": 3, "NOGO": 3, "WILD": 6}).cards()
    refused = 0
    for _ in range(600):
        hand = rng.sample(deck, rng.randint(3, 9))
        if _hopeless(TP, hand):
            refused += 1
            assert not can_go_out(tuple(hand), TP).ok, hand
        else:
            solver = can_go_out(tuple(hand), TP)
            options = tuple(d for d in solver.discards if d is None or d.token != "NOGO")
            assert go_out_options(TP, hand) == options, hand
    assert refused > 300


def _hopeless_by_definition(rules: Ruleset, hand: Sequence[Card]) -> bool:
    """``_hopeless`` as its docstring states it, card by card (its first, plain form)."""
    from payme.game.three_pack import _run_gap

    need = min(rules.set_min, rules.run_min) - 1
    if need < 1:
        return False
    wilds = stuck = 0
    barred = False
    ranks: Counter[int] = Counter()
    suits: dict[str, set[int]] = {}
    for c in hand:
        if rules.wild_scope(c, None) is not None:
            wilds += 1
        elif c.rank is None or c.suit is None:
            if c.token in rules.single_card_melds:
                continue
            stuck += 1
            barred = barred or c.token in rules.never_left_over
        else:
            ranks[c.rank] += 1
            suits.setdefault(c.suit, set()).add(c.rank)
    lonely = sum(
        1
        for held in suits.values()
        for rank in held
        if ranks[rank] == 1
        and not any(r != rank and _run_gap(rules, rank, r) <= wilds + 1 for r in held)
    )
    stuck += max(0, lonely - wilds // need)
    return stuck > 1 or (barred and stuck > 0)


def test_the_quick_no_reads_each_card_as_its_definition_does() -> None:
    """The bit-mask ``_hopeless`` gives the plain definition's answer on random hands of
    regular, wild and special cards, under the preset and under changed rules (ace low
    only, longer melds, no one-card melds, other cards never left over)."""
    from payme.game.three_pack import _hopeless

    rule_sets = [
        TP,
        dataclasses.replace(TP, name="tp-ace-low", ace="low"),
        dataclasses.replace(TP, name="tp-four", set_min=4, run_min=4),
        dataclasses.replace(TP, name="tp-no-singles", single_card_melds=()),
        dataclasses.replace(TP, name="tp-never", never_left_over=("NOGO", "NOMELD")),
    ]
    deck = Pack.of(TP, 4, {"NOMELD": 3, "NOGO": 3, "WILD": 6}).cards()
    rng = random.Random(11)
    answers: Counter[bool] = Counter()
    for rules in rule_sets:
        for _ in range(1500):
            hand = rng.sample(deck, rng.randint(1, 12))
            expected = _hopeless_by_definition(rules, hand)
            assert _hopeless(rules, hand) == expected, (rules.name, format_hand(hand))
            answers[expected] += 1
    assert answers[True] > 1000 and answers[False] > 1000


def test_a_lonely_card_adds_exactly_one_unmelded_card() -> None:
    """The expert skips the solver for a drawn card ``lonely_cards`` names: the hand with it
    must leave exactly one more card unmelded, under the preset and changed rules, with
    wild cards of every scope (WILD, GROUP, SEQ) in the hands."""
    from payme.game.three_pack import lonely_cards

    rule_sets = [
        TP,
        dataclasses.replace(TP, name="tp-ace-low", ace="low"),
        dataclasses.replace(TP, name="tp-four", set_min=4, run_min=4),
        dataclasses.replace(TP, name="tp-no-singles", single_card_melds=()),
    ]
    deck = Pack.of(TP, 4, {"NOMELD": 3, "NOGO": 3, "WILD": 6}).cards()
    scoped = [c for c in CARDS if c.token in ("GROUP", "SEQ")]
    rng = random.Random(12)
    checked = hands_with_some = 0
    for rules in rule_sets:
        for _ in range(120):
            hand = rng.sample(deck, rng.randint(4, 9))
            for place in (0, 1):  # GROUP or SEQ in half the hands, both in a quarter
                missing = [c for c in scoped if c not in hand]
                if missing and rng.random() < 0.5:
                    hand[place] = rng.choice(missing)
            mask = lonely_cards(rules, hand)
            hands_with_some += mask != 0
            base = evaluate(tuple(hand), rules).deadwood_points
            for card in CARDS[:52]:
                if mask >> card.index & 1:
                    grown = evaluate((*hand, card), rules)
                    assert grown.deadwood_points == base + 1, (rules.name, format_hand(hand), card)
                    assert card in grown.deadwood
                    checked += 1
    assert hands_with_some > 300 and checked > 5000


def test_the_answer_memo_holds_the_recent_answers_and_right_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A dict bounded at 200,000 answers spent 15-40 ms making its table anew now and then;
    # the memo now holds the recent answers only, and a dropped one is worked out again.
    import payme.game.three_pack as three_pack
    from payme.game.three_pack import go_out_options, unmelded_count

    monkeypatch.setattr(three_pack, "_CACHE_SIZE", 4)
    ruleset = dataclasses.replace(TP, name="tp-memo")  # a rule set of its own: a new memo
    hands = [parse_hand(f"{r}H {r}S {r}C 2D") for r in "3456789TJQKA"]
    for _ in range(2):  # the second time round, some answers come from the memo
        for hand in hands:
            assert unmelded_count(ruleset, hand) == 1
            assert go_out_options(ruleset, hand) == (parse_card("2D"),)
    kept = three_pack._cache(ruleset)
    assert 0 < len(kept.new) <= 4 and 0 < len(kept.old) <= 4
    held = {**kept.old, **kept.new}
    counts = [held.get(three_pack._COUNT + three_pack._key(h)) for h in hands]
    assert counts[:8] == [None] * 8 and counts[-1] == 1  # the last hands' answers only
    assert set(counts) <= {None, 1}


def test_an_agreed_tie_game_has_no_winner_and_keeps_the_first_player() -> None:
    g = new_three_pack_game(players=3, seed=4, first=0)
    g = arrange(g, {1: "RUMMY 2C 6D KH 9S 4H 8D"})
    g.apply(Draw(0, "stock"))
    g.agree_tie()
    assert g.over and g.winners() == () and g.tie_agreed
    assert "tie" in g.history[-2].event
    with pytest.raises(IllegalAction, match="over"):
        g.agree_tie()
    plain = new_three_pack_game(players=3, seed=4, first=0)
    plain.apply(Draw(0, "stock"))
    again = replay_three_pack("three_pack", 3, 4, plain.actions, tie=True, first=0)
    assert again.winners() == () and again.history[-1].event.startswith("Game over (a tie")
    # The game-independent replay takes the agreement too, and rebuilds the tied game.
    plain.agree_tie()
    both = replay("three_pack", 3, 4, plain.actions, tie=True, first=0)
    assert isinstance(both, ThreePackGame) and both.tie_agreed
    assert both.history == plain.history and both.winners() == ()
    untied = replay("three_pack", 3, 4, plain.actions, first=0)
    assert not untied.over and untied.history == plain.history[:-2]

    m = ThreePackMatch(players=3, seed=8)
    first = m.game_players[-1][m.game.first]
    m.game.agree_tie()
    m.next_game()
    assert m.game_players[-1][m.game.first] == first and m.points == [0, 0, 0]


def test_a_custom_rule_set_with_an_upcard_turns_one_up() -> None:
    g = new_three_pack_game(variant(upcard=True), players=3, seed=3, first=0)
    assert len(g.discard_pile) == 1 and Draw(0, "discard") in g.legal_actions()
    assert "upcard" in g.history[-1].event
    check_invariants(g)
