"""The OpenSpiel adapter: OpenSpiel's own checks on every shipped game, the game type, secrecy
of the information states, and OpenSpiel's search bots playing through it."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed: the adapter's tests are skipped")

import paradox  # noqa: E402
from paradox import openspiel  # noqa: E402
from conftest import EXAMPLES, ROOT, RULES, SHORT, TRICK  # noqa: E402

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

TANTONY = ROOT / "rules" / "tantony.cards"
THIRD_MAN = ROOT / "rules" / "third-man.cards"

@pytest.mark.parametrize("path", RULES + EXAMPLES, ids=lambda p: p.stem)
def test_random_sim_test_passes(path):
    game = openspiel.load_game(path, params=SHORT.get(path.stem), seeds=100)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_type_follows_the_rule_file():
    tantony = openspiel.load_game(TANTONY)
    kind = tantony.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert tantony.num_players() == 4 and tantony.max_chance_outcomes() == 10_000
    assert (tantony.min_utility(), tantony.max_utility()) == (-1.0, 1.0)
    third_man = openspiel.load_game(THIRD_MAN)
    assert third_man.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    turns = openspiel.load_game(THIRD_MAN, turn_based=True)
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    buddy = openspiel.load_game(ROOT / "rules" / "buddy-on-your-left.cards")
    assert buddy.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION, (
        "every card face up, but the seed of later shuffles hidden"
    )


def test_pyspiel_loads_it_by_name_and_reports_rule_file_problems():
    game = pyspiel.load_game("paradox", {"rules": str(TANTONY), "params": "deals:1"})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10_000
    state.apply_action(42)
    assert state.current_player() in range(4)
    assert all(":" in state.action_to_string(a) for a in state.legal_actions())
    with pytest.raises(paradox.LoadError, match="no parameter"):
        openspiel.load_game(TANTONY, params={"nope": 1})


def test_a_simultaneous_node_takes_a_joint_action():
    game = openspiel.load_game(THIRD_MAN)
    state = game.new_initial_state()
    state.apply_action(3)
    while state.current_player() != pyspiel.PlayerId.SIMULTANEOUS:
        state.apply_action(state.legal_actions()[0])
    joint = [state.legal_actions(p)[0] for p in range(game.num_players())]
    state.apply_actions(joint)
    assert not state.is_chance_node()


def _states_after_trick(paths):
    """The adapter's states of two deals, after each play of the shared trick."""
    games = [openspiel.load_game(p) for p in paths]
    states = [g.new_initial_state() for g in games]
    for s in states:
        s.apply_action(5)
    yield states
    for seat, card in TRICK:
        for s in states:
            assert s.current_player() == seat
            [action] = [a for a in s.legal_actions() if s.action_to_string(a).endswith(": " + card)]
            s.apply_action(action)
        yield states


def test_information_states_show_only_what_the_player_may_see(two_deals):
    for first, second in _states_after_trick(two_deals):
        assert str(first) != str(second), "the deals differ"
        assert first.information_state_string(0) == second.information_state_string(0)
        assert first.observation_string(0) == second.observation_string(0)
        np.testing.assert_array_equal(first.information_state_tensor(0), second.information_state_tensor(0))
        np.testing.assert_array_equal(first.observation_tensor(0), second.observation_tensor(0))
        # East sees its own hand, which differs: the comparison can fail.
        assert first.information_state_string(1) != second.information_state_string(1)
        assert first.observation_tensor(1) != second.observation_tensor(1)


def _play(game, bots, seed):
    """Plays one match: `bots[p]` is an OpenSpiel bot or None (uniform random)."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        bot = bots[state.current_player()]
        state.apply_action(bot.step(state) if bot else int(rng.choice(state.legal_actions())))
    return state.returns()


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.stem)
def test_mcts_and_ismcts_play_every_shipped_game(path):
    game = openspiel.load_game(path, params=SHORT[path.stem], turn_based=True, seeds=100)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    seat_mcts = mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=evaluator, random_state=rng)
    second = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2, max_simulations=3, random_state=rng, use_observation_string=True
    )
    others = [None] * (game.num_players() - 2)
    returns = _play(game, [seat_mcts, second] + others, seed=2)
    assert len(returns) == game.num_players() and set(returns) <= {-1.0, 0.0, 1.0}


def test_paradox_bots_play_as_openspiel_bots():
    game = openspiel.load_game(ROOT / "rules" / "costly-tricks.cards", params=SHORT["costly-tricks"], seeds=10)
    bots = [openspiel.ParadoxBot(0, "default", seed=1, iterations=30), openspiel.ParadoxBot(1, "random", seed=2)]
    returns = _play(game, bots, seed=3)
    assert sorted(returns) == [-1.0, 1.0]
