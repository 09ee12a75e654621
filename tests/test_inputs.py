"""The Python/binding boundary (issue #6): whatever a caller passes, the answer is a result or an
atelier.InputError with one printable line, never another exception or a traceback."""
import copy
import json
import math
from importlib import resources

import pytest
from click.testing import CliRunner

import atelier
from atelier import jsonfmt
from atelier._core import inventors as core
from atelier.cli import main
from atelier.errors import MAX_MESSAGE, one_line
from atelier.games.inventors.edition import edition_data, edition_from_data, load_edition
from atelier.limits import SEED_MAX, check_seed

DEEP = "[" * 100000 + "]" * 100000


def refused(fn, *args, match=None, **kwargs) -> str:
    """Call fn; it must raise exactly atelier.InputError with a one-line printable message."""
    with pytest.raises(atelier.InputError, match=match) as exc:
        fn(*args, **kwargs)
    msg = str(exc.value)
    assert type(exc.value) is atelier.InputError and msg.isprintable() and len(msg) <= MAX_MESSAGE, msg
    return msg


def cli(*args, input=None):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    r = runner.invoke(main, [str(a) for a in args], input=input)
    lines = r.stderr.strip().splitlines()
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def mid_doc():
    return json.loads(atelier.dump_position(atelier.load_position("example:inventors-mid")))


def default_edition_doc():
    ref = resources.files("atelier") / "data" / "editions" / "inventors.json"
    return json.loads(ref.read_text(encoding="utf-8"))


def deep_list(depth):
    root = cur = []
    for _ in range(depth):
        cur.append([])
        cur = cur[0]
    return root


# ---- 1. nesting ------------------------------------------------------------------------------

def test_deeply_nested_json_is_refused_on_every_path(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    for source in (path, str(path), '{"game": "inventors", "x": ' + DEEP + "}"):
        refused(atelier.load_position, source, match="nested deeper than")
    refused(atelier.load_position, {"game": "inventors", "seats": deep_list(100000)}, match="nested deeper")
    refused(load_edition, path, match="nested deeper")
    refused(atelier.open, "inventors", edition=path, match="nested deeper")
    assert "nested deeper" in cli("show", "-", input=DEEP)
    assert "nested deeper" in cli("show", path)
    assert "nested deeper" in cli("show", "--edition", path, "example:inventors-mid")
    # Deep but within Python's own limit: the same refusal, before any field reader recurses.
    doc = mid_doc()
    doc["cards"] = {"I02": {"cost": deep_list(500)}}
    refused(atelier.load_position, doc, match="nested deeper than 32")


# ---- 2. text that is not valid Unicode / UTF-8 -----------------------------------------------

@pytest.mark.parametrize("bad", ["\ud800", "work:\udcff", "reveal:I01=P2+\ud800"])
def test_lone_surrogates_in_moves_are_input_errors(bad):
    start = atelier.open("inventors", players=2, seed=3).start()
    chance = atelier.open("inventors", players=2, seed=3).initial_state()
    for fn in (start.apply, start.child, start.parse_move, chance.apply, chance.apply_reveal,
               chance.reveal_probability):
        assert "surrogate" in refused(fn, bad)


def test_lone_surrogates_in_fields_and_editions_are_input_errors():
    state = atelier.open("inventors", players=2, seed=3).start()
    fields = state.fields()
    fields["phase"] = "\ud800"
    refused(core.State.from_fields, state.game, fields, match="phase.*surrogate")
    data = load_edition().to_dict()
    data["card_names"][3] = "\ud800"
    refused(core.Edition, data, match=r"card_names\[3\].*surrogate")
    doc = default_edition_doc()
    doc["teams"][0]["inventors"][1]["name"] = "\ud800"
    refused(edition_data, doc, match="surrogate")


def test_edition_ids_are_short_enough_to_type_as_moves():
    doc = default_edition_doc()
    # An edition file's ids are held to the notation's id rule (1..32 characters, docs/editions.md);
    # the binding's own 64-byte cap guards the dict form, which skips the file reader.
    doc["teams"][2]["inventors"][0]["id"] = "b" * 33
    refused(lambda: edition_from_data(edition_data(doc)), match=r"is not a valid id \(1 to 32 letters")
    doc["teams"][2]["inventors"][0]["id"] = "b" * 32
    assert edition_from_data(edition_data(doc)).to_dict()["inventor_ids"][2][0] == "b" * 32
    d = edition_from_data(edition_data(default_edition_doc())).to_dict()
    d["inventor_ids"][2][0] = "b" * 65
    refused(lambda: edition_from_data(d), match=r"65 bytes of text, at most 64")


def test_edition_file_named_with_a_lone_surrogate(tmp_path):
    doc = default_edition_doc()
    doc["edition"] = "\ud800"  # json.dumps writes the escape; json.loads gives it back
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(doc))
    refused(load_edition, path, match=r"edition.*'\\ud800' is not valid text")
    refused(atelier.open, "inventors", edition=path, match="surrogate")
    assert "surrogate" in cli("new", "inventors", "--edition", path)
    doc = mid_doc()
    doc["seats"][1]["won"] = ["\udc80"]
    refused(atelier.load_position, doc, match=r"seats\[1\]\.won\[0\].*surrogate")


