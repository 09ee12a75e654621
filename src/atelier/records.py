"""Game records (format atelier.record/1, docs/records.md): a whole game, replayable anywhere.

    from atelier import records
    rec = records.new(atelier.open("inventors", players=2, seed=3).start(), seats=["ann", "bob"])
    rec.add("rest")                   # checked against the rules as it is added
    state = rec.replay()              # the position after every move (rec.replay(to=N): after N)
    rec.save("game.json")
    again = records.load("game.json")  # refused at the first move the rules do not allow

A record holds the full truth: the edition (embedded, so it replays when the bundled one
changes), the start position with every hidden part, and every move in notation, chance outcomes
(reveals, draws) included as moves. A seat's view after any move is derived from it
(`atelier.position_dict(rec.replay(to=N), viewpoint=S)`). Everything here goes through the
Game concept and the notation only: it knows no ruleset's details.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import InputError, quoted
from .games import GAMES, ruleset
from .jsonfmt import check_plain, dumps, load_file
from .wording import count

FORMAT = "atelier.record/1"
COLLECTION = "atelier.records/1"   # several records in one file: `atelier play --out FILE`
ENTRY_KEYS = ("move", "seat", "comment", "mark", "review")
MARKS = ("good", "brilliant", "interesting", "dubious", "inaccuracy", "mistake", "blunder")
MAX_MOVES = 100_000   # far above any real game; a bound on what a file can make us replay


def _ruleset_of(state):
    return ruleset(type(state).__module__.rsplit(".", 1)[-1])


def mover(state):
    """The seat to move, or "chance" at a chance node (as written in a record's `seat`)."""
    return "chance" if state.is_chance() else state.current_player


def apply_text(state, text: str, label: str):
    """Apply a move given in notation to `state` (in place), chance outcomes included; return the
    canonical text. InputError naming `label` when the rules refuse it."""
    if not isinstance(text, str) or not text or not text.isprintable():
        raise InputError(f"{label}: expected a move in notation, got {text!r}")
    if state.is_terminal():
        raise InputError(f"{label} {quoted(text)}: the game is already over")
    if state.is_chance():
        before = state.clone()
        try:
            state.apply(text)
        except InputError as exc:
            raise InputError(f"{label} {quoted(text)}: not an outcome of this chance node ({_reason(exc)})") from None
        canon = getattr(_ruleset_of(state), "chance_text", lambda b, a: None)(before, state)
        if canon is None:
            return text
        again = before.clone()
        again.apply(canon)
        return canon if again == state else text
    try:
        move = state.parse_move(text)
    except InputError as exc:
        raise InputError(f"{label} {quoted(text)}: {_reason(exc)}") from None
    canon = state.move_to_string(move)
    state.apply(move)
    return canon


def _reason(exc) -> str:
    """The core's message without its own "move 'x': " prefix (the label says which move)."""
    msg = str(exc)
    if msg.startswith("move '") and "': " in msg:
        return msg.split("': ", 1)[1]
    return msg


@dataclass
class Record:
    game: str
    players: int
    edition: dict
    start: dict                      # the start position (full), without its edition
    seats: list[str]
    moves: list[dict] = field(default_factory=list)   # {"move": text, "seat": int | "chance", ...}
    meta: dict = field(default_factory=dict)
    _final: object = field(default=None, repr=False, compare=False)

    # Replaying.
    def start_state(self):
        """The start position, built with the record's own edition."""
        try:
            return ruleset(self.game).position_from_dict({**self.start, "edition": self.edition})
        except InputError as exc:
            raise InputError(f"start.{exc}" if not str(exc).startswith("edition") else str(exc)) from None

    def states(self, to: int | None = None):
        """(k, state before move k, entry) for k = 0.. (to or the end); each state is a copy."""
        s = self.start_state()
        end = len(self.moves) if to is None else to
        for k, entry in enumerate(self.moves[:end]):
            yield k, s.clone(), entry
            _apply_entry(s, entry, k)

    def replay(self, to: int | None = None):
        """The position after the first `to` moves (None: all of them)."""
        if to is not None and not 0 <= to <= len(self.moves):
            raise InputError(f"to: expected 0..{len(self.moves)} (the record has {count(len(self.moves), 'move')}), got {to}")
        if to is None and self._final is not None:
            return self._final.clone()
        s = self.start_state()
        for k, entry in enumerate(self.moves[:to]):
            _apply_entry(s, entry, k)
        if to is None:
            self._final = s.clone()
        return s

    def check(self) -> None:
        """Replay the whole record: InputError at the first move the rules refuse."""
        self._final = None
        self.replay()

    # Writing down.
    def add(self, text: str, **annotations):
        """Append one move (notation; at a chance node its outcome), checked against the rules;
        return the position after it."""
        s = self.replay()
        seat = mover(s)
        canon = apply_text(s, text, f"move {len(self.moves) + 1}")
        entry = {"move": canon, "seat": seat}
        entry.update(_annotations(annotations, f"move {len(self.moves) + 1}"))
        self.moves.append(entry)
        self._final = s.clone()
        return s

    def add_sampled(self, seed: int):
        """At a chance node: sample the outcome from `seed` and append it as its move (the
        ruleset's notation for it); return the position after it."""
        s = self.replay()
        if not s.is_chance():
            raise InputError(f"move {len(self.moves) + 1}: not a chance node ({_who(mover(s))} to move)")
        t = s.clone()
        t.sample_chance(seed)
        return self.add(_ruleset_of(s).chance_text(s, t))

    def undo(self, n: int = 1) -> None:
        del self.moves[len(self.moves) - n:]
        self._final = None

    def to_dict(self) -> dict:
        doc = {"format": FORMAT, "game": self.game, "players": self.players, "seats": list(self.seats),
               "edition": self.edition, "start": self.start, "moves": [dict(e) for e in self.moves]}
        final = self.replay()
        if final.is_terminal():
            doc["result"] = {"scores": list(final.scores()), "returns": list(final.returns())}
        if self.meta:
            doc["meta"] = dict(self.meta)
        return doc

    def dumps(self) -> str:
        return dumps(self.to_dict(), indent=1) + "\n"

    def save(self, path) -> None:
        """Write the record to `path` (a whole new file: a crash never leaves half a record)."""
        write_text(path, self.dumps())


def _annotations(extra: dict, label: str) -> dict:
    out = {}
    for k, v in extra.items():
        if v is None:
            continue
        if k == "comment" and not isinstance(v, str):
            raise InputError(f"{label}.comment: expected text, got {v!r}")
        if k == "mark" and v not in MARKS:
            raise InputError(f"{label}.mark: expected one of {', '.join(MARKS)}, got {v!r}")
        if k == "review" and not isinstance(v, dict):
            raise InputError(f"{label}.review: expected an object, got {v!r}")
        if k not in ENTRY_KEYS[2:]:
            raise InputError(f"{label}: unknown annotation {k!r} (known: {', '.join(ENTRY_KEYS[2:])})")
        out[k] = v
    return out


def _apply_entry(state, entry: dict, k: int) -> None:
    label = f"move {k + 1}"
    want = entry.get("seat")
    if want is not None and want != mover(state):
        raise InputError(f"{label} {quoted(entry['move'])}: written as seat {want}'s move, "
                         f"but {_who(mover(state))} is to move")
    apply_text(state, entry["move"], label)


def _who(seat) -> str:
    return "chance" if seat == "chance" else f"seat {seat}"


def write_text(path, text: str) -> None:
    path = os.fspath(path)
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise InputError(f"out '{path}': cannot write ({exc.strerror})") from None


# Making and reading records.
def new(start, seats=None, meta=None) -> Record:
    """An empty record whose game starts at the State `start` (a full position, not a viewpoint)."""
    if getattr(start, "viewpoint", None) is not None:
        raise InputError("start: a record starts from a full position, not a seat's viewpoint "
                         "(it holds the whole truth; views are derived from it)")
    import atelier

    rs = _ruleset_of(start)
    n = start.game.players
    seats = [f"seat {p}" for p in range(n)] if seats is None else [str(x) for x in seats]
    if len(seats) != n:
        raise InputError(f"seats: expected {n} names, one per seat, got {len(seats)}")
    pos = atelier.position_dict(start)
    pos.pop("edition", None)
    game = next(g for g in GAMES if ruleset(g) is rs)
    rec = Record(game=game, players=n, edition=rs.edition_document_of(start.game), start=pos, seats=seats,
                 meta=dict(meta or {}))
    return rec


def from_dict(doc, where: str = "record") -> Record:
    """A Record from its JSON document, checked field by field and replayed to the end: refused
    (InputError, one line) at the first field or move that is wrong."""
    check_plain(doc, where)
    if not isinstance(doc, dict):
        raise InputError(f"{where}: expected a JSON object")
    fmt = doc.get("format")
    if fmt != FORMAT:
        hint = " (a file of several records: pick one with --game K)" if fmt == COLLECTION else ""
        raise InputError(f"{where}.format: expected {FORMAT!r}, got {fmt!r}{hint}")
    unknown = sorted(set(doc) - {"format", "game", "players", "seats", "edition", "start", "moves",
                                 "result", "meta"})
    if unknown:
        raise InputError(f"{where}.{unknown[0]}: unknown field (docs/records.md)")
    for key in ("game", "players", "seats", "edition", "start", "moves"):
        if key not in doc:
            raise InputError(f"{where}.{key}: missing")
    game = doc["game"]
    if not isinstance(game, str) or game.lower() not in GAMES:
        raise InputError(f"{where}.game: expected one of {', '.join(GAMES)}, got {game!r}")
    players = doc["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError(f"{where}.players: expected a whole number, got {players!r}")
    seats = doc["seats"]
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(x, str) for x in seats):
        raise InputError(f"{where}.seats: expected {players} names (text), one per seat")
    for key in ("edition", "start"):
        if not isinstance(doc[key], dict):
            raise InputError(f"{where}.{key}: expected an object")
    if "edition" in doc["start"]:
        raise InputError(f"{where}.start.edition: the record's edition is its own field `edition`")
    moves = doc["moves"]
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise InputError(f"{where}.moves: expected a list of at most {MAX_MOVES:,} moves")
    entries = []
    for k, m in enumerate(moves):
        label = f"{where}.moves[{k}]"
        if isinstance(m, str):
            m = {"move": m}
        if not isinstance(m, dict) or not isinstance(m.get("move"), str):
            raise InputError(f"{label}: expected a move in notation, or an object with a \"move\"")
        bad = sorted(set(m) - set(ENTRY_KEYS))
        if bad:
            raise InputError(f"{label}.{bad[0]}: unknown field (docs/records.md)")
        seat = m.get("seat")
        if seat is not None and seat != "chance" and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise InputError(f"{label}.seat: expected a seat number or \"chance\", got {seat!r}")
        entry = {"move": m["move"], **({"seat": seat} if seat is not None else {})}
        entry.update(_annotations({k2: v for k2, v in m.items() if k2 not in ("move", "seat")}, label))
        entries.append(entry)
    meta = doc.get("meta", {})
    if not isinstance(meta, dict):
        raise InputError(f"{where}.meta: expected an object")
    rec = Record(game=game.lower(), players=players, edition=doc["edition"], start=doc["start"], seats=seats,
                 moves=entries, meta=meta)
    s = rec.start_state()
    if s.game.players != players:
        raise InputError(f"{where}.players: {players}, but the start position has {s.game.players} seats")
    if getattr(s, "viewpoint", None) is not None:
        raise InputError(f"{where}.start: a seat's viewpoint; a record holds the full position")
    for k, entry in enumerate(entries):
        try:
            _apply_entry(s, entry, k)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        entry.setdefault("seat", None)
    # Fill in the seats a hand-written record left out (the replay above knows them).
    if any(e["seat"] is None for e in entries):
        t = rec.start_state()
        for k, entry in enumerate(entries):
            entry["seat"] = mover(t) if entry["seat"] is None else entry["seat"]
            _apply_entry(t, entry, k)
    rec._final = s
    _check_result(doc.get("result"), s, len(entries), where)
    return rec


def _check_result(result, final, n_moves: int, where: str) -> None:
    """A record's `result` states how its game ended: it must be an object, belong to moves that
    finish the game (a result beside unfinished moves would be silently ignored), and its scores
    must be what the moves give."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise InputError(f"{where}.result: expected an object (scores, returns), got {result!r:.40}")
    if not final.is_terminal():
        raise InputError(f"{where}.result: the record's {n_moves} moves do not finish the game, so it has "
                         f"no result yet; drop `result` or add the moves to the end")
    if "scores" in result and result["scores"] != list(final.scores()):
        raise InputError(f"{where}.result.scores: {result['scores']!r:.60}, but the moves give {list(final.scores())}")


def load(path, game: int | None = None) -> Record:
    """The record in the file at `path`; from a file of several (atelier play --out FILE) the
    one numbered `game` (1-based)."""
    doc = load_file(path, "record")
    where = f"record '{os.fspath(path)}'"
    if isinstance(doc, dict) and doc.get("format") == COLLECTION:
        recs = doc.get("records")
        if not isinstance(recs, list) or not recs:
            raise InputError(f"{where}.records: expected a list of records")
        if game is None:
            if len(recs) != 1:
                raise InputError(f"{where}: holds {len(recs)} games; pick one with --game K (1..{len(recs)})")
            game = 1
        if not 1 <= game <= len(recs):
            raise InputError(f"--game: expected 1..{len(recs)}, got {game}")
        return from_dict(recs[game - 1], f"{where} game {game}")
    if game not in (None, 1):
        raise InputError(f"--game: {where} holds one game")
    return from_dict(doc, where)


def save_collection(recs: list[Record], path, summary: dict | None = None) -> None:
    doc = {"format": COLLECTION, "records": [r.to_dict() for r in recs]}
    if summary is not None:
        doc["summary"] = summary
    write_text(path, dumps(doc, indent=1) + "\n")


def from_match(match_record: dict, game: str, edition=None, meta=None) -> Record:
    """The record of one game of `atelier.match.play(..., keep_moves=True)`; `edition` as the
    match was given it (a path, or an already loaded Edition)."""
    from .match import new_state_factory

    start = new_state_factory(game, len(match_record["seating"]), edition)(match_record["seed"])
    rec = new(start, seats=match_record["bots"], meta=meta)
    s = start
    for k, mv in enumerate(match_record["moves"]):
        if isinstance(mv, dict):   # no notation for this outcome: cannot happen in a ruleset atelier ships
            raise InputError(f"move {k + 1}: a chance outcome without notation cannot be recorded")
        seat = mover(s)
        rec.moves.append({"move": apply_text(s, mv, f"move {k + 1}"), "seat": seat})
    rec._final = s
    return rec
