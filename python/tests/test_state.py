"""The State API: loading and its errors, playing, views, saving and the bots."""

import copy
import pickle

import pytest

import paradox
from conftest import EXAMPLES, ROOT, RULES, SHORT, TRICK

TANTONY = ROOT / "rules" / "tantony.cards"
THIRD_MAN = ROOT / "rules" / "third-man.cards"


def play_random(state, seed=0, limit=20_000):
    """Plays `state` to its end with random bots; the number of decisions made."""
    game = state.game
    bots = [paradox.Bot("random", p, seed=seed) for p in range(game.players)]
    for step in range(limit):
        if state.is_over():
            return step
        seats = state.to_act()
        choices = [(s, bots[game.player_of(s)].choose(state, s)) for s in seats]
        if state.is_simultaneous():
            state.apply_joint(choices)
        else:
            state.apply(*choices[0])
    raise AssertionError(f"no end after {limit} decisions")


# -- loading --------------------------------------------------------------------------------


def test_an_unknown_parameter_is_a_load_error_with_text_and_problems():
    with pytest.raises(paradox.LoadError) as caught:
        paradox.load(TANTONY, params={"quotta": 4})
    error = caught.value
    assert "no parameter `quotta`" in error.text
    assert "quota" in error.text, "the help names the parameters"
    [problem] = error.problems
    assert problem["message"] == "no parameter `quotta`"
    assert problem["file"] == "command line"
    assert problem["code"].startswith("paradox::E")
    assert (problem["line"], problem["column"]) == (1, 7)
    assert "quota" in problem["help"]


def test_a_syntax_error_points_at_its_line(tmp_path):
    broken = tmp_path / "broken.cards"
    broken.write_text('game "Broken"\n\nseats North South\nzone hand per seat see: owner\n@@@\n')
    with pytest.raises(paradox.LoadError) as caught:
        paradox.load(broken)
    problems = caught.value.problems
    assert problems and all(p["file"] == str(broken) for p in problems)
    assert any(p["line"] >= 3 for p in problems)
    assert str(broken) in caught.value.text


def test_a_missing_file_and_an_unknown_variant_are_load_errors(tmp_path):
    with pytest.raises(paradox.LoadError, match="cannot read"):
        paradox.load(tmp_path / "none.cards")
    with pytest.raises(paradox.LoadError) as caught:
        paradox.load(TANTONY, variant="no_such_variant")
    assert caught.value.problems[0]["message"] == "no variant `no_such_variant`"


def test_parameters_and_a_bad_value_of_one():
    game = paradox.load(TANTONY, params={"quota": 5, "high_court_values": True})
    assert ("quota", "5") in game.params and ("high_court_values", "true") in game.params
    with pytest.raises(paradox.LoadError):
        paradox.load(TANTONY, params={"quota": 99})


# -- playing --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_every_game_plays_to_an_end_with_returns(path):
    game = paradox.load(path, params=SHORT[path.stem])
    state = game.new_state(seed=3)
    assert play_random(state) > 0
    assert state.failure() is None
    returns = state.returns()
    assert len(returns) == game.players and set(returns) <= {-1.0, 0.0, 1.0}
    assert [p for p, r in enumerate(returns) if r == 1.0] == state.winners()
    assert state.to_act() == [] and state.legal_actions(0) == []


def test_the_same_seed_and_actions_play_the_same_match():
    game = paradox.load(TANTONY, params=SHORT["tantony"])
    first, second = game.new_state(seed=11), game.new_state(seed=11)
    play_random(first, seed=5)
    play_random(second, seed=5)
    assert first.view_text() == second.view_text()
    assert first.log_for(0) == second.log_for(0)
    other = game.new_state(seed=12)
    assert other.view_text() != game.new_state(seed=11).view_text()


def test_actions_have_names_and_a_refused_action_changes_nothing():
    state = paradox.load(TANTONY).new_state(seed=7)
    [seat] = state.to_act()
    assert state.current_seat() == seat and not state.is_simultaneous()
    named = state.actions(seat)
    assert sorted(a for a, _ in named) == state.legal_actions(seat)
    assert all(" of " in name for _, name in named)
    assert state.action_name(seat, named[0][0]) == named[0][1]
    before = state.save()
    other = (seat + 1) % 4
    with pytest.raises(ValueError, match="not .*turn"):
        state.apply(other, 0)
    with pytest.raises(ValueError, match="no action 99"):
        state.apply(seat, 99)
    assert state.save() == before
    state.apply(seat, named[0][0])
    assert state.decisions == 1 and state.to_act() != [seat]


def test_secret_choices_are_a_joint_action():
    game = paradox.load(THIRD_MAN)
    assert game.has_secret_choices
    state = game.new_state(seed=1)
    while not state.is_simultaneous():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seats = state.to_act()
    assert len(seats) > 1 and state.current_seat() is None
    before = state.save()
    with pytest.raises(ValueError):
        state.apply_joint([(seats[0], 0), (seats[0], 0)])
    with pytest.raises(ValueError):
        state.apply_joint([(s, 10_000) for s in seats])
    assert state.save() == before, "a refused joint action changes nothing"
    state.apply_joint([(s, 0) for s in seats])
    assert state.decisions > 0 and state.to_act() != seats


