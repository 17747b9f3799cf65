"""Tatort Tonne engine: one test per ruling (T1-T7), the rulebook's example round, bad actions."""

from __future__ import annotations

import pytest

from spielleiter.games import IllegalAction, SetupError
from spielleiter.games.tatort_tonne import CARDS, TatortTonne, new_game

EXAMPLE = ["Alexandra", "Melanie", "Ulrike", "Birgit", "Sarah"]


def choose(state, **cards):
    for player, card in cards.items():
        state, _ = state.apply({"type": "choose", "player": player, "card": card})
    return state


def play_round(state, cards: dict[str, str], targets: dict[str, str | None] | None = None):
    """Play one round; returns the new state and the events of the action that resolved it."""
    events = []
    for player, card in cards.items():
        state, events = state.apply({"type": "choose", "player": player, "card": card})
    for player, target in (targets or {}).items():
        state, events = state.apply({"type": "point", "player": player, "target": target})
    return state, events


def test_rulebook_example_round():
    state = new_game(EXAMPLE)
    state, events = play_round(
        state,
        {"Alexandra": "alibi", "Melanie": "accuse", "Ulrike": "accuse", "Birgit": "alibi",
         "Sarah": "steal"},
        {"Melanie": "Birgit", "Ulrike": "Birgit"},
    )
    texts = [e.text for e in events]
    assert texts == [
        "Melanie accused Birgit", "Ulrike accused Birgit",
        "Birgit: Airtight alibi", "Melanie is out", "Ulrike is out",
        "Alexandra: Airtight alibi", "Sarah: Steal trash", "Sarah takes trash",
        "Round 2",
    ]
    assert state.still_in() == ("Alexandra", "Birgit", "Sarah")
    assert state.trash == {"Alexandra": 0, "Melanie": 0, "Ulrike": 0, "Birgit": 0, "Sarah": 1}
    assert state.trash_left == 24 and state.phase == "choose" and state.round == 2


def test_T1_two_to_ten_players_in_seat_order_with_25_trash():
    state = new_game(["a", "b"])
    assert state.players == ("a", "b") and state.trash_left == 25
    assert new_game([f"p{i}" for i in range(10)]).players[-1] == "p9"
    for bad in (["a"], [f"p{i}" for i in range(11)], ["a", "a"], ["a", ""]):
        with pytest.raises(SetupError):
            new_game(bad)


def test_T1_trash_pile_size_is_an_option():
    assert new_game(["a", "b"], {"trash": 10}).trash_left == 10
    for bad in (0, -1, "25", True, 100):
        with pytest.raises(SetupError):
            new_game(["a", "b"], {"trash": bad})
    with pytest.raises(SetupError, match="unknown option"):
        new_game(["a", "b"], {"trsh": 10})


def test_T2_nothing_resolves_until_every_player_has_chosen():
    state = new_game(["a", "b", "c"])
    state = choose(state, a="steal", b="alibi")
    assert state.phase == "choose" and state.waiting_for() == ("c",)
    assert "choices" not in state.public() and "steal" not in str(state.public())


def test_T2_a_player_may_change_their_choice_and_the_last_counts():
    state = new_game(["a", "b", "c"])
    state = choose(state, a="steal", b="alibi")
    state = choose(state, a="alibi")  # a changes their mind before c is in
    state, events = state.apply({"type": "choose", "player": "c", "card": "steal"})
    assert state.trash == {"a": 0, "b": 0, "c": 1}
    assert any(e.text == "a: Airtight alibi" for e in events)


def test_T2_players_who_are_out_cannot_choose():
    state = new_game(EXAMPLE)
    state, _ = play_round(state, {"Alexandra": "alibi", "Melanie": "accuse", "Ulrike": "accuse",
                                  "Birgit": "alibi", "Sarah": "steal"},
                          {"Melanie": "Birgit", "Ulrike": "Birgit"})
    with pytest.raises(IllegalAction, match="Melanie is out"):
        state.apply({"type": "choose", "player": "Melanie", "card": "steal"})


def test_T3_accusers_point_in_any_order_and_the_round_resolves_with_the_last():
    state = new_game(["a", "b", "c", "d"])
    state = choose(state, a="accuse", b="accuse", c="steal", d="alibi")
    assert state.phase == "point" and state.waiting_for() == ("a", "b")
    state, _ = state.apply({"type": "point", "player": "b", "target": "c"})
    assert state.phase == "point" and state.waiting_for() == ("a",)
    state, _ = state.apply({"type": "point", "player": "a", "target": None})
    assert state.phase == "choose" and not state.in_game["c"]


