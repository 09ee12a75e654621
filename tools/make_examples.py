"""Regenerate the bundled example positions (src/atelier/data/examples/) by playing seeded games.

    PYTHONPATH=src python tools/make_examples.py

The games are played by a simple seeded policy (mostly main actions, sometimes a free play), so
the positions are ones real play reaches: hands hold tokens, cards carry cubes. Deterministic:
rerunning writes the same files.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import atelier

OUT = Path(__file__).resolve().parent.parent / "src" / "atelier" / "data" / "examples"


def step(state, rng: random.Random, seed: int) -> None:
    """One decision (or reveal) by the policy."""
    if state.is_chance():
        state.sample_chance(seed)
        return
    moves = state.legal_moves()
    main = [m for m in moves if state.move_to_string(m).split(":")[0] in ("work", "rest", "take")]
    pool = main if main and rng.random() < 0.9 else moves
    state.apply(rng.choice(pool))


def empty_spaces(state) -> int:
    ed = state.game.edition.to_dict()
    return sum(ed["cards"][d["card"]]["cost"][k] - d["filled"][k]
               for d in state.fields()["display"] for k in range(4))


def play_until(players: int, seed: int, done):
    """Play the seeded game until done(state) holds at a decision point; None if it never does."""
    rng = random.Random(seed)
    state = atelier.open("inventors", players=players, seed=seed).start()
    while not state.is_terminal():
        if not state.is_chance() and done(state):
            return state
        step(state, rng, seed * 1000 + state.fields()["age"])
    return None


def mid(state) -> bool:
    f = state.fields()
    return (f["age"] == 2 and f["phase"] == "MAIN" and sum(map(sum, f["hand"])) >= 3
            and sum(1 for d in f["display"] if sum(d["cubes"])) >= 2)


def late(state) -> bool:
    # Deterministic (Age III is the last reveal) and small enough for exact search (about 70,000
    # expectimax nodes): 3 cards left, few empty spaces, few tokens to play (each multiplies moves).
    f = state.fields()
    return (f["age"] == 3 and f["phase"] == "MAIN" and len(f["display"]) == 3
            and empty_spaces(state) <= 8 and sum(map(sum, f["hand"])) <= 2)


def first(players: int, done, until=None, seeds=range(1, 200)):
    """The first seeded game that `until` (default: the Inventors policy) plays to done(state)."""
    for seed in seeds:
        state = (until or play_until)(players, seed, done)
        if state is not None:
            return state
    raise SystemExit(f"no seed reached the wanted position for {players} players")


def greedy_until(game: str):
    """until(players, seed, done) for `first`: a seeded game of `game`, mostly greedy."""
    return lambda players, seed, done: mostly_greedy(game, players, seed, done)


def mostly_greedy(game: str, players: int, seed: int, done):
    """A seeded game, mostly greedy (so Leonardo's inventions complete and auctions happen,
    Craftsmen's rows fill), until done(state) at a decision; None if it never does."""
    rng = random.Random(seed)
    state = atelier.open(game, players=players, seed=seed).start()
    while not state.is_terminal():
        if state.is_chance():
            state.sample_chance(rng.randrange(2**32))
            continue
        if done(state):
            return state
        if rng.random() < 0.8:
            state.apply(state.greedy_move(rng.randrange(2**32)))
        else:
            state.apply(rng.choice(state.legal_moves()))
    return None


def turn3_place(state) -> bool:
    f = state.fields()
    return f["turn"] == 3 and f["phase"] == "PLACE" and sum(bin(p["placed"]).count("1") for p in f["players"]) >= 3


def auction(state) -> bool:
    # A sealed auction with a bid already entered: the viewpoint of the next bidder hides it.
    from atelier.games.leonardo.position_dump import entered_bidders

    f = state.fields()
    return f["phase"] == "BID" and len(entered_bidders(f, state.game.players)) >= 1


def turn8(state) -> bool:
    f = state.fields()
    return f["turn"] == 8 and f["phase"] == "PLACE" and sum(bin(p["placed"]).count("1") for p in f["players"]) >= 2


def crafting(state) -> bool:
    # Year 2's Craftsmen stage with icons already filled: the row, the market and the ships in use.
    f = state.fields()
    filled = sum(len(s["filled"]) for s in f["seats"])
    return f["year"] == 2 and f["phase"] == "CRAFT" and filled >= 3


def spring_guilds(state) -> bool:
    # Year 2's spring, the guild phase under way: the Architects with a building card to build.
    f = state.fields()
    return f["year"] == 2 and f["season"] == 0 and f["phase"] == "BUILD1"


def craftsmen_auction(state) -> bool:
    # A Notary auction with a raise already made: the next bidder's view bounds the bidders' hands.
    f = state.fields()
    return f["phase"] == "BID" and f["context"]["auction_raised"] and \
        state.hand_value(state.current_player) > f["context"]["auction_high"] + 1


def last_winter(state) -> bool:
    # Year 3's winter, the Craftsmen stage, the second seat's action: small enough to solve exactly.
    f = state.fields()
    c = f["context"]
    return f["year"] == 3 and f["season"] == 3 and f["phase"] == "CRAFT" and c["stage"] == 3 and c["index"] == 1


def view(state):
    """The position as the seat to move sees it (a viewpoint)."""
    return atelier.load_position(atelier.position_dict(state, viewpoint=state.current_player))


# One line per example, what the position is and what it is good for: `atelier examples`
# prints it, and it is written beside the positions as index.json.
DESCRIPTIONS = {
    "inventors-start": "Legendary Inventors, 3 players: the start, Age I revealed, seat 0 to move",
    "inventors-mid": "Legendary Inventors, 3 players: Age II, tokens in hand and cubes on the display (suggest)",
    "inventors-late": "Legendary Inventors, 2 players: Age III, 3 cards left, no chance left (endgame solves it exactly)",
    "leonardo-start": "Leonardo da Vinci, 4 players: the expert setup, seat 0's favour pick",
    "leonardo-turn3-place": "Leonardo da Vinci, 4 players: turn 3, Phase B, seat 2 places a worker (28 moves)",
    "leonardo-auction": "Leonardo da Vinci, 4 players: turn 8, a sealed bid, seat 3's view (another bid hidden)",
    "leonardo-turn8": "Leonardo da Vinci, 3 players: turn 8, Phase B, seat 1's view (endgame per sample)",
    "craftsmen-start": "Craftsmen, 3 players: the deal, seat 1 keeps its cards or swaps a basic building",
    "craftsmen-year2-spring": "Craftsmen, 4 players: year 2, spring, seat 0's Architects decision (BUILD1)",
    "craftsmen-auction": "Craftsmen, 4 players: year 1, a Notary auction, seat 3's view as it bids",
    "craftsmen-year2-craft": "Craftsmen, 4 players: year 2, spring, seat 1 crafts",
    "craftsmen-winter": "Craftsmen, 3 players: year 3's winter, seat 1's view (endgame per sample)",
}
INDEX_FORMAT = "atelier.example-index/1"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    examples = {
        "inventors-start": atelier.open("inventors", players=3, seed=1).start(),
        "inventors-mid": first(3, mid),
        "inventors-late": first(2, late),
    }
    for name, state in examples.items():
        (OUT / f"{name}.json").write_text(atelier.dump_position(state), encoding="utf-8")
        print(f"wrote {name}: age {state.fields()['age']}, {len(state.fields()['display'])} cards shown,"
              f" {empty_spaces(state)} empty spaces")
    leonardo = {
        "leonardo-start": atelier.open("leonardo", players=4, seed=1).start(),
        "leonardo-turn3-place": first(4, turn3_place, greedy_until("leonardo"), range(1, 500)),
        "leonardo-auction": view(first(4, auction, greedy_until("leonardo"), range(1, 500))),
        "leonardo-turn8": view(first(3, turn8, greedy_until("leonardo"), range(1, 500))),
    }
    for name, state in leonardo.items():
        (OUT / f"{name}.json").write_text(atelier.dump_position(state), encoding="utf-8")
        f = state.fields()
        print(f"wrote {name}: turn {f['turn']} phase {f['phase']}, seat {state.current_player} to move"
              + (f", seat {state.viewpoint}'s view" if state.viewpoint is not None else ""))

    craftsmen = {
        "craftsmen-start": atelier.open("craftsmen", players=3, seed=1).start(),
        "craftsmen-year2-spring": first(4, spring_guilds, greedy_until("craftsmen"), range(1, 500)),
        "craftsmen-auction": view(first(4, craftsmen_auction, greedy_until("craftsmen"), range(1, 500))),
        "craftsmen-year2-craft": first(4, crafting, greedy_until("craftsmen"), range(1, 500)),
        "craftsmen-winter": view(first(3, last_winter, greedy_until("craftsmen"), range(1, 500))),
    }
    for name, state in craftsmen.items():
        (OUT / f"{name}.json").write_text(atelier.dump_position(state), encoding="utf-8")
        f = state.fields()
        print(f"wrote {name}: year {f['year']} season {f['season']} phase {f['phase']}, "
              f"seat {state.current_player} to move"
              + (f", seat {state.viewpoint}'s view" if state.viewpoint is not None else ""))
    written = sorted(p.name[:-5] for p in OUT.glob("*.json") if p.name != "index.json")
    if written != sorted(DESCRIPTIONS):
        raise SystemExit(f"DESCRIPTIONS and the examples differ: {sorted(set(written) ^ set(DESCRIPTIONS))}")
    (OUT / "index.json").write_text(json.dumps({"format": INDEX_FORMAT, "descriptions": DESCRIPTIONS},
                                               indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote index.json")


if __name__ == "__main__":
    main()
