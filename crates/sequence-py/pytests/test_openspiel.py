"""Both games as OpenSpiel games (sequence_game.openspiel, docs/python.md
"OpenSpiel"): OpenSpiel's own consistency checks, serialization, the
shuffle's chance nodes, observations from what a seat may see only, and
OpenSpiel's ISMCTS and RL environment against the package's bots."""

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import sequence_game as sg  # noqa: E402
from sequence_game import openspiel as so  # noqa: E402
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

TABLES = [
    (so.CLASSIC, {"players": 2}),
    (so.CLASSIC, {"players": 3}),
    (so.CLASSIC, {"players": 4}),
    (so.CLASSIC, {"players": 6, "teams": 3}),
    (so.CLASSIC, {"players": 12}),
    (so.STACKS, {"players": 2}),
    (so.STACKS, {"players": 4}),
    (so.STACKS, {"players": 6}),
]


def dealt(name, params, seed):
    game = pyspiel.load_game(name, params)
    return game, so.deal(game.new_initial_state(), seed)


def play_random(state, rng, moves):
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(256)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name,params", TABLES)
def test_openspiel_random_sim_test_passes_with_serialization(name, params):
    # OpenSpiel's own API consistency checks: legal actions, tensors and
    # strings for every player at every state, returns, clone, and
    # serialize/deserialize at every step.
    game = pyspiel.load_game(name, dict(params, max_moves=400))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_info_types_and_refused_tables():
    g = pyspiel.load_game(so.CLASSIC, {"players": 4})
    assert g.num_players() == 4 and g.num_distinct_actions() == sg.CLASSIC_ACTIONS == 405
    assert g.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM  # 2 teams of 2
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert g.observation_tensor_size() == 525 and g.information_state_tensor_size() == 525 + 4 * 52
    assert g.max_chance_outcomes() == 256
    three = pyspiel.load_game(so.CLASSIC, {"players": 3})
    assert three.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    st = pyspiel.load_game(so.STACKS, {"players": 6})
    assert st.num_distinct_actions() == sg.STACKS_ACTIONS == 252
    assert st.information_state_tensor_size() == 419 + 6 * 17
    # a table the rules refuse names the rule (C3, S1)
    with pytest.raises(sg.SetupError) as e:
        pyspiel.load_game(so.CLASSIC, {"players": 5})
    assert e.value.code == "C3.players"
    with pytest.raises(sg.SetupError) as e:
        pyspiel.load_game(so.STACKS, {"players": 7})
    assert e.value.code == "S1.players"
    with pytest.raises(sg.SetupError) as e:
        pyspiel.load_game(so.STACKS, {"players": 4, "teams": 2})
    assert e.value.code == "S1.teams"
    with pytest.raises(sg.UsageError) as e:
        pyspiel.load_game(so.CLASSIC, {"max_moves": 0})
    assert e.value.code == "env.max_moves"