def test_T3_naming_oneself_or_a_player_who_is_out_is_illegal():
    state = new_game(EXAMPLE)
    state, _ = play_round(state, {"Alexandra": "alibi", "Melanie": "accuse", "Ulrike": "accuse",
                                  "Birgit": "alibi", "Sarah": "steal"},
                          {"Melanie": "Birgit", "Ulrike": "Birgit"})
    state = choose(state, Alexandra="accuse", Birgit="steal", Sarah="steal")
    with pytest.raises(IllegalAction, match="oneself"):
        state.apply({"type": "point", "player": "Alexandra", "target": "Alexandra"})
    with pytest.raises(IllegalAction, match="Melanie is out"):
        state.apply({"type": "point", "player": "Alexandra", "target": "Melanie"})
    with pytest.raises(IllegalAction, match="did not accuse"):
        state.apply({"type": "point", "player": "Sarah", "target": "Birgit"})
    with pytest.raises(IllegalAction, match="no player"):
        state.apply({"type": "point", "player": "Alexandra", "target": "Zoe"})


def test_T4_accused_thief_is_out_and_takes_no_trash():
    state, _ = play_round(new_game(["a", "b", "c"]), {"a": "accuse", "b": "steal", "c": "steal"},
                          {"a": "b"})
    assert not state.in_game["b"] and state.trash["b"] == 0 and state.trash["c"] == 1


def test_T4_alibi_sends_every_accuser_out():
    state, _ = play_round(new_game(["a", "b", "c", "d"]),
                          {"a": "accuse", "b": "accuse", "c": "alibi", "d": "steal"},
                          {"a": "c", "b": "c"})
    assert state.still_in() == ("c", "d")


def test_T4_accused_accuser_changes_nothing():
    state, events = play_round(new_game(["a", "b", "c"]),
                               {"a": "accuse", "b": "accuse", "c": "steal"}, {"a": "b", "b": "a"})
    assert state.still_in() == ("a", "b", "c") and state.trash["c"] == 1
    assert [e.kind for e in events][:4] == ["pointed_at", "pointed_at", "reveal", "reveal"]


def test_T4_thieves_take_trash_in_seat_order_while_the_pile_lasts():
    state, events = play_round(new_game(["a", "b", "c"], {"trash": 2}),
                               {"a": "steal", "b": "steal", "c": "steal"})
    assert state.trash == {"a": 1, "b": 1, "c": 0}
    assert [e.kind for e in events if e.kind in ("trash", "no_trash")] == \
        ["trash", "trash", "no_trash"]


def test_T4_events_come_in_reveal_order_accusers_accused_then_the_rest():
    state, events = play_round(new_game(["a", "b", "c", "d"]),
                               {"a": "steal", "b": "alibi", "c": "accuse", "d": "steal"},
                               {"c": "d"})
    order = [(e.kind, e.data.get("player")) for e in events]
    assert order[:5] == [("pointed_at", "c"), ("reveal", "d"), ("out", "d"),
                         ("reveal", "a"), ("trash", "a")]
    assert ("reveal", "b") in order[5:]


def test_T5_last_player_in_the_game_wins():
    state, events = play_round(new_game(["a", "b"]), {"a": "accuse", "b": "steal"}, {"a": "b"})
    assert state.is_over and state.winners() == ("a",) and events[-1].kind == "winner"
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"type": "choose", "player": "a", "card": "steal"})


def test_T5_the_only_player_with_three_trash_wins():
    state = new_game(["a", "b", "c"])
    for _ in range(3):
        state, _ = play_round(state, {"a": "steal", "b": "alibi", "c": "alibi"})
    assert state.winners() == ("a",) and state.phase == "over"


def test_T5_several_with_three_trash_play_on_alone_until_one_leads():
    state = new_game(["a", "b", "c"])
    for _ in range(3):
        state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "alibi"})
    assert not state.is_over and state.playoff and state.still_in() == ("a", "b")
    assert not state.in_game["c"]
    state, _ = play_round(state, {"a": "steal", "b": "steal"})  # 4-4: still level
    assert not state.is_over
    state, _ = play_round(state, {"a": "steal", "b": "alibi"})
    assert state.winners() == ("a",)


def test_T5_playoff_ends_when_only_one_is_left():
    state = new_game(["a", "b", "c"])
    for _ in range(3):
        state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "steal"})
    assert state.playoff and state.still_in() == ("a", "b", "c")
    state, _ = play_round(state, {"a": "accuse", "b": "steal", "c": "alibi"}, {"a": "b"})
    assert not state.is_over  # a and c are level at 3
    state, _ = play_round(state, {"a": "accuse", "c": "steal"}, {"a": "c"})
    assert state.winners() == ("a",)


def test_T5_standings_put_winners_first_then_players_still_in_by_trash():
    state = new_game(["a", "b", "c", "d"])
    assert state.standings() == [(1, "a", 0), (1, "b", 0), (1, "c", 0), (1, "d", 0)]
    state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "accuse", "d": "alibi"},
                          {"c": "b"})
    assert state.standings() == [(1, "a", 1), (2, "c", 0), (2, "d", 0), (4, "b", 0)]
    state, _ = play_round(state, {"a": "steal", "c": "steal", "d": "steal"})
    state, _ = play_round(state, {"a": "steal", "c": "alibi", "d": "alibi"})
    assert state.winners() == ("a",)
    assert state.standings() == [(1, "a", 3), (2, "c", 1), (2, "d", 1), (4, "b", 0)]


