"""`python -m atelier ...` is the `atelier` command."""
from .cli import main

main(prog_name="atelier")
