"""`atelier examples`: every bundled position with one line saying what it is, kept in
data/examples/index.json, which tools/make_examples.py writes beside the positions."""
import json
import sys
from pathlib import Path

import atelier
from cli_helpers import run, strict_json

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def test_every_example_has_a_one_line_description():
    about = atelier.example_descriptions()
    assert set(about) == set(atelier.examples()) and "index" not in atelier.examples()
    for name, text in about.items():
        assert text.strip() and "\n" not in text, name
        title = {"inventors": "Legendary Inventors", "leonardo": "Leonardo da Vinci", "craftsmen": "Craftsmen"}
        assert text.startswith(title[name.split("-")[0]] + ", "), (name, text)


def test_the_listing_and_its_json():
    lines = run("examples").stdout.splitlines()
    about = atelier.example_descriptions()
    assert len(lines) == len(about)
    for line in lines:
        name, text = line.split(None, 1)
        assert name.startswith("example:") and text == about[name[len("example:"):]]
    doc = strict_json(run("examples", "--json").stdout)
    assert all(e["description"] == about[e["name"][len("example:"):]] for e in doc["examples"])


def test_the_generator_and_the_index_agree():
    sys.path.insert(0, str(TOOLS))
    try:
        import make_examples
    finally:
        sys.path.remove(str(TOOLS))
    index = json.loads((Path(atelier.__file__).parent / "data" / "examples" / "index.json").read_text())
    assert index == {"format": make_examples.INDEX_FORMAT, "descriptions": make_examples.DESCRIPTIONS}