def test_clones_and_copies_play_on_apart():
    state = paradox.load(TANTONY).new_state(seed=2)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        seat = twin.to_act()[0]
        twin.apply(seat, 0)
        assert twin.decisions == 1 and state.decisions == 0


def test_save_restore_and_pickle_give_the_same_state():
    game = paradox.load(TANTONY)
    state = game.new_state(seed=4)
    for _ in range(6):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    restored = game.restore(state.save())
    assert restored.view_text() == state.view_text()
    assert restored.information_text(2) == state.information_text(2)
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled.view_text() == state.view_text()
    assert pickle.loads(pickle.dumps(game)).params == game.params
    with pytest.raises(ValueError, match="not a saved state"):
        game.restore("{")
    with pytest.raises(ValueError, match="does not fit"):
        paradox.load(THIRD_MAN).restore(state.save())


def test_views_show_a_player_its_own_hand_and_only_counts_of_others():
    game = paradox.load(TANTONY)
    state = game.new_state(seed=7)
    north = state.view_text(0)
    assert "hand[North]: [" in north and "hand[East]: 13 cards" in north
    assert "hand[East]: [" in state.view_text(), "a referee sees everything"
    assert len(state.view_tensor(0)) == game.view_tensor_size
    assert len(state.information_tensor(0)) == game.information_tensor_size
    assert state.view_tensor(0) != state.view_tensor(1)
    with pytest.raises(IndexError):
        state.view_text(4)


def test_a_sampled_world_looks_the_same_to_its_player():
    state = paradox.load(TANTONY).new_state(seed=9)
    world = state.sample(0, seed=1)
    assert world.view_text(0) == state.view_text(0)
    assert world.view_tensor(0) == state.view_tensor(0)
    assert world.view_text() != state.view_text(), "the hidden cards were dealt afresh"


# -- secrecy --------------------------------------------------------------------------------


def test_two_deals_that_differ_only_in_hidden_cards_look_the_same_to_north(two_deals):
    first, second = (paradox.load(path).new_state(seed=5) for path in two_deals)
    assert first.view_text() != second.view_text(), "the deals differ"
    for seat, card in [(None, None)] + TRICK:
        if seat is not None:
            for state in (first, second):
                [action] = [a for a, name in state.actions(seat) if name == card]
                state.apply(seat, action)
        assert first.information_text(0) == second.information_text(0)
        assert first.information_tensor(0) == second.information_tensor(0)
        assert first.view_text(0) == second.view_text(0)
        # The test can tell two views apart: East and South hold the cards that differ.
        assert first.information_text(1) != second.information_text(1)
        assert first.information_tensor(2) != second.information_tensor(2)


# -- bots -----------------------------------------------------------------------------------


def test_bots_choose_legal_actions_the_same_way_from_a_seed():
    game = paradox.load(TANTONY)
    state = game.new_state(seed=3)
    seat = state.to_act()[0]
    player = game.player_of(seat)
    search = paradox.Bot("default", player, seed=1, iterations=50)
    assert search.choose(state, seat) in state.legal_actions(seat)
    assert search.choose(state, seat) == paradox.Bot("default", player, seed=1, iterations=50).choose(state, seat)
    random_picks = {paradox.Bot("random", player, seed=s).choose(state, seat) for s in range(20)}
    assert len(random_picks) > 1
    other = paradox.Bot("random", (player + 1) % game.players)
    assert other.choose(state, seat) is None, "a bot decides only for its own player's seats"
    with pytest.raises(ValueError, match="unknown bot"):
        paradox.Bot("clever", 0)
    with pytest.raises(ValueError, match="no budget"):
        paradox.Bot("random", 0, iterations=5)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_loads_and_starts(path):
    game = paradox.load(path)
    state = game.new_state(seed=1)
    assert state.is_over() or state.to_act()


def test_a_game_says_whether_it_has_secret_or_group_choices():
    tantony, third_man = paradox.load(TANTONY), paradox.load(THIRD_MAN)
    fishing = paradox.load(ROOT / "examples" / "fishing.cards")
    assert (tantony.has_secret_choices, tantony.has_group_choices) == (False, False)
    assert third_man.has_secret_choices and not third_man.has_group_choices
    assert fishing.has_group_choices
    assert tantony.seats == ["North", "East", "South", "West"] and tantony.players == 4
    assert tantony.seats_of(1) == [1] and tantony.player_of(3) == 3
    costly = paradox.load(ROOT / "rules" / "costly-tricks.cards")
    assert costly.players == 2 and sorted(costly.seats_of(0) + costly.seats_of(1)) == list(range(len(costly.seats)))
    assert len(costly.seats_of(0)) == 2, "each player decides for a ghost partner too"
