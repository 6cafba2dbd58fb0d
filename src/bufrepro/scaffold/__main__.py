"""`python -m bufrepro.scaffold S --title T`: write a new study's stubs and join it to the site."""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from bufrepro.scaffold import shared, write

# A package name short enough for the templates' lines (at most 100 characters with it).
NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")
UNKNOWN = "TEMPLATE - not yet transcribed"


def parser() -> argparse.ArgumentParser:
    """The command's flags."""
    p = argparse.ArgumentParser(prog="python -m bufrepro.scaffold", description=__doc__)
    p.add_argument("name", help="the study's name (a Python package name: lower case)")
    p.add_argument("--title", required=True, help="the paper's title")
    p.add_argument("--authors", default=UNKNOWN, help="the paper's authors")
    p.add_argument("--venue", default=UNKNOWN, help="where it was published")
    p.add_argument("--year", default=UNKNOWN, help="its year")
    p.add_argument("--link", default="none found", help="its address")
    p.add_argument("--paper", default="", help="its id (default: the next free one)")
    p.add_argument("--repo", type=Path, default=Path.cwd(), help="the repository (default: .)")
    return p


def words(args: argparse.Namespace) -> dict[str, str]:
    """Every placeholder's word for the templates."""
    paper = args.paper or shared.next_paper(args.repo)
    digest = hashlib.sha256(args.name.encode()).hexdigest()[:16]
    return {
        "S": args.name,
        "CLASS": "".join(part.capitalize() for part in args.name.split("_")),
        "TITLE": args.title,
        "TITLE_YAML": json.dumps(args.title, ensure_ascii=False),
        "TITLE_PY": write.python_string(f"{args.title} (TEMPLATE: paper {paper})"),
        "AUTHORS": args.authors,
        "VENUE": args.venue,
        "YEAR": args.year,
        "LINK": args.link,
        "PAPER": paper,
        "SEEDFILE": f"{paper}_{digest}.txt",
        "ROWS": "2",
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Write the files and edit the shared ones; print each path."""
    args = parser().parse_args(argv)
    if not NAME.fullmatch(args.name):
        sys.exit(f"scaffold: {args.name!r} is not a study name ({NAME.pattern})")
    if (args.repo / "src" / "bufrepro" / "studies" / args.name).exists():
        sys.exit(f"scaffold: the study {args.name!r} exists")
    filled = words(args)
    made = write.write_files(args.repo, filled)
    edited = shared.join_shared(args.repo, filled)
    for path in made:
        print(f"wrote  {path.relative_to(args.repo)}")
    for path in edited:
        print(f"edited {path.relative_to(args.repo)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
