"""Craftsmen editions (rules §3, docs/editions.md): unequal privilege and work banks are played
as written, every honoured constant reaches the core, every constant the core builds into its
structure is refused when changed (one line, exit 2), and §3's one warning is printed."""
import copy
import json
import random

import pytest

import atelier
import craftsmen_model as M
from atelier._core import craftsmen as C
from cli_helpers import one_error_line, run
from craftsmen_helpers import edition, game, texts

BUNDLED = edition()


def variant(**constants):
    """The bundled edition with constants replaced (values as the edition writes them)."""
    ed = copy.deepcopy(BUNDLED)
    for name, value in constants.items():
        ed["constants"][name]["value"] = value
    return ed


def random_states(g, seeds, rng_seed=0, limit=4000):
    """Every state of random games (decisions uniform, chance sampled) from the given deals."""
    rng = random.Random(rng_seed)
    for seed in seeds:
        st = g.start(seed)
        for _ in range(limit):
            yield st
            if st.is_terminal():
                break
            if st.is_chance():
                st.sample_chance(rng.randrange(1 << 30))
            else:
                st.apply(rng.choice(texts(st)))


# ---- unequal banks (rules 4.3; the spec's S19 needs 4 privilege tokens with 5 players) ------

def banks(priv, work, n):
    p = dict(BUNDLED["constants"]["privilege_tokens_by_players"]["value"])
    w = dict(BUNDLED["constants"]["work_tokens_by_players"]["value"])
    p[str(n)], w[str(n)] = priv, work
    return variant(privilege_tokens_by_players=p, work_tokens_by_players=w)


@pytest.mark.parametrize("n,priv,work", [(5, 4, 10), (3, 0, 6), (2, 4, 1), (4, 10, 2)])
def test_unequal_banks_are_honoured_through_whole_games(n, priv, work):
    g = game(n, banks(priv, work, n))
    start = g.start(0).fields()
    assert (start["bank_priv"], start["bank_work"]) == (priv, work)
    took = {"TAKE_PRIVILEGE": 0, "TAKE_WORK": 0}
    for st in random_states(g, range(2), rng_seed=n):
        f = st.fields()
        held_p = sum(q["priv_tokens"] for q in f["seats"])
        held_w = sum(q["work_tokens"] for q in f["seats"])
        assert f["bank_priv"] + held_p == priv and f["bank_work"] + held_w == work
        assert all(q["priv_tokens"] <= 2 and q["work_tokens"] <= 2 for q in f["seats"])
        ms = [] if st.is_terminal() or st.is_chance() else texts(st)
        if f["bank_priv"] == 0:
            assert "TAKE_PRIVILEGE" not in ms
        if f["bank_work"] == 0:
            assert "TAKE_WORK" not in ms
        for m in took:
            took[m] += m in ms
        assert C.State.from_bytes(g, st.to_bytes()).hash == st.hash  # validate() accepts it
    if priv:
        assert took["TAKE_PRIVILEGE"] > 0
    if work:
        assert took["TAKE_WORK"] > 0


def test_unequal_banks_survive_positions_and_views():
    ed = banks(4, 10, 5)
    path_state = game(5, ed).start(2)
    doc = atelier.position_dict(path_state)
    assert doc["bank_priv"] == 4 and doc["bank_work"] == 10 and "edition" in doc
    back = atelier.load_position(json.loads(json.dumps(doc)))
    assert back.hash == path_state.hash
    for seat in range(5):   # what one seat knows: the banks are public
        view = atelier.position_dict(back, viewpoint=seat)
        assert (view["bank_priv"], view["bank_work"]) == (4, 10)
        again = atelier.load_position(json.loads(json.dumps(view)))
        assert (again.fields()["bank_priv"], again.fields()["bank_work"]) == (4, 10)
    # A position whose counts break the edition's banks is refused.
    doc["bank_work"] = 9
    with pytest.raises(atelier.InputError, match="work tokens"):
        atelier.load_position(doc)