def test_T6_standings_share_first_place_among_shared_winners():
    state = new_game(["a", "b", "c"], {"trash": 4})
    state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "alibi"})
    state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "steal"})
    assert state.standings() == [(1, "a", 2), (1, "b", 2), (3, "c", 0)]


def test_T2_legal_actions_let_every_player_still_in_choose_or_change_any_card():
    state = choose(new_game(["a", "b", "c"]), a="steal")
    for player in ("a", "b"):
        assert state.legal_actions(player) == [
            {"type": "choose", "player": player, "card": c} for c in CARDS]
    assert state.secrets() == ("steal",) and "steal" not in str(state.public())


def test_T3_legal_actions_name_another_player_still_in_or_nobody():
    state, _ = play_round(new_game(["a", "b", "c", "d"]),
                          {"a": "steal", "b": "steal", "c": "accuse", "d": "alibi"}, {"c": "b"})
    state = choose(state, a="accuse", c="steal")
    state = choose(state, d="alibi")
    assert state.phase == "point" and state.secrets() == ("alibi", "steal")
    assert state.legal_actions("a") == [
        {"type": "point", "player": "a", "target": t} for t in ("c", "d", None)]
    assert state.legal_actions("c") == [] and state.legal_actions("b") == []


def test_T6_empty_pile_shares_the_win_among_the_most_trash():
    state = new_game(["a", "b", "c"], {"trash": 4})
    state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "alibi"})
    state, _ = play_round(state, {"a": "steal", "b": "steal", "c": "steal"})
    assert state.trash_left == 0 and state.winners() == ("a", "b")


def test_T6_a_round_that_empties_the_pile_with_a_single_leader_ends_with_that_winner():
    state = new_game(["a", "b"], {"trash": 1})
    state, _ = play_round(state, {"a": "steal", "b": "alibi"})
    assert state.winners() == ("a",)


def _every_round(n: int):
    """Every combination of cards and targets for ``n`` players in a fresh game, as the state
    after that round with its cards and targets. The rounds are walked as a tree: each choice
    and each pointing is applied once to the state before it, shared by every round that
    begins so (``apply`` never changes the state it is given), not replayed from a new game."""
    players = [f"p{i}" for i in range(n)]

    def pointed(state, cards, accusers, targets):
        if not accusers:
            yield state, cards, targets
            return
        accuser, rest = accusers[0], accusers[1:]
        for target in [None] + [q for q in players if q != accuser]:
            after, _ = state.apply({"type": "point", "player": accuser, "target": target})
            yield from pointed(after, cards, rest, {**targets, accuser: target})

    def chosen(state, cards):
        if len(cards) == n:
            yield from pointed(state, cards, [p for p in players if cards[p] == "accuse"], {})
            return
        player = players[len(cards)]
        for card in CARDS:
            after, _ = state.apply({"type": "choose", "player": player, "card": card})
            yield from chosen(after, {**cards, player: card})

    yield from chosen(new_game(players), {})


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_T7_at_least_one_player_survives_every_round(n):
    rounds = 0
    for state, cards, targets in _every_round(n):
        rounds += 1
        assert state.round == 2 or state.phase == "over", (cards, targets)  # the round resolved
        assert state.still_in(), (cards, targets)
        assert all(state.in_game[p] for p, c in cards.items() if c == "alibi")
        for p, c in cards.items():
            if c == "accuse" and not state.in_game[p]:
                assert cards[targets[p]] == "alibi"
    assert rounds == (n + 2) ** n  # each player: steal, alibi, or accuse one of n targets


@pytest.mark.parametrize("action, message", [
    ({"type": "choose", "player": "Zoe", "card": "steal"}, "no player"),
    ({"type": "choose", "player": "a", "card": "rob"}, "no card"),
    ({"type": "choose", "player": "a"}, "needs 'card'"),
    ({"type": "choose", "card": "steal"}, "needs 'player'"),
    ({"type": "point", "player": "a", "target": "b"}, "no pointing"),
    ({"type": "dance", "player": "a"}, "unknown action"),
    ({"type": "choose", "player": 3, "card": "steal"}, "bad 'player'"),
    (["choose"], "JSON object"),
])
def test_illegal_actions_raise_a_short_message_and_change_nothing(action, message):
    state = choose(new_game(["a", "b", "c"]), a="steal")
    before = (state.public(), dict(state.choices))
    with pytest.raises(IllegalAction, match=message) as info:
        state.apply(action)
    assert len(str(info.value)) <= 63
    assert (state.public(), dict(state.choices)) == before


def test_apply_never_changes_the_state_it_was_given():
    state = new_game(["a", "b"])
    after, _ = state.apply({"type": "choose", "player": "a", "card": "steal"})
    assert state.choices == {} and after.choices == {"a": "steal"}
    assert isinstance(after, TatortTonne)
