"""Fuzzing the bindings with random calls and random arguments: every
refusal is a Python exception of the API's (or a TypeError/OverflowError
for an argument of the wrong type), the game is unchanged after a
refusal, and the interpreter never crashes."""

import random

import numpy as np

import sequence_game as sg

ALLOWED = (sg.SequenceError, TypeError, OverflowError, KeyError)

JUNK = [
    None, -1, 0, 1, 2, 7, 255, 256, 2**63, -(2**63), 10**30, 3.5, float("nan"), "", "x", "7H",
    "classic", "stacks", b"\x00\xff", [], [1, 2], {}, {"seat": 0}, {"seat": -1, "pass": True},
    {"card": "JD", "at": "e5"}, {"card": "JS", "remove": "e5"}, {"dead": "7H"}, {"discard": "B1"},
    {"play": "STEAL-CHIP", "target": 9, "colour": "green"}, {"play": "B1", "to": "red-z"},
    {"end": True}, {"pass": False}, {"seat": 300, "at": "k11", "card": "ZZ"}, {"a": {"b": [1, {"c": None}]}},
    {1: 2}, object(), np.int64(3), np.array([1, 2]), "{", '{"format": "sequence-record/1"}',
]


def junk(rng):
    return rng.choice(JUNK)


def snapshot(g):
    try:
        return g.record_json()
    except sg.UsageError:
        return str(g) + repr(g.legal_moves())


def test_random_calls_never_crash_and_refusals_change_nothing():
    rng = random.Random(1234)
    games = [sg.Game("classic", players=3, seed=1), sg.Game("stacks", players=4, seed=2)]
    games.append(games[0].view(0).determinize(5))
    methods = [
        ("play", 1), ("play", 2), ("apply", 1), ("check", 1), ("check", 2), ("parse_move", 1),
        ("play_action", 1), ("move_of_action", 1), ("action_of", 1), ("observe", 1),
        ("env_observation", 1), ("view", 1), ("side_of", 1), ("reward", 1), ("action_text", 1),
    ]
    calls = errors = 0
    for i in range(6000):
        g = rng.choice(games)
        if g.is_over or rng.random() < 0.02:
            g.playout(rng.randrange(0, 5))
        if g.is_over:
            games[games.index(g)] = sg.Game(g.game, players=g.players, seed=i)
            continue
        name, nargs = rng.choice(methods)
        args = [junk(rng) for _ in range(nargs)]
        if rng.random() < 0.3 and name in ("play", "check", "apply", "action_of"):
            args[0] = rng.choice(g.legal_moves() + [rng.choice(games).random_move() or junk(rng)])
        before = snapshot(g)
        calls += 1
        try:
            getattr(g, name)(*args)
        except ALLOWED:
            errors += 1
            assert snapshot(g) == before, (name, args)
        # Legal play goes on between junk calls.
        if rng.random() < 0.2 and not g.is_over:
            g.play(g.random_move())
    assert calls > 5000 and errors > calls // 3


def test_module_functions_and_classes_refuse_junk():
    rng = random.Random(7)
    for _ in range(800):
        f = rng.choice([sg.verify, sg.replay, sg.Game.from_record, sg.action_text])
        try:
            f(junk(rng))
        except ALLOWED:
            pass
    for _ in range(300):
        kw = {k: junk(rng) for k in rng.sample(["game", "players", "teams", "options", "seed"], 3)}
        try:
            sg.Game(**kw)
        except ALLOWED:
            pass
        try:
            sg.Bot(junk(rng), game=rng.choice(["classic", "stacks", junk(rng)]), seed=rng.choice([0, -1, 5]))
        except ALLOWED:
            pass
        try:
            sg.VecEnv(game=rng.choice(["classic", "stacks"]), num_envs=rng.choice([1, 2, 0, -1, junk(rng)]), players=rng.choice([2, 3, 5, junk(rng)]))
        except ALLOWED:
            pass
    env = sg.VecEnv("classic", num_envs=2, seed=0)
    for _ in range(200):
        try:
            env.step(rng.choice([junk(rng), [junk(rng), junk(rng)], np.array([rng.randrange(-5, 500)] * 2)]))
        except ALLOWED:
            pass
    # Still usable.
    env.step(env.random_actions())
    assert sg.Game().playout() > 0