def test_position_bytes_that_are_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(mid_doc()).replace("Stone axe", "Hache en pierre \xe9").encode("latin-1"))
    refused(atelier.load_position, path, match="not UTF-8 text")
    assert "not UTF-8" in cli("show", "-", input=path.read_bytes())
    refused(atelier.load_position, str(tmp_path / "nul\0.json"), match="cannot read")
    refused(atelier.load_position, str(tmp_path / "\ud800.json"), match="cannot read")


# ---- 3. the bindings raise atelier.InputError itself -----------------------------------------

def test_core_refusals_are_input_errors():
    state = atelier.open("inventors", players=2, seed=3).start()
    legal = set(state.legal_moves())
    illegal = next(m for m in range(1 << 16) if m not in legal)
    for bad in (illegal, -1, 1 << 16, 1 << 40, 1 << 100, "rest", "x", "", "reveal:I01=P2+P2"):
        refused(state.apply, bad)
    for bad in (illegal, 2.0, None, "rest", True):
        refused(state.move_to_string, bad)
    refused(state.parse_move, 7, match="move: expected a string")
    refused(state.sample_chance, 1, match="not a chance node")
    refused(core.State.from_bytes, state.game, b"x", match="bytes")
    refused(core.State.from_bytes, state.game, "x" * core.STATE_BYTES, match="expected bytes")
    refused(core.State.from_fields, state.game, [], match="fields")
    refused(core.Edition, {}, match="inventors: missing")
    refused(core.Edition, [], match="edition")
    refused(core.Game, state.game.edition, 6, [0, 1], match="players")
    refused(core.Game, state.game.edition, 2, [0, 9], match=r"teams\[1\]")
    refused(state.score_detail, 2, match="seat")
    refused(state.game.inventor_ids, "0", match="seat")
    refused(state.game.random_games, -1, match="n")
    refused(core.Game, "default", 2, [0, 1], match="edition: expected an Edition, got str")
    refused(core.State.from_fields, None, state.fields(), match="game: expected a Game")
    refused(core.State.from_bytes, state, state.to_bytes(), match="game: expected a Game")
    refused(atelier.open, "inventors", edition=123, match="edition file: expected a file path")
    # A numpy integer from legal_moves_array() is a move number like any int.
    state.clone().apply(state.legal_moves_array()[0])


@pytest.mark.parametrize("text", ["rest\n\x1b[2J", "\x07work:x", "take:\u202ecard", "a\rb"])
def test_echoed_moves_are_escaped(text):
    state = atelier.open("inventors", players=2, seed=3).start()
    msg = refused(state.apply, text)
    assert repr(text)[1:-1] in msg  # escaped like repr(): nothing raw reaches a terminal
    assert "error: move" in cli("apply", "example:inventors-mid", text)


def test_input_error_messages_are_one_printable_line():
    assert str(atelier.InputError("a\nb\x1b[0m\ud800")) == "a\\nb\\x1b[0m\\ud800"
    assert one_line("seats[0]: fine") == "seats[0]: fine"
    long = one_line("field: " + "x" * 10**6 + " reason")
    assert len(long) <= MAX_MESSAGE and long.startswith("field: ") and long.endswith(" reason")
    refused(atelier.open("inventors").start().apply, "w" * 10**6, match="at most 4096")


# ---- 4. non-JSON values and wrong types in documents -----------------------------------------

