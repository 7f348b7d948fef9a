"""Paths and small rule files the tests share."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = sorted((ROOT / "rules").glob("*.cards"))
EXAMPLES = sorted((ROOT / "examples").glob("*.cards"))

#: Parameters that make each shipped game short (one deal, one chip), for tests that play whole
#: matches with searching bots.
SHORT = {
    "anarchy": {"target": 10},
    "buddy-on-your-left": {"chips_to_win": 1},
    "costly-tricks": {"chips_to_win": 1},
    "pairadox": {"hand_size": 5},
    "tantony": {"deals": 1},
    "third-man": {"chips_to_win": 1, "board_limit": 1},
}

#: Tantony's conformance trick (examples/tantony-runt.cards), three cards each.
_DEAL = [
    ("spades", "nine", "North"),
    ("hearts", "two", "North"),
    ("diamonds", "ten", "North"),
    ("spades", "five", "East"),
    ("{east}", "{east_rank}", "East"),
    ("diamonds", "seven", "East"),
    ("spades", "queen", "South"),
    ("{south}", "{south_rank}", "South"),
    ("diamonds", "eight", "South"),
    ("hearts", "three", "West"),
    ("clubs", "six", "West"),
    ("diamonds", "jack", "West"),
]


def _scenario(east, south) -> str:
    moves = "\n".join(
        f"    move card(suit: {suit}, rank: {rank}) to hand[{seat}]"
        for suit, rank, seat in _DEAL
    ).format(east=east[0], east_rank=east[1], south=south[0], south_rank=south[1])
    return (
        f'scenario "secrecy" extends "{ROOT / "rules" / "tantony.cards"}" {{\n'
        "  replace phase choose_dealer { dealer = West }\n"
        f"  replace phase deal {{\n{moves}\n  }}\n}}\n"
    )


@pytest.fixture
def two_deals(tmp_path):
    """Two Tantony deals that differ only in cards North cannot see: East's King of spades and
    South's Four of clubs change hands. North leads, East and South can follow with the same
    cards in both (the Five and the Queen of spades)."""
    first = tmp_path / "first.cards"
    second = tmp_path / "second.cards"
    first.write_text(_scenario(("spades", "king"), ("clubs", "four")))
    second.write_text(_scenario(("clubs", "four"), ("spades", "king")))
    return first, second


#: The trick both deals play: (seat, card), North leading.
TRICK = [(0, "9 of spades"), (1, "5 of spades"), (2, "Q of spades")]