@pytest.mark.parametrize("kind,name", [("classic", so.CLASSIC), ("stacks", so.STACKS)])
def test_the_shuffle_chance_nodes_deal_the_engines_game_of_that_seed(kind, name):
    game = pyspiel.load_game(name, {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    seed = 0x0123456789ABCDEF
    so.deal(state, seed)
    assert not state.is_chance_node() and len(state.history()) == so.SEED_BYTES
    ref = sg.Game(kind, players=3, seed=seed)
    assert state.current_player() == ref.to_act
    for seat in range(3):
        assert np.array_equal(state.observation_tensor(seat), ref.observe(seat).astype(np.float32))
    # the same moves keep them together, draws and reshuffles included
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        a = int(rng.choice(state.legal_actions()))
        assert a in ref.legal_actions()
        state.apply_action(a)
        ref.play_action(a)
    assert ref.is_over and state.returns() == [ref.reward(s) for s in range(3)]


@pytest.mark.parametrize("name,params", [(so.CLASSIC, {"players": 2}), (so.STACKS, {"players": 3})])
def test_serialized_pickled_and_cloned_states_play_on_identically(name, params):
    game, state = dealt(name, params, 77)
    play_random(state, np.random.default_rng(0), 40)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, copies = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    others = [copies, pickle.loads(pickle.dumps(state)), state.clone(), game.deserialize_state(state.serialize())]
    # replaying the history (the seed's bytes, then the moves) gives the same state
    replayed = game.new_initial_state()
    for a in state.history():
        replayed.apply_action(a)
    others.append(replayed)
    rng = np.random.default_rng(5)
    for _ in range(60):
        if state.is_terminal():
            break
        a = int(rng.choice(state.legal_actions()))
        for s in [state] + others:
            s.apply_action(a)
    for s in others:
        assert str(s) == str(state)  # every hand, the board, the draw pile's size
        assert s.information_state_string(0) == state.information_state_string(0)
        assert s.information_state_tensor(1) == state.information_state_tensor(1)


@pytest.mark.parametrize("name,params", [(so.CLASSIC, {"players": 2}), (so.CLASSIC, {"players": 4}), (so.STACKS, {"players": 3})])
def test_a_seat_sees_nothing_hidden_in_observations_or_information_states(name, params):
    # Redeal what a seat cannot see (other hands, the draw pile's order):
    # its observation and information state, strings and tensors, stay the
    # same, while the states differ (another seat's view changes).
    game, state = dealt(name, params, 4242)
    rng = np.random.default_rng(3)
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    hidden_changed = 0
    for step in range(6):
        play_random(state, rng, 7)
        if state.is_terminal():
            break
        for seat in range(game.num_players()):
            for k in range(4):
                other = so.resample(state, seat, lambda: (k + 0.5) / 4)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                public.set_from(other, seat)
                t_other = public.tensor.copy()
                public.set_from(state, seat)
                assert np.array_equal(t_other, public.tensor)
                hidden_changed += str(other) != str(state)
            shown = state.observation_string(seat).split("hand: ")[1].split()
            assert sorted(shown) == sorted(state.game.view(seat)["hand"])
    assert hidden_changed > 0  # the redeals did change hidden cards
    # a public observation is the same for every seat's hidden cards and
    # carries no hand
    public.set_from(state, 0)
    assert public.dict["observation"][game.make_py_observer().hand_slice].sum() == 0
    with pytest.raises(sg.UsageError, match="private cards"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_information_state_tensor_counts_the_cards_each_seat_played():
    game, state = dealt(so.CLASSIC, {"players": 2}, 9)
    cards = []
    for _ in range(6):
        seat = state.current_player()
        state.apply_action(state.legal_actions()[0])
        cards.append((seat, state.game.last_move[1].card))
    t = np.array(state.information_state_tensor(1)).reshape(-1)
    played = t[525:].reshape(2, 52)  # seat 1 first, then seat 0
    for seat, card in cards:
        i = "SHDC".index(card[1]) * 13 + "A23456789TJQK".index(card[0])
        assert played[(seat - 1) % 2, i] >= 1
    assert played.sum() == len(cards)


def test_returns_are_team_shared_and_max_moves_ends_in_a_draw():
    game, state = dealt(so.CLASSIC, {"players": 4}, 11)
    play_random(state, np.random.default_rng(0), 10_000)
    r = state.returns()
    assert state.game.is_over and sorted(r) in ([-1, -1, 1, 1], [0, 0, 0, 0])
    assert r[0] == r[2] and r[1] == r[3]  # C3: seats 0 and 2 are a team
    short, s = dealt(so.STACKS, {"players": 2, "max_moves": 5}, 11)
    play_random(s, np.random.default_rng(0), 100)
    assert s.is_terminal() and s.game.ply == 5 and s.returns() == [0.0, 0.0]


def test_ismcts_and_the_packages_bots_play_through_openspiel():
    game = pyspiel.load_game(so.CLASSIC, {"players": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 20, random_state=np.random.RandomState(1)),
        so.BotAgent("greedy", seed=1),
    ]
    state = so.deal(game.new_initial_state(), 5)
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_rl_environment_steps_whole_episodes_with_masks():
    game = pyspiel.load_game(so.STACKS, {"players": 2})
    env = rl_environment.Environment(game, seed=3)
    assert env.observation_spec()["info_state"] == (419 + 2 * 17,)
    rng = np.random.default_rng(0)
    for _ in range(2):
        ts = env.reset()
        while not ts.last():
            p = ts.observations["current_player"]
            legal = ts.observations["legal_actions"][p]
            assert legal and all(0 <= a < 252 for a in legal)
            ts = env.step([int(rng.choice(legal))])
        assert sorted(ts.rewards) in ([-1.0, 1.0], [0.0, 0.0])