NOT_JSON = [
    ("set", lambda d: d.__setitem__("age", {1, 2}), "set is not JSON"),
    ("bytes", lambda d: d["seats"][0].__setitem__("won", [b"I07"]), "bytes is not JSON"),
    ("tuple", lambda d: d.__setitem__("teams", tuple(d["teams"])), "tuple is not JSON"),
    ("nan", lambda d: d.__setitem__("age", math.nan), "nan is not a JSON number"),
    ("inf", lambda d: d["display"][0]["cubes"].__setitem__(0, math.inf), "inf is not a JSON number"),
    ("huge int", lambda d: d.__setitem__("active", 2**64), "65 bits"),
    ("huge negative int", lambda d: d["bag"].__setitem__("P2", -(2**200)), "201 bits"),
    ("int key", lambda d: d["seats"][0]["hand"].__setitem__(3, 1), "key 3 is not a string"),
    ("tuple key", lambda d: d.__setitem__(("a",), 1), "is not a string"),
    ("object", lambda d: d.__setitem__("reward", object()), "object is not JSON"),
    ("bool as int", lambda d: d.__setitem__("age", True), "age: expected an integer"),
    ("float as int", lambda d: d.__setitem__("statuette", 1.0), "statuette: expected an integer"),
    ("str as int", lambda d: d.__setitem__("players", "3"), "players: expected an integer"),
    ("superscript seat", lambda d: d["display"][0].__setitem__("placed", {"\u00b2": {"P": 1}}), "placed"),
]


@pytest.mark.parametrize("name,mutate,pattern", NOT_JSON, ids=[c[0] for c in NOT_JSON])
def test_non_json_values_in_a_position_dict(name, mutate, pattern):
    doc = mid_doc()
    mutate(doc)
    refused(atelier.load_position, doc, match=pattern)


def test_json_text_limits():
    refused(atelier.load_position, '{"age": ' + "9" * 5000 + "}", match="too many digits")
    refused(atelier.load_position, '{"age": NaN}', match="NaN|nan")
    refused(jsonfmt.loads, b"\xff", "stdin", match="not UTF-8")
    assert jsonfmt.loads('{"a": [1, 2.5, "x", null, true]}', "t") == {"a": [1, 2.5, "x", None, True]}


@pytest.mark.parametrize("kind", [[], {}, 2, None, 1.5])
def test_edition_token_kind_of_any_type(kind):
    doc = default_edition_doc()
    doc["tokens"][0]["kind"] = kind
    assert refused(edition_data, doc).startswith("edition tokens[0].kind: expected one of")


def test_non_json_values_in_an_edition():
    for mutate in (lambda d: d["teams"][0].__setitem__("inventors", {1, 2}),
                   lambda d: d["inventions"][0].__setitem__("cost", [1, math.nan, 1, 1]),
                   lambda d: d.__setitem__(5, "x")):
        doc = copy.deepcopy(default_edition_doc())
        mutate(doc)
        assert refused(lambda: edition_from_data(edition_data(doc))).startswith("edition")


# ---- 5. integers out of range in the Python API ----------------------------------------------

@pytest.mark.parametrize("seed", [2**64, -1, 2**200, 1.5, True, "3", None])
def test_seed_out_of_range(seed):
    assert f"0..{SEED_MAX}" in refused(atelier.open, "inventors", seed=seed)
    if seed is None:
        return  # the core calls below read None as "the seed atelier.open recorded"
    game = atelier.open("inventors")
    assert "0..2^64-1" in refused(game.start, seed)
    assert "0..2^64-1" in refused(game.initial_state().sample_chance, seed)
    assert "0..2^64-1" in refused(game.random_games, 1, seed)


def test_seed_extremes_are_usable():
    assert check_seed(SEED_MAX) == SEED_MAX and check_seed(0) == 0
    game = atelier.open("inventors", players=3, seed=SEED_MAX)
    assert not game.start().is_chance()
    assert game.start(SEED_MAX) == game.start()


@pytest.mark.parametrize("players", [2.0, True, "3", 1, 6, None, 2**70])
def test_players_out_of_range(players):
    assert "2..5" in refused(atelier.open, "inventors", players=players)


# ---- 6. every ruleset's State and Game: the same converters (cext/bind/common.hpp) ------------

RULESETS = ("inventors", "leonardo", "craftsmen")


def _decision(game):
    s = atelier.open(game, players=3, seed=3).start()
    while s.is_chance():
        s.sample_chance(1)
    return s


@pytest.mark.parametrize("game", RULESETS)
@pytest.mark.parametrize("bad", ["\ud800", "x\udcff", "\udfff:a"])
def test_lone_surrogates_in_moves_in_every_ruleset(game, bad):
    """Leonardo and Craftsmen raised TypeError or RuntimeError (pybind11's own string caster)."""
    s = _decision(game)
    before = s.clone()
    for fn in (s.apply, s.child, s.parse_move):
        assert "surrogate" in refused(fn, bad)
    assert s == before


