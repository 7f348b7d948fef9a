"""paradox: card games written in the paradox rules language, playable from Python.

    >>> import paradox
    >>> game = paradox.load("rules/tantony.cards")
    >>> state = game.new_state(seed=7)
    >>> seat = state.to_act()[0]
    >>> state.actions(seat)[:2]          # (action, name), in the order people see them
    >>> state.apply(seat, state.actions(seat)[0][0])

`load` checks the rule file as `paradox check` does; its problems raise `LoadError`, whose
`text` is the rendered diagnostics and `problems` a list of dicts. A `State` is a match in
progress (see its methods); a `Bot` is one of the engine's computer players.
`sim` and `compare` play many matches in Rust and return the report of `paradox sim` and
`paradox compare` (`--format json`) as a dict:

    >>> report = paradox.compare("rules/costly-tricks.cards", ["base", "set:trick_cost=15"], games=200)
    >>> report["comparisons"][0]["differences"]

`paradox.openspiel` makes any rule file an OpenSpiel game.
"""

from ._native import Bot, Game, LoadError, State, compare, load, sim

__all__ = ["Bot", "Game", "LoadError", "State", "compare", "load", "sim"]
