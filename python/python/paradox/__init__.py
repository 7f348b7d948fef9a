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
`paradox.openspiel` makes any rule file an OpenSpiel game.
"""

from ._native import Bot, Game, LoadError, State, load

__all__ = ["Bot", "Game", "LoadError", "State", "load"]
