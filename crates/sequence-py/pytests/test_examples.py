"""The examples in examples/python run (with small arguments)."""

import os
import subprocess
import sys

import pytest


def run(repo, *args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return subprocess.run(
        [sys.executable, str(repo / "examples" / "python" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_random_agent(repo):
    pytest.importorskip("pettingzoo")
    r = run(repo, "random_agent.py", "--game", "stacks", "--players", "3", "--games", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("game ") == 2 and "rewards" in r.stdout


def test_vs_greedy_prints_a_rate_with_its_interval(repo):
    r = run(repo, "vs_greedy.py", "--games", "10", "--agent", "random")
    assert r.returncode == 0, r.stderr
    assert "random vs greedy (classic, 2 players): won" in r.stdout and "95 % interval" in r.stdout


def test_replay_record(repo, tmp_path):
    r = run(repo, "replay_record.py", "--demo")
    assert r.returncode == 0, r.stderr
    assert '"moves":' in r.stdout and "seat 0:" in r.stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sequence-record/1"')
    r = run(repo, "replay_record.py", str(bad))
    assert r.returncode == 2 and "line 1" in r.stderr


def test_benchmark_runs(repo):
    pytest.importorskip("pettingzoo")
    r = run(repo, "benchmark.py", "--seconds", "0.2")
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and r.stdout.count("\n") == 5


def test_selfplay_frozen_learns_and_reports(repo):
    r = run(repo, "selfplay_frozen.py", "--games", "40", "--refresh", "20", "--eval", "20", "--envs", "8")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("against the frozen copy") == 2
    assert "against random:" in r.stdout and "against greedy:" in r.stdout


def test_selfplay_frozen_writes_its_learning_curve(repo, tmp_path):
    r = run(repo, "selfplay_frozen.py", "--games", "40", "--refresh", "20", "--eval", "20", "--envs", "8",
            "--at", "20", "--curve", str(tmp_path))
    assert r.returncode == 0, r.stderr
    rows = (tmp_path / "learning-curve.csv").read_text().splitlines()
    assert rows[0] == "games,opponent,wins,played,rate,low,high"
    # before training, after 20 and after 40 games, against both bots
    assert [row.split(",")[:2] for row in rows[1:]] == [
        [g, o] for g in ("0", "20", "40") for o in ("random", "greedy")
    ]
    for row in rows[1:]:
        _, _, k, n, rate, lo, hi = row.split(",")
        assert int(n) >= 20 and float(lo) <= float(rate) <= float(hi)
    table = (tmp_path / "learning-curve.md").read_text()
    assert "| 40 |" in table and "vs greedy" in table
    assert (tmp_path / "learning-curve.svg").read_text().startswith("<svg")


def test_selfplay_speed_reports_games_per_second(repo):
    r = run(repo, "selfplay_speed.py", "--envs", "8", "--steps", "40", "--rounds", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("games/s") == 3