@pytest.mark.parametrize("game", RULESETS)
@pytest.mark.parametrize("kwargs,needle", [
    (dict(n=1.5), "n: "), (dict(n=-1), "n: "), (dict(n=2**40), "n: "), (dict(n="3"), "n: "),
    (dict(n=True), "n: "), (dict(n=1, seed=-1), "0..2^64-1"), (dict(n=1, seed=2**64), "0..2^64-1"),
    (dict(n=1, seed=1.5), "0..2^64-1"), (dict(n=1, seed=None), "0..2^64-1"),
])
def test_random_games_arguments_in_every_ruleset(game, kwargs, needle):
    """Leonardo and Craftsmen raised TypeError, and n=2**40 a MemoryError (under ASan an abort)."""
    g = atelier.open(game, players=2)
    assert needle in refused(g.random_games, **kwargs)
    r = g.random_games(2, seed=2**64 - 1)
    assert r["scores"].shape == (2, 2)


@pytest.mark.parametrize("game", RULESETS)
def test_random_games_winners_are_a_bitmask_in_every_ruleset(game):
    """README: winners[i] has bit p set when seat p won game i (Craftsmen gave the seat number)."""
    g = atelier.open(game, players=3)
    r = g.random_games(30, seed=2)
    for scores, w in zip(r["scores"].tolist(), r["winners"].tolist()):
        seats = [p for p in range(3) if w >> p & 1]
        assert seats and w < 8
        if game != "craftsmen":   # Craftsmen's tie-breaks go past the score (A19)
            assert all(scores[p] == max(scores) for p in seats)


@pytest.mark.parametrize("game", RULESETS)
def test_every_state_method_refuses_wrong_types_in_one_line(game):
    s = _decision(game)
    for bad in (1.5, "1", None, -1, 2**70, True, [0]):
        for name in ("sample_chance", "greedy_move", "determinize", "infoset_key", "score_detail",
                     "move_to_string"):
            fn = getattr(s.clone(), name, None)
            if fn is None:
                continue
            args = (0, bad) if name == "determinize" else (bad,)
            if name == "greedy_move" and bad in (None,):
                continue
            refused(fn, *args)
    refused(type(s).from_bytes, s.game, "not bytes")
    refused(type(s).from_bytes, "not a game", s.to_bytes())
    if hasattr(s, "with_fields"):
        refused(s.with_fields, ["not", "a", "dict"])
    if hasattr(s, "viewpoint"):
        for bad in (1.5, "0", 7, -1):
            refused(setattr, s, "viewpoint", bad)


@pytest.mark.parametrize("game", RULESETS)
@pytest.mark.parametrize("extras,needle", [
    ("x", "extras"), ([1], "extras"), ([None, None], "extras"), ([{"a": float("nan")}], "extras"),
    ([{"a": 10**400}], "extras"), ([{"\ud800": 1}], "extras"),
])
def test_observation_tensor_arguments(game, extras, needle):
    """observe.observation_tensor(states, 0, extras='x') raised IndexError."""
    from atelier import observe

    s = _decision(game)
    assert needle in refused(observe.observation_tensor, [s], 0, extras=extras)
    assert observe.observation_tensor([s], 0, extras=[{"turn": 3}]).shape[0] == 1
    refused(observe.observation_tensor, s, 0)
    refused(observe.observation_tensor, [s, "state"], 0)
    refused(observe.observation_tensor, [s], 9)
    refused(observe.observation, s, 0, extra="x")
    refused(observe.information_state, s, 0, history=5)


@pytest.mark.parametrize("game", RULESETS)
def test_a_space_inside_a_move_is_refused_in_every_ruleset(game):
    """Craftsmen accepted whitespace anywhere (`BU ILD(B09,L)`); every ruleset refuses a space
    inside a word, at either end, and any tab or line break."""
    rng = __import__("random").Random(7)
    s = _decision(game)
    checked = 0
    for _ in range(60):
        if s.is_terminal():
            break
        if s.is_chance():
            s.sample_chance(rng.getrandbits(64))
            continue
        text = s.move_to_string(rng.choice(s.legal_moves()))
        words = [i for i in range(1, len(text)) if text[i - 1].isalnum() and text[i].isalnum()]
        bad = [" " + text, text + " ", text + "\n", "\t" + text]
        if words:
            j = rng.choice(words)
            bad.append(text[:j] + " " + text[j:])
        for b in bad:
            refused(s.parse_move, b)
        checked += 1
        s.apply(text)
    assert checked > 10

