"""``python -m wordlists build [LANG ...]``: rebuild the committed word lists."""

import argparse
from pathlib import Path

from wordlists.build import REASONS, build_all
from wordlists.sources import LANGUAGES


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, build the lists asked for and print the report."""
    parser = argparse.ArgumentParser(prog="python -m wordlists", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="fetch the sources and write data/{lang}.dawg")
    build.add_argument(
        "languages", nargs="*", metavar="LANG", help=f"any of {' '.join(LANGUAGES)} (default: all)"
    )
    build.add_argument("--workdir", type=Path, help="keep downloads here instead of a temp dir")
    args = parser.parse_args(argv)
    unknown = set(args.languages) - set(LANGUAGES)
    if unknown:
        parser.error(f"no source for {', '.join(sorted(unknown))}; known: {' '.join(LANGUAGES)}")
    reports = build_all(args.languages or list(LANGUAGES), args.workdir)
    for report in reports:
        dropped = ", ".join(f"{r} {report.dropped[r]:,}" for r in REASONS if report.dropped[r])
        print(f"{report.language}: {report.raw:,} raw, {report.kept:,} kept; dropped: {dropped}")


if __name__ == "__main__":
    main()
