"""OpenSpiel's information-set MCTS against paradox's own `default` bot, on any rule file.

    python examples/python/ismcts_vs_default.py rules/costly-tricks.cards --matches 20 \
        --params chips_to_win=1

The two bots swap seats from match to match (on a game of more than two players, the `default`
bot takes every seat the ISMCTS bot does not). Prints each bot's share of wins with its 95 %
(Wilson) interval. Needs the package built (`maturin develop --release -m python/Cargo.toml`) and
open_spiel installed.
"""

import argparse
import math

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from paradox import openspiel


def wilson(wins: float, n: int, z: float = 1.96):
    """The 95 % interval of a share of `wins` in `n` (Wilson's)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(game, bots, rng):
    """One match; its returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--params", default="", help="NAME=VALUE,... for the rule file")
    parser.add_argument("--ismcts-simulations", type=int, default=200)
    parser.add_argument("--default-iterations", type=int, default=None,
                        help="the default bot's iterations per move (its own default if not set)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    params = dict(item.split("=", 1) for item in args.params.split(",") if item)
    game = openspiel.load_game(args.rules, params=params, turn_based=True)
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.ismcts_simulations,
                                random_state=rng, use_observation_string=True)
    players = game.num_players()
    budget = {} if args.default_iterations is None else {"iterations": args.default_iterations}
    wins = {"ismcts": 0.0, "default": 0.0}
    for match in range(args.matches):
        seat = match % players
        bots = [searcher if p == seat else
                openspiel.ParadoxBot(p, "default", seed=args.seed + 1000 * match, **budget)
                for p in range(players)]
        returns = play(game, bots, rng)
        winners = [p for p, r in enumerate(returns) if r > 0]
        # A shared win is shared: each winner gets its part of the match.
        for p in winners:
            wins["ismcts" if p == seat else "default"] += 1 / len(winners)
        print(f"match {match + 1}: ISMCTS as player {seat}, winners {winners}", flush=True)
    for name, won in wins.items():
        low, high = wilson(won, args.matches)
        print(f"{name}: {won:g} of {args.matches} matches, {100 * won / args.matches:.1f} % "
              f"(95 % interval {100 * low:.1f}-{100 * high:.1f})")


if __name__ == "__main__":
    main()
