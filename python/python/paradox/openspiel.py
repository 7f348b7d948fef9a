"""Any paradox rule file as an OpenSpiel game.

    >>> from paradox import openspiel
    >>> game = openspiel.load_game("rules/tantony.cards", params={"quota": 4})
    >>> state = game.new_initial_state()        # a pyspiel state: its first node is chance

or, once this module is imported,
``pyspiel.load_game("paradox", {"rules": "rules/tantony.cards", "params": "quota:4"})``.

How a paradox match maps onto OpenSpiel:

- **Players** are paradox's players (a player may decide for several seats, as a ghost partner).
- **Chance** is one explicit chance node at the start, with ``seeds`` equally likely outcomes
  (10,000 unless set):
  the outcome is the seed from which the engine draws every shuffle and lot of the match. No
  player is ever shown it; players learn of the cards only what the rules show them.
- **Actions** at a decision are numbered ``0..n`` in the order people are shown them (cards
  sorted as the table shows them), so the same hand gives the same numbers in every deal a player
  cannot tell apart. ``num_distinct_actions`` is ``max_actions`` (by default twice the deck and
  the seats, or the engine's bound on groups for games that choose several cards at once); a
  decision with more options raises an error naming the parameter.
- **Secret decisions** (``simultaneously`` in a rule file) make the game ``SIMULTANEOUS``: a
  player with nothing to choose there has the one action ``0`` ("nothing to choose"). With
  ``turn_based=True`` the seats choose one after another instead, none seeing the others' choices
  until all have chosen, and the game is ``SEQUENTIAL`` (what ``MCTSBot`` and ``ISMCTSBot`` need).
- **Information**: the information state string is the event log as the player may read it,
  then the table as the player sees it; the observation string is the table alone. The tensors
  are the engine's view tensor (observation) and the view plus where the player has seen each
  card land (information state: a function of what the player recalls, not all of it). All are
  made by the engine from what the player may see, never from the hidden cards.
- **Returns** are 1 for a win, -1 for a loss and 0 for a draw (``GENERAL_SUM``: several may win).
  The game is ``IMPERFECT_INFORMATION`` even when every card lies face up: the seed of the
  match's later shuffles is never shown.
- ``resample_from_infostate`` deals the cards the player cannot place afresh (the engine's own
  sampler, as its search bot uses) and redraws at random the secret choices others have made and
  not yet revealed, for ``ISMCTSBot``. The world it makes keeps no event log, so run
  ``ISMCTSBot`` with ``use_observation_string=True``.
"""

from __future__ import annotations

import os
import random
from typing import Any, Dict, List, Optional

import numpy as np
import pyspiel

from . import _native

SHORT_NAME = "paradox"

#: The engine's bound on the groups of cards one decision may offer (`MAX_GROUPS` in
#: src/engine/groups.rs), twice: each may be declared.
_GROUP_ACTIONS = 2 * 65_536

_DEFAULTS: Dict[str, Any] = {
    "rules": "",
    "params": "",
    "variant": "",
    "turn_based": False,
    "seeds": 10_000,
    "max_actions": 0,
    "max_game_length": 100_000,
}

_PASS = 0
_PASS_NAME = "(nothing to choose)"


def _game_type(dynamics) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="paradox rule file",
        dynamics=dynamics,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        # Even with every card face up: the seed of the match's later shuffles is never shown.
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
        default_loadable=False,
    )


def _parse_params(text: str) -> Dict[str, str]:
    """The ``params`` game parameter as a dict: ``"quota:4;deals:1"`` (``=`` and ``,`` would break
    OpenSpiel's game strings, so they are written ``:`` and ``;``)."""
    out = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        name, sep, value = item.partition(":")
        if not sep:
            raise ValueError(f"parameter {item!r} is not NAME:VALUE")
        out[name.strip()] = value.strip()
    return out


def _format_params(params: Optional[Dict[str, Any]]) -> str:
    def text(v: Any) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    return ";".join(f"{k}:{text(v)}" for k, v in (params or {}).items())


