"""atelier: best moves, win chances and exact endgames for workshop board games.

    import atelier
    game = atelier.open("inventors", players=3, seed=7)
    state = game.start()                      # Age I revealed, seat 0 to move
    state.apply(state.legal_moves()[0])        # or a notation string: state.apply("rest")
    text = atelier.dump_position(state)        # position JSON (docs/positions.md)
    again = atelier.load_position(text)

Rules run in C++ (atelier._core); bad input anywhere raises atelier.InputError (a ValueError)
with one line naming the field and the reason.
"""
from __future__ import annotations

from importlib import metadata, resources
from pathlib import Path

from .errors import EditionWarning, InputError
from .games import GAMES, ruleset
from .jsonfmt import check_plain as _check_plain
from .jsonfmt import dumps as _dumps
from .jsonfmt import load_file as _load_file
from .jsonfmt import loads as _loads
from .limits import check_seed
from .viewpoint import apply_in_view
from . import observe as _observe

_observe._install()   # state.observation(seat), state.information_state(seat), Inventors' chance_outcomes()

try:
    __version__ = metadata.version("atelier")
except metadata.PackageNotFoundError:  # running from a source tree
    __version__ = "0.1.0"

__all__ = ["open", "load_position", "dump_position", "position_dict", "board_svg", "apply_in_view",
           "examples", "example_descriptions", "ruleset", "InputError", "EditionWarning", "GAMES",
           "__version__"]


def open(game: str, players: int = 2, seed: int = 0, edition=None, teams=None, **options):  # noqa: A001
    """Configure a game: `players` seats, `teams` per seat (ids) or drawn from `seed`,
    `edition` a JSON file path (None = the bundled default), and the ruleset's own options
    (Leonardo: setup="expert"|"basic", codex=False; Craftsmen: age_rank=[...], 0 the
    youngest). `.start()` gives the start position."""
    seed = check_seed(seed)
    rs = ruleset(game)
    try:
        return rs.open_game(players=players, seed=seed, edition=edition, teams=teams, **options)
    except TypeError:
        known = [k for k in options if k not in rs.open_game.__code__.co_varnames]
        if known:
            raise InputError(f"{known[0]}: not an option of {game}") from None
        raise


def examples() -> dict[str, Path]:
    """Bundled example positions by name (usable as `example:NAME` wherever a position is read)."""
    root = resources.files("atelier") / "data" / "examples"
    return {p.name[:-5]: p for p in sorted(root.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".json") and p.name != "index.json"}


def example_descriptions() -> dict[str, str]:
    """One line per bundled example saying what the position is (data/examples/index.json,
    written by tools/make_examples.py with the positions)."""
    import json

    root = resources.files("atelier") / "data" / "examples"
    return dict(json.loads((root / "index.json").read_text(encoding="utf-8"))["descriptions"])


def _read_source(source):
    """The position document in `source`, checked to be plain JSON data (jsonfmt.check_plain):
    every way in (dict, text, file, example, and the CLI's stdin) passes that one gate."""
    if isinstance(source, dict):
        _check_plain(source, "position", None)   # errors name the field, as the loader's do
        return source
    if isinstance(source, Path):
        return _load_file(source)
    if isinstance(source, str) and source.lstrip().startswith("{"):
        return _loads(source, "position", None)
    if isinstance(source, str) and source.startswith("example:"):
        name = source[len("example:"):]
        ex = examples()
        if name not in ex:
            raise InputError(f"example '{name}': unknown (examples: {', '.join(ex) or 'none'})")
        return _loads(ex[name].read_bytes(), f"example '{name}'")
    if isinstance(source, str):
        return _load_file(Path(source))
    raise InputError(f"position: expected a path, JSON text or dict, got {type(source).__name__}")


def load_position(source, edition=None, seed=0):
    """A State from a position: a dict, JSON text, a file path, or `example:NAME`.

    `edition` (a JSON file path) is the base edition; card data in the position overrides it.
    A viewpoint position (`"viewpoint": seat`, games with hidden information) is filled with
    one determinization drawn from `seed`; the state remembers it is that seat's view."""
    seed = check_seed(seed)
    doc = _read_source(source)
    if not isinstance(doc, dict):
        raise InputError("position: expected a JSON object")
    if "game" not in doc:
        raise InputError(f"game: missing (a position names its game, e.g. \"game\": \"{GAMES[0]}\")")
    rs = ruleset(doc.get("game"))
    ed = None if edition is None else rs.load_edition(edition)
    if rs.HIDDEN_INFORMATION:
        return rs.position_from_dict(doc, edition=ed, seed=seed)
    return rs.position_from_dict(doc, edition=ed)


def _ruleset_of(state):
    # Core State classes live in atelier._core.<ruleset>.
    return ruleset(type(state).__module__.rsplit(".", 1)[-1])


def position_dict(state, viewpoint=None) -> dict:
    """The position of `state` as a plain dict (format 1, docs/positions.md); with `viewpoint`
    a seat, only what that seat knows (games with hidden information)."""
    rs = _ruleset_of(state)
    if rs.HIDDEN_INFORMATION:
        return rs.position_dict(state, viewpoint=viewpoint)
    if viewpoint is not None:
        raise InputError(f"viewpoint: {rs.TITLE} has no hidden information; "
                         "every seat sees the whole position")
    return rs.position_dict(state)


def dump_position(state, viewpoint=None) -> str:
    """The position of `state` as JSON text (format 1, docs/positions.md); `viewpoint` as in
    position_dict."""
    return _dumps(position_dict(state, viewpoint)) + "\n"


def board_svg(state, marks=None) -> str:
    """The board of `state` drawn as SVG text (what its seat knows, for a viewpoint state).
    `marks`: {"played": move, "best": move} in notation; the things each move names are outlined."""
    return _ruleset_of(state).draw(state, marks=marks)
