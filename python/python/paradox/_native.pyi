"""Type stubs of the compiled part of `paradox` (the Rust engine's State API)."""

from os import PathLike
from typing import Any, Dict, List, Optional, Tuple, Union

class LoadError(Exception):
    """A rule file that could not be loaded."""

    text: str
    """The diagnostics as `paradox check` prints them (plain text)."""
    problems: List[Dict[str, Any]]
    """Each problem: `file`, `code`, `message`, `label`, `help` (or None), `line` and `column`
    (from 1), `start` and `end` (byte offsets into the file)."""

def load(
    path: Union[str, PathLike[str]],
    params: Optional[Dict[str, Union[int, bool, str]]] = None,
    variant: Optional[str] = None,
) -> Game:
    """Loads and checks a rule file or scenario. `params` sets parameters as `--set NAME=VALUE`
    does; `variant` chooses a named variant. Raises `LoadError` with the diagnostics."""

def sim(
    path: Union[str, PathLike[str]],
    games: int = 100,
    *,
    params: Optional[Dict[str, Union[int, bool, str]]] = None,
    variant: Optional[str] = None,
    seed: int = 1,
    bots: str = "random",
    skill: Optional[str] = None,
    precision: Optional[float] = None,
    max_games: int = 100_000,
    engine: str = "auto",
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays `games` matches of one configuration in Rust, on every core (or `threads`), and
    returns the report `paradox sim --format json` prints for the same arguments: every figure
    with its 95 % interval. Match `i` is played from seed `seed + i`; `bots` names one kind of
    bot or one per player ("default,random"); `skill="default/random"` also measures skill;
    `precision` (percentage points) plays until the figures are that precise instead of
    `games`, at most `max_games`; `engine` is "auto", "compiled" or "interpreted". The same
    arguments give the same report with any number of threads. Raises `LoadError` for a rule
    file with problems, `ValueError` for a mistake in the arguments."""

def compare(
    path: Union[str, PathLike[str]],
    configs: List[str],
    games: int = 1000,
    *,
    params: Optional[Dict[str, Union[int, bool, str]]] = None,
    variant: Optional[str] = None,
    seed: int = 1,
    bots: str = "random",
    skill: Optional[str] = None,
    precision: Optional[float] = None,
    max_games: int = 100_000,
    engine: str = "auto",
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays two or more configurations of a rule file from the same seeds and returns the
    report `paradox compare --format json` prints: each configuration's figures and, for each
    two, which differences are significant. A configuration is "base", "variant:NAME",
    "set:NAME=VALUE,NAME=VALUE", or a variant and settings joined by "+"; `params` and
    `variant` apply to every configuration first. The other arguments are those of `sim`."""

class Game:
    """A checked rule file (or scenario), ready to play. Pickles as how it was loaded."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> int:
        """How many players (each deciding for one seat or more)."""
    @property
    def seats(self) -> List[str]:
        """The seats' names, by seat number."""
    @property
    def cards(self) -> List[str]:
        """The cards' names, by card number."""
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def variants(self) -> List[str]: ...
    @property
    def params(self) -> List[Tuple[str, str]]:
        """Each parameter with its value in this game, as text."""
    @property
    def has_secret_choices(self) -> bool:
        """Whether some decision is made by several seats at once, in secret."""
    @property
    def has_group_choices(self) -> bool:
        """Whether some decision chooses several cards at once."""
    @property
    def view_tensor_size(self) -> int: ...
    @property
    def information_tensor_size(self) -> int: ...
    def player_of(self, seat: int) -> int:
        """The player who decides for `seat`."""
    def seats_of(self, player: int) -> List[int]:
        """The seats `player` decides for."""
    def new_state(self, seed: int = 0, log: bool = True) -> State:
        """Starts a match: the same seed and actions always play the same match. With
        `log=False` no event log is kept (faster; `log_for` and `information_*` then see only
        the present)."""
    def restore(self, saved: str) -> State:
        """Restores a state saved with `State.save()`; a damaged or foreign save raises
        `ValueError`."""

class State:
    """A match in progress. Seats and players are numbered from 0; an action is a number among
    its seat's legal actions now. Chance never waits on anyone: it is drawn inside the state
    from its seed. Pickles as its save."""

    @property
    def game(self) -> Game: ...
    @property
    def decisions(self) -> int:
        """How many decisions the match has seen."""
    @property
    def work(self) -> int:
        """The work done so far (statements and evaluation steps), the same on every run."""
    def to_act(self) -> List[int]:
        """The seats to decide now: one in the open, several deciding at once in secret (those
        still to choose), none when the match is over."""
    def is_simultaneous(self) -> bool:
        """Whether the seats to act decide at once, in secret (see `apply_joint`)."""
    def current_seat(self) -> Optional[int]:
        """The one seat to decide now in the open, or None."""
    def is_over(self) -> bool:
        """Whether the match has ended (or was stopped by a run-time problem: `failure`)."""
    def failure(self) -> Optional[str]:
        """The run-time problem that stopped the match, if one did."""
    def returns(self) -> List[float]:
        """Each player's return: 1 win, -1 loss, 0 draw; all 0 until the end."""
    def winners(self) -> List[int]: ...
    def standings(self) -> List[Tuple[str, int]]:
        """The result's key for each seat or side (`chips`, `score`) as the match stands."""
    def legal_actions(self, seat: int) -> List[int]:
        """The legal actions of `seat`, `0..n` (empty when it is not to decide)."""
    def shown_actions(self, seat: int) -> List[int]:
        """The legal actions in the order people are shown them (cards sorted)."""
    def action_name(self, seat: int, action: int) -> str:
        """How a person names an action: "red 5", "give to West"."""
    def actions(self, seat: int) -> List[Tuple[int, str]]:
        """The legal actions with their names, in the order people are shown them."""
    def apply(self, seat: int, action: int) -> None:
        """Makes `seat`'s choice and plays on; `ValueError` if refused (state unchanged)."""
    def apply_joint(self, actions: List[Tuple[int, int]]) -> None:
        """The choices of several seats deciding at once, `[(seat, action), ...]`, all checked
        before any is made."""
    def view_text(self, player: Optional[int] = None) -> str:
        """The position as `player` may see it, as text; None shows everything (a referee's)."""
    def view_tensor(self, player: int) -> List[float]:
        """The position as `player` may see it, as `Game.view_tensor_size` numbers."""
    def information_text(self, player: int) -> str:
        """The event log as `player` may read it, then the view."""
    def information_tensor(self, player: int) -> List[float]:
        """The view tensor, then where the player has seen each card land."""
    def log_for(self, player: int) -> List[str]:
        """The event log as `player` may read it."""
    def status(self) -> List[str]:
        """The rule file's `show` lines as the match stands."""
    def clone(self) -> State:
        """A copy that plays on apart from this one."""
    def sample(self, player: int, seed: int) -> State:
        """A whole match `player` cannot tell from this one: the cards it cannot place dealt
        afresh, chance reseeded from `seed`. It keeps no event log."""
    def save(self, sealed: bool = False) -> str:
        """The state as JSON text for `Game.restore`; `sealed=True` leaves out secret choices
        not yet revealed (a save players may read)."""

class Bot:
    """One of the engine's computer players, for one player: `kind` is "default" (the search
    the `paradox` command plays; "mcts" is the same), "random" or "solver". Seeded as `paradox
    trace --seed SEED` seats it. A search's budget per decision: `iterations`, `work`."""

    def __init__(
        self,
        kind: str,
        player: int,
        seed: int = 0,
        iterations: Optional[int] = None,
        work: Optional[int] = None,
    ) -> None: ...
    @property
    def player(self) -> int: ...
    def choose(self, state: State, seat: int) -> Optional[int]:
        """An action for `seat` (a seat of this bot's player) from what the player may see;
        None when the seat has nothing to choose."""