def _distinct(names: List[str]) -> List[str]:
    """Names made distinct, as OpenSpiel wants them: two cards of one name (a deck with twins)
    are `name` and `name (2)`, in the order they are shown."""
    seen: Dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out


class ParadoxGame(pyspiel.Game):
    """A paradox rule file as a pyspiel game (see the module's documentation)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None):
        params = {**_DEFAULTS, **(params or {})}
        if not params["rules"]:
            raise ValueError('the game parameter "rules" names no rule file')
        self.native: _native.Game = _native.load(
            params["rules"], _parse_params(params["params"]), params["variant"] or None
        )
        self.simultaneous = self.native.has_secret_choices and not params["turn_based"]
        self.seeds = int(params["seeds"])
        if self.seeds < 1:
            raise ValueError('the game parameter "seeds" must be at least 1')
        self.max_actions = int(params["max_actions"]) or self._default_max_actions()
        dynamics = (
            pyspiel.GameType.Dynamics.SIMULTANEOUS
            if self.simultaneous
            else pyspiel.GameType.Dynamics.SEQUENTIAL
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.max_actions,
            max_chance_outcomes=self.seeds,
            num_players=self.native.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=int(params["max_game_length"]),
        )
        super().__init__(_game_type(dynamics), info, params)
        self._chance = [(seed, 1.0 / self.seeds) for seed in range(self.seeds)]

    def _default_max_actions(self) -> int:
        if self.native.has_group_choices:
            return _GROUP_ACTIONS
        return 2 * (len(self.native.cards) + len(self.native.seats)) + 64

    def new_initial_state(self) -> "ParadoxState":
        return ParadoxState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ParadoxObserver":
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return ParadoxObserver(self, perfect_recall)


class ParadoxState(pyspiel.State):
    """A match of a paradox game: a chance node (the deal), then the engine's decisions."""

    def __init__(self, game: ParadoxGame, native: Optional[_native.State] = None):
        super().__init__(game)
        # Only the match is an attribute: OpenSpiel clones and pickles a Python state by its
        # attributes, and the game is reached through `get_game()`.
        self.native = native

    # -- who acts --------------------------------------------------------------------------

    def current_player(self) -> int:
        native = self.native
        if native is None:
            return pyspiel.PlayerId.CHANCE
        if native.is_over():
            return pyspiel.PlayerId.TERMINAL
        if native.is_simultaneous() and self.get_game().simultaneous:
            return pyspiel.PlayerId.SIMULTANEOUS
        return self.get_game().native.player_of(native.to_act()[0])

    def _seat_of(self, player: int) -> Optional[int]:
        """The seat `player` decides for now: the first of its seats still to act."""
        if self.native is None:
            return None
        for seat in self.native.to_act():
            if self.get_game().native.player_of(seat) == player:
                return seat
        return None

    def _shown(self, seat: int) -> List[int]:
        shown = self.native.shown_actions(seat)
        if len(shown) > self.get_game().max_actions:
            raise pyspiel.SpielError(
                f"a decision of {len(shown)} options, more than max_actions="
                f"{self.get_game().max_actions}: load the game with a larger max_actions"
            )
        return shown

    # -- actions ---------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> List[int]:
        seat = self._seat_of(player)
        if seat is None:
            return [_PASS] if self.current_player() == pyspiel.PlayerId.SIMULTANEOUS else []
        return list(range(len(self._shown(seat))))

    def chance_outcomes(self):
        return self.get_game()._chance if self.native is None else []

    def _apply_action(self, action: int) -> None:
        if self.native is None:
            self.native = self.get_game().native.new_state(seed=int(action))
            return
        seat = self.native.to_act()[0]
        self.native.apply(seat, self._shown(seat)[action])

    def _apply_actions(self, actions: List[int]) -> None:
        joint = []
        for player, action in enumerate(actions):
            seat = self._seat_of(player)
            if seat is not None:
                joint.append((seat, self._shown(seat)[action]))
        self.native.apply_joint(joint)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.native is None:
            return f"deal {action}"
        seat = self._seat_of(player)
        if seat is None:
            return _PASS_NAME
        names = _distinct([name for _, name in self.native.actions(seat)])
        if not 0 <= action < len(names):
            return f"action {action}"
        return f"{self.get_game().native.seats[seat]}: {names[action]}"

    # -- the end ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.native is not None and self.native.is_over()

    def returns(self) -> List[float]:
        if self.native is None:
            return [0.0] * self.get_game().native.players
        failure = self.native.failure()
        if failure is not None:
            raise pyspiel.SpielError(f"the match was stopped by a run-time problem: {failure}")
        return self.native.returns()

    # -- search ----------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "ParadoxState":
        """A state `player_id` cannot tell from this one, the unknown cards dealt afresh."""
        if self.native is None:
            return self.clone()
        seed = int(probability_sampler() * (1 << 62))
        world = self.native.sample(player_id, seed)
        # The engine takes back the secret choices other seats have made and not yet revealed;
        # here they choose again, at random, so that the same seats are still to choose.
        rng = random.Random(seed)
        to_act = set(self.native.to_act())
        for seat in world.to_act():
            if seat not in to_act:
                world.apply(seat, rng.choice(world.legal_actions(seat)))
        return ParadoxState(self.get_game(), world)

    def __str__(self) -> str:
        return "the deal is to come" if self.native is None else str(self.native)