def test_a_bank_above_its_box_total_is_refused():
    ed = banks(4, 10, 5)
    ed["constants"]["work_tokens_total"]["value"] = 9
    with pytest.raises(atelier.InputError) as e:
        C_game(ed)
    assert str(e.value) == "edition: constants.work_tokens_by_players.5: more than work_tokens_total (9)"


def C_game(ed):
    from atelier.games.craftsmen.edition import edition_from_data
    return edition_from_data(ed)


def test_unequal_banks_in_lockstep_with_the_model(monkeypatch):
    """The independent model reads both banks from the edition: the two sides agree move by
    move with 4 privilege and 10 work tokens at 5 players, and 0/6 at 3 players."""
    import test_craftsmen_lockstep as LS
    for n, priv, work in ((5, 4, 10), (3, 0, 6)):
        ed = banks(priv, work, n)
        monkeypatch.setattr(LS, "ED", M.Edition(ed))
        monkeypatch.setattr(LS, "core_game", lambda n, age, ed=ed: game(n, ed, age_rank=age))
        decisions, draws, _ = LS.play_lockstep(n, None, 0)
        assert decisions > 0 and draws > 0


# ---- honoured constants: each reaches the core ------------------------------------------

def test_max_work_tokens_held_apart_from_privilege():
    g = game(3, variant(max_work_tokens_held=1, max_privilege_tokens_held=2))
    most = 0
    for st in random_states(g, range(3), rng_seed=5):
        seats = st.fields()["seats"]
        assert all(q["work_tokens"] <= 1 for q in seats)
        most = max(most, max(q["priv_tokens"] for q in seats))
        if not st.is_terminal() and not st.is_chance() and st.fields()["phase"] == "TOWN":
            assert ("TAKE_WORK" in texts(st)) == (seats[st.current_player]["work_tokens"] < 1
                                                 and st.fields()["bank_work"] > 0)
    assert most == 2


def auction_amounts(ed, seeds=range(6)):
    """The amounts of every AUCTION move listed in random games."""
    out = set()
    for st in random_states(game(3, ed), seeds, rng_seed=9):
        if not st.is_terminal() and not st.is_chance():
            out |= {int(m.split(",")[1][:-1]) for m in texts(st) if m.startswith("AUCTION(")}
    return out


def test_notary_min_bid_is_the_lowest_opening_bid():
    assert 1 in auction_amounts(BUNDLED)
    higher = auction_amounts(variant(notary_min_bid=4))
    assert higher and min(higher) == 4


def test_min_bid_and_work_token_cap_in_lockstep_with_the_model(monkeypatch):
    """The model reads notary_min_bid and max_work_tokens_held too: both sides agree."""
    import test_craftsmen_lockstep as LS
    ed = variant(notary_min_bid=3, max_work_tokens_held=1)
    monkeypatch.setattr(LS, "ED", M.Edition(ed))
    monkeypatch.setattr(LS, "core_game", lambda n, age: game(n, ed, age_rank=age))
    for seed in range(2):
        LS.play_lockstep(3, None, seed)


# ---- constants the core builds in: refused when changed, through the CLI -------------------

FIXED = ["players", "extended_house_cards_dealt", "money_set", "years", "seasons_per_year", "helpers_per_player", "discs_per_player",
         "cubes_per_player", "neutral_cubes", "work_token_wp", "mulligan_max_swaps", "guild_spaces",
         "guild_spaces_2p", "max_discs_per_space", "stack_payment_cards", "banker_faceup_take",
         "privileges_per_helper_per_round", "money_values", "max_builds_per_action",
         "market_trade_cost_wp", "privilege_produce_raws", "warehouse_slots_per_good",
         "warehouse_reward_cards", "merchants_price_cards", "ship_row_slots", "bribe_cards",
         "colour_set_size", "contribution", "order_change_spaces", "catch_up_tokens_per_seat",
         "season_guilds", "winter_virtual_helpers_per_stage", "town_hall_options_by_players"]


