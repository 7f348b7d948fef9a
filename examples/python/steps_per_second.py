"""How fast a match steps from Python, by route: paradox's State API, the OpenSpiel adapter, and
OpenSpiel's own C++ Oh Hell through pyspiel, in one run. Random play; a step is one action
applied (a chance outcome, a decision or a joint action).

    python examples/python/steps_per_second.py rules/tantony.cards --seconds 10
"""

import argparse
import random
import time

import pyspiel

import paradox
from paradox import openspiel


def through_pyspiel(game, budget):
    """Random matches through the pyspiel API for `budget` seconds: (steps, matches)."""
    rng = random.Random(1)
    steps = matches = 0
    end = time.perf_counter() + budget
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        matches += 1
    return steps, matches


def through_state_api(game, budget):
    """Random matches through paradox's State API for `budget` seconds: (steps, matches)."""
    rng = random.Random(1)
    steps = matches = 0
    end = time.perf_counter() + budget
    while time.perf_counter() < end:
        state = game.new_state(seed=matches, log=False)
        while not state.is_over():
            seats = state.to_act()
            if state.is_simultaneous():
                state.apply_joint([(s, rng.choice(state.legal_actions(s))) for s in seats])
            else:
                state.apply(seats[0], rng.choice(state.legal_actions(seats[0])))
            steps += 1
        matches += 1
    return steps, matches


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    routes = [
        (f"paradox State API ({args.rules})", lambda: through_state_api(paradox.load(args.rules), args.seconds)),
        (f"OpenSpiel adapter ({args.rules})",
         lambda: through_pyspiel(openspiel.load_game(args.rules, seeds=1000), args.seconds)),
        ("OpenSpiel's C++ oh_hell through pyspiel", lambda: through_pyspiel(pyspiel.load_game("oh_hell"), args.seconds)),
    ]
    for name, run in routes:
        steps, matches = run()
        print(f"{name}: {steps / args.seconds:,.0f} steps/s ({matches} matches, "
              f"{steps / max(matches, 1):.0f} steps each)", flush=True)


if __name__ == "__main__":
    main()
