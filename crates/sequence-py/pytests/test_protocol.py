"""A Python policy as a bot of the bot protocol: `View.from_json` gives the
seat's observation back from a protocol view, and `sequence arena` plays
`cmd:python3 -m sequence_game.protocol MODULE:NAME` games to the end."""

import io
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import sequence_game as sg
from sequence_game.protocol import PolicyBot, serve

REPO = pathlib.Path(__file__).resolve().parents[3]
CLASSIC_UNCARRIED = {520, 521}  # dead_exchanged, stuck_turns: see protocol.py


@pytest.mark.parametrize("game,players", [("classic", 2), ("classic", 4), ("classic", 6), ("stacks", 2), ("stacks", 5)])
def test_view_from_json_gives_the_seats_observation_and_moves(game, players):
    g = sg.Game(game, players=players, seed=13)
    checked = 0
    while not g.is_over:
        s = g.to_act
        v = g.view(s)
        back = sg.View.from_json(json.loads(json.dumps(v.to_json())))
        assert back.seat == s and back.to_act == s and back.game == game
        extra = set(back.legal_moves()) - set(v.legal_moves())
        assert set(v.legal_moves()) <= set(back.legal_moves())
        # a classic view JSON says a dead card was exchanged this turn, not
        # which moves that rules out: the protocol's legal moves do
        if game == "classic" and v["dead_exchanged"]:
            assert {m.kind for m in extra} <= {"dead"}
        else:
            assert not extra
        a, b = back.observation(), g.observe(s)
        differ = set(np.flatnonzero(a != b))
        assert differ <= (CLASSIC_UNCARRIED if game == "classic" else set()), differ
        checked += 1
        g.play(g.random_move())
    assert checked > 20


def test_view_from_json_refuses_what_is_not_a_view():
    with pytest.raises(sg.NotationError) as e:
        sg.View.from_json({"game": "classic", "players": 2})
    assert e.value.code == "view.json"
    with pytest.raises(sg.NotationError):
        sg.View.from_json({"game": "stacks", "seat": 0})


def first_legal(obs, mask):
    assert obs.dtype == np.uint8 and mask.dtype == np.int8
    return int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize("game,players", [("classic", 2), ("stacks", 3)])
def test_a_policy_bot_plays_whole_games(game, players):
    g = sg.Game(game, players=players, seed=3)
    bot = PolicyBot(first_legal)
    while not g.is_over:
        m = bot.choose(g.view(g.to_act))
        g.play(m)
    assert sg.verify(g.record())["moves"] == g.ply


def test_serve_speaks_the_protocol():
    g = sg.Game("classic", seed=2)
    v = g.view(g.to_act).to_json()
    lines = [
        {"type": "hello", "protocol": "sequence-bot/1", "game": "classic", "seed": 7},
        {"type": "move", "time_ms": 5000, "view": v, "legal_moves": v["legal_moves"]},
        {"type": "game_over", "view": v},
        {"type": "quit"},
    ]
    out = io.StringIO()
    serve(first_legal, stdin=io.StringIO("".join(json.dumps(x) + "\n" for x in lines)), stdout=out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert replies[0]["type"] == "hello"
    assert replies[1] == {"type": "move", "move": v["legal_moves"][-1]} or replies[1]["move"] in v["legal_moves"]
    assert len(replies) == 2


def sequence_binary():
    for p in (os.environ.get("SEQUENCE_BIN"), REPO / "target" / "debug" / "sequence", REPO / "target" / "release" / "sequence"):
        if p and pathlib.Path(p).is_file():
            return str(p)
    return None


@pytest.mark.parametrize("game,players,others", [("classic", 2, ["random"]), ("stacks", 3, ["random", "greedy"])])
def test_sequence_arena_seats_a_python_policy(tmp_path, game, players, others):
    exe = sequence_binary()
    if exe is None:
        pytest.skip("no sequence binary (scripts/test.sh builds target/debug/sequence first; or set SEQUENCE_BIN)")
    (tmp_path / "agent.py").write_text(
        "import numpy as np\n"
        "def policy(obs, mask):\n"
        "    return int(np.flatnonzero(mask)[-1])\n"
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path)] + [p for p in sys.path if p])
    bots = ",".join([f"cmd:{sys.executable} -m sequence_game.protocol agent:policy"] + others)
    r = subprocess.run(
        [exe, "arena", "--game", game, "--players", str(players), "--bots", bots, "--games", "3",
         "--format", "json", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert r.returncode == 0, r.stderr
    assert "crashed" not in r.stderr and "illegal" not in r.stderr, r.stderr
    result = json.loads(r.stdout.strip().splitlines()[-1])
    me = result["bots"][0]
    assert result["games"] == 3 and me["games"] == 3
    assert me["wins"] + me["draws"] + me["losses"] == 3


def test_arena_places_a_policy_on_the_ladder():
    from sequence_game.arena import arena

    rng = np.random.default_rng(0)

    def uniform(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    assert sg.LADDER["random"] == 1000 and sg.LADDER["level:5"] > sg.LADDER["level:1"]
    r = arena(uniform, "random", pairs=60, seed=1)
    assert r["games"] == 120 and r["wins"] + r["draws"] + r["losses"] == 120
    lo, hi = r["elo_interval"]
    assert lo < 1000 < hi  # a uniform policy is the random bot
    g = arena(uniform, "level:3", pairs=10, seed=1)
    assert g["elo"] < sg.LADDER["level:3"] and g["score"] < 0.5
    with pytest.raises(ValueError):
        arena(uniform, "greedy", pairs=1)
    assert arena(uniform, "greedy", pairs=2, anchor=1700)["opponent_elo"] == 1700