def changed(value):
    """Another value of the same shape (the first number changed)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list):
        return [changed(value[0])] + value[1:]
    if isinstance(value, dict):
        k = next(iter(value))
        return {**value, k: changed(value[k])}
    raise AssertionError(value)


@pytest.mark.parametrize("name", FIXED)
def test_a_changed_fixed_constant_is_refused_through_the_cli(name, tmp_path):
    value = BUNDLED["constants"][name]["value"]
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(variant(**{name: changed(value)})))
    line = one_error_line(run("new", "craftsmen", "--players", "3", "--edition", path))
    assert line == f"error: edition: constants.{name}: this core supports only {json.dumps(value)}"


@pytest.mark.parametrize("key", ["faceup", "keep_faceup"])
def test_notary_privilege_faceup_counts_are_fixed(key, tmp_path):
    np = dict(BUNDLED["constants"]["notary_privilege"]["value"])
    np[key] += 1
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(variant(notary_privilege=np)))
    line = one_error_line(run("new", "craftsmen", "--edition", path))
    assert line == f"error: edition: constants.notary_privilege.{key}: this core supports only 2"


def test_every_constant_is_read_or_fixed():
    """No constant of the bundled edition is silently ignored: each one changed is either
    refused or changes what the core was configured with (its edition is read in full)."""
    honoured = set(BUNDLED["constants"]) - set(FIXED)
    assert len(honoured) + len(FIXED) == len(BUNDLED["constants"]) == 63
    for name in honoured:
        value = BUNDLED["constants"][name]["value"]
        try:
            atelier.games.craftsmen.edition.edition_from_data(variant(**{name: changed(value)}))
        except atelier.InputError as exc:
            assert "this core supports only" not in str(exc), (name, exc)


# A changed value of every honoured constant (valid for the core), and the player count that
# shows it. The totals only bound the banks: test_a_bank_above_its_box_total_is_refused.
HONOURED = {
    "money_cards_dealt": (4, 3), "money_display_size": (4, 3), "basic_cards_dealt": (1, 3),
    "faceup_per_building_deck": (1, 3),
    "privilege_tokens_by_players": ({"2": 2, "3": 3, "4": 4, "5": 5}, 3),
    "work_tokens_by_players": ({"2": 2, "3": 3, "4": 4, "5": 5}, 3),
    "max_privilege_tokens_held": (1, 3), "max_work_tokens_held": (1, 3),
    "starting_ap_by_turn_position": ([5, 5, 5, 5, 5], 3),
    "max_helpers_per_player_per_guild": (1, 3), "max_helpers_per_player_per_guild_2p": (1, 2),
    "guild_capacity_by_players": ({"2": 2, "3": 3, "4": 4, "5": 5}, 3),
    "stack_payment_ap_by_year": ([4, 5, 6], 3), "pass_bonus": ({"min_unplaced_helpers": 1, "ap": 7}, 3),
    "banker_take": (3, 3), "banker_discard": (1, 3), "banker_discard_privilege": (0, 3),
    "hand_limit": (9, 3), "hand_limit_end_of_round": (5, 3),
    "build_cost": ({"basic": 1, "extended": 2, "advanced": 4}, 3),
    "notary_buy_price": ({"basic": 2, "extended": 4, "advanced": 8}, 3), "notary_min_bid": (3, 3),
    "mayor_cards": ({"basic": 2, "extended": 3, "advanced": 4}, 3),
    "notary_privilege": ({"from_deck": 2, "faceup": 2, "keep_faceup": 2}, 3),
    "work_points_by_year": ([2, 3, 4], 3), "market_max_cubes": (1, 3), "colour_set_ap": (9, 3),
    "warehouse_year_end_ap_per_cube": (4, 3),
}


def first_difference(a, b, seed):
    """Play the same deal under two editions with the same random choices; the step at which
    they first differ (state bytes, legal moves, scores), or None if they never do."""
    sa, sb = a.start(seed), b.start(seed)
    rng = random.Random(seed)
    for step in range(20000):
        if sa.to_bytes() != sb.to_bytes():
            return step
        if sa.is_terminal():
            return None if list(sa.scores()) == list(sb.scores()) else step
        if sa.is_chance():
            r = rng.randrange(1 << 30)
            sa.sample_chance(r)
            sb.sample_chance(r)
            continue
        ma, mb = sa.legal_moves(), sb.legal_moves()
        if list(ma) != list(mb):
            return step
        m = ma[rng.randrange(len(ma))]
        sa.apply(m)
        sb.apply(m)
    raise AssertionError("no end")


def test_the_honoured_list_is_complete():
    assert set(HONOURED) | set(FIXED) | {"privilege_tokens_total", "work_tokens_total"} == set(BUNDLED["constants"])


@pytest.mark.parametrize("name", sorted(HONOURED))
def test_each_honoured_constant_changes_play(name):
    value, n = HONOURED[name]
    assert value != BUNDLED["constants"][name]["value"]
    base, other = game(n, BUNDLED), game(n, variant(**{name: value}))
    assert any(first_difference(base, other, seed) is not None for seed in range(4)), name


def test_a_bool_or_float_is_not_the_fixed_integer():
    with pytest.raises(atelier.InputError, match="constants.years: this core supports only 3"):
        atelier.games.craftsmen.edition.edition_from_data(variant(years=3.0))
    with pytest.raises(atelier.InputError, match="constants.work_token_wp: this core supports only 1"):
        atelier.games.craftsmen.edition.edition_from_data(variant(work_token_wp=True))


# ---- §3 warning: a one-coloured card --------------------------------------------------------

def test_one_coloured_card_warns_on_stderr(tmp_path):
    ed = copy.deepcopy(BUNDLED)
    card = ed["basic_buildings"][0]
    card["bottom"] = card["top"]
    path = tmp_path / "ed.json"
    path.write_text(json.dumps(ed))
    r = run("new", "craftsmen", "--players", "3", "--edition", path)
    assert r.exit_code == 0, r.stderr
    assert r.stderr.splitlines() == [
        f"warning: edition: basic_buildings[{card['id']}]: one-coloured card (top = bottom = "
        f"{card['top']}): it is paid in its one colour (9.4) and counts two halves of it in town "
        "growth (§13)"]
    # The position written embeds the edition: reading it warns again.
    pos = tmp_path / "pos.json"
    pos.write_text(r.stdout)
    r2 = run("moves", pos)
    assert r2.exit_code == 0 and r2.stderr.startswith("warning: edition: basic_buildings[")


def test_the_bundled_edition_has_no_warning():
    r = run("new", "craftsmen", "--players", "3")
    assert r.exit_code == 0 and r.stderr == ""


# ---- names that reach the notation ------------------------------------------------------------

def test_product_names_are_unique_regardless_of_case():
    ed = copy.deepcopy(BUNDLED)
    raw = ed["products"]["raw"]
    old, new = raw[1], raw[0].upper()          # iron_ore -> WOOD, beside wood
    ed = json.loads(json.dumps(ed).replace(f'"{old}"', f'"{new}"'))
    with pytest.raises(atelier.InputError, match=rf"^edition: products\.{new}: duplicate \(names ignore letter case\)$"):
        atelier.games.craftsmen.edition.edition_from_data(ed)


@pytest.mark.parametrize("money", ["R1", "p2", "G3"])
def test_a_building_id_may_not_be_a_money_type(money):
    ed = copy.deepcopy(BUNDLED)
    old = ed["basic_buildings"][3]["id"]
    ed["basic_buildings"][3]["id"] = money
    with pytest.raises(atelier.InputError, match=rf"^edition: buildings\[{money}\]\.id: a money type's name"):
        atelier.games.craftsmen.edition.edition_from_data(ed)
    assert old != money
