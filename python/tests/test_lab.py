"""`paradox.sim` and `paradox.compare`: the command line's report, played in Rust, as a dict."""

import json
import subprocess

import pytest

import paradox
from conftest import ROOT

COSTLY = ROOT / "rules" / "costly-tricks.cards"
COIN = ROOT / "tests" / "fixtures" / "lab" / "fair-coin.cards"


def _command():
    """The `paradox` command built from this checkout (the newer of the debug and the release
    build); the tests that need it are skipped without one."""
    built = [p for p in (ROOT / "target" / "debug" / "paradox", ROOT / "target" / "release" / "paradox") if p.exists()]
    if not built:
        pytest.skip("no paradox command built in target/: run `cargo build` first")
    return max(built, key=lambda p: p.stat().st_mtime)


def _cli_json(*args):
    """What `paradox ARGS --format json` prints, read."""
    run = subprocess.run([str(_command()), *map(str, args), "--format", "json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_sim_gives_the_command_lines_report():
    report = paradox.sim(COSTLY, 40, params={"chips_to_win": 1}, seed=5, skill="greedy/random")
    assert report == _cli_json("sim", COSTLY, "--games", 40, "--set", "chips_to_win=1", "--seed", 5, "--skill", "greedy/random")
    assert report["matches"] == 40
    players = report["configurations"][0]["players"]
    assert sum(p["count"] for p in players) >= 40 - report["configurations"][0]["stopped"]


def test_compare_gives_the_command_lines_report_with_any_threads():
    configs = ["base", "variant:favour_first_seat"]
    report = paradox.compare(COIN, configs, 300, seed=11, threads=3)
    assert report == _cli_json("compare", COIN, *configs, "--games", 300, "--seed", 11, "--threads", 1)
    assert [c["label"] for c in report["configurations"]] == configs
    assert report["comparisons"][0]["differences"], "favouring the first seat changes its wins"


def test_common_settings_and_precision_are_those_of_the_command_line():
    configs = ["base", "set:trick_cost=15"]
    report = paradox.compare(COSTLY, configs, params={"chips_to_win": 1}, precision=10, max_games=300)
    cli = _cli_json("compare", COSTLY, *configs, "--set", "chips_to_win=1", "--precision", 10, "--max-games", 300)
    assert report == cli
    assert report["precision"]["asked"] == 10


def test_mistakes_raise_with_the_command_lines_words():
    with pytest.raises(ValueError, match="configuration `bas`"):
        paradox.compare(COIN, ["bas", "base"], 10)
    with pytest.raises(ValueError, match="two configurations or more"):
        paradox.compare(COIN, ["base"], 10)
    with pytest.raises(ValueError, match="--bots: unknown bot `clever`"):
        paradox.sim(COIN, 10, bots="clever")
    with pytest.raises(ValueError, match="--precision 0"):
        paradox.sim(COIN, precision=0)
    with pytest.raises(ValueError, match="engine `fast`"):
        paradox.sim(COIN, 10, engine="fast")
    with pytest.raises(paradox.LoadError) as raised:
        paradox.sim(COIN, 10, params={"no_such_parameter": 1})
    assert raised.value.problems