class ParadoxObserver:
    """The information state (perfect recall) or the observation of one player, as OpenSpiel
    asks for it: a tensor and a string, both made by the engine from what the player may see."""

    def __init__(self, game: ParadoxGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        native = game.native
        size = native.information_tensor_size if perfect_recall else native.view_tensor_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParadoxState, player: int) -> None:
        if state.native is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            self.tensor[:] = state.native.information_tensor(player)
        else:
            self.tensor[:] = state.native.view_tensor(player)

    def string_from(self, state: ParadoxState, player: int) -> str:
        if state.native is None:
            return f"player {player}: the deal is to come"
        if self.perfect_recall:
            return state.native.information_text(player)
        return state.native.view_text(player)


class ParadoxBot(pyspiel.Bot):
    """One of paradox's own computer players (`paradox.Bot`: "default", "random", ...) as an
    OpenSpiel bot for `player`, deciding from what that player may see."""

    def __init__(self, player: int, kind: str = "default", seed: int = 0, **budget: int):
        pyspiel.Bot.__init__(self)
        self.player = player
        self.bot = _native.Bot(kind, player, seed=seed, **budget)

    def restart_at(self, state) -> None:
        pass

    def step(self, state: ParadoxState) -> int:
        seat = state._seat_of(self.player)
        if seat is None:
            return _PASS
        chosen = self.bot.choose(state.native, seat)
        return state._shown(seat).index(chosen)


pyspiel.register_game(_game_type(pyspiel.GameType.Dynamics.SEQUENTIAL), ParadoxGame)


def load_game(
    rules: "os.PathLike[str] | str",
    params: Optional[Dict[str, Any]] = None,
    variant: Optional[str] = None,
    turn_based: bool = False,
    seeds: int = _DEFAULTS["seeds"],
    max_actions: int = 0,
) -> ParadoxGame:
    """The rule file (or scenario) at `rules` as an OpenSpiel game, loaded through
    ``pyspiel.load_game("paradox", ...)``. `params` sets the rule file's parameters and `variant`
    chooses a variant; the other arguments are the game parameters the module describes. A rule
    file with problems raises ``paradox.LoadError``."""
    return pyspiel.load_game(
        SHORT_NAME,
        {
            "rules": os.path.abspath(os.fspath(rules)),
            "params": _format_params(params),
            "variant": variant or "",
            "turn_based": bool(turn_based),
            "seeds": int(seeds),
            "max_actions": int(max_actions),
        },
    )
