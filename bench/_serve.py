"""``haki serve`` with the benchmark recipes registered (bench/recipes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from haki.cli.main import cli
from recipes import register_all

if __name__ == "__main__":
    register_all()
    cli(["serve", *sys.argv[1:]], prog_name="haki")
