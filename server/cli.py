"""The ``tilestream`` command."""

import argparse
import logging
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

import editions
from rules import Board, GameError
from rules import gcg as gcg_records
from server.protocol import JOINS_PER_MINUTE

MOVE_HELP = "a move as START DIRECTION LETTERS, e.g. 'H4 across PLANK' (blanks in lower case)"


def score(edition_code: str, moves: Sequence[str], show_board: bool) -> int:
    """Lay ``moves`` one after another on an empty board, printing each with its formulas."""
    board = Board.empty(editions.get(edition_code))
    for move in moves:
        try:
            start, direction, letters = move.split()
        except ValueError:
            print(f"error: {move!r} is not {MOVE_HELP}", file=sys.stderr)
            return 2
        play = board.place(start, direction, letters)
        result = board.score(play)
        print(f"{start} {direction} {letters}: {result.total}")
        for word in result.words:
            print(f"  {word.word:<15} {word.formula}")
        if result.bingo:
            print(f"  {'bingo':<15} +{result.bingo}")
        board = board.apply(play)
    if show_board:
        print("\n".join(board.rows()))
    return 0


def check_gcg(paths: Sequence[str], edition: str | None) -> int:
    """Replay GCG files, printing every line with the file's score beside ours.

    Returns 0 when every file replays to its own scores, 1 when any line or total differs
    (or a line could not be used), 2 when any file cannot be read; every file is processed.
    """
    status = 0
    for path in paths:
        try:
            with open(path, "rb") as file:
                imported = gcg_records.to_events(gcg_records.read(file.read()), edition)
        except (OSError, GameError) as error:
            print(f"error: {path}: {error}", file=sys.stderr)
            status = 2
            continue
        print("\n".join(gcg_report(path, imported)))
        if imported.differs:
            status = max(status, 1)
    return status


def gcg_report(path: str, imported: gcg_records.Imported) -> list[str]:
    """The lines ``tilestream gcg`` prints for one file: a table of lines, problems, totals."""
    players = imported.players
    nick = max([len("player"), *(len(p.nick) for p in players)])
    play = max([len("play"), *(len(check.entry.play) for check in imported.checks)])
    out = [f"{path} ({imported.edition}): {' v '.join(p.name for p in players)}"]
    out.append(f"{'line':>6}  {'player':<{nick}}  {'play':<{play}}  file  ours  total  ours")
    for check in imported.checks:
        entry = check.entry
        ours = "?" if check.points is None else f"{check.points:+d}"
        total = "?" if check.total is None else str(check.total)
        mark = "  differs" if check.differs else ""
        out.append(
            f"{entry.number:>6}  {entry.nick:<{nick}}  {entry.play:<{play}}  "
            f"{entry.score:>+4d}  {ours:>4}  {entry.total:>5}  {total:>4}{mark}"
        )
    out += [f"  line {line}: {message}" for line, message in imported.problems]
    finals = ", ".join(
        f"{p.nick} {theirs} (ours {ours})"
        for p, theirs, ours in zip(players, imported.file_totals, imported.totals, strict=True)
    )
    out.append(f"  final: {finals}: {'DIFFERS' if imported.differs else 'same'}")
    return out


def lan_address() -> str | None:
    """This computer's address on its network, for the phones; None when it has none.

    Connecting a UDP socket sends nothing: it only asks the system which address it
    would use for that route.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere for real
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def serve(host: str, port: int, data: Path, redis_url: str | None, joins: int) -> int:
    """Run the table server until interrupted."""
    import uvicorn

    from server.app import Settings, create_app
    from server.protocol import MAX_MESSAGE

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    if redis_url:
        from server.store_redis import RedisStore

        settings = Settings(RedisStore(redis_url), "redis", joins_per_minute=joins)
    else:
        from server.store_sqlite import SqliteStore

        store = SqliteStore(data / "tilestream.db")
        settings = Settings(store, f"sqlite ({data})", joins_per_minute=joins)
    everywhere = host in ("0.0.0.0", "::")
    print(f"Tilestream: open http://{'localhost' if everywhere else host}:{port}", flush=True)
    if everywhere and (address := lan_address()):
        print(f"Phones on this network: http://{address}:{port}", flush=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=MAX_MESSAGE,
        ws_ping_interval=10,  # a phone gone silent is let go within 20 s, freeing its buffers
        ws_ping_timeout=10,
        log_level="warning",
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="tilestream", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    scorer = commands.add_parser(
        "score",
        help="score moves laid one after another on an empty board",
        description="Score moves laid one after another on an empty board, "
        "with the formula under every word.",
    )
    scorer.add_argument("edition", choices=editions.codes(), help="the tile set")
    scorer.add_argument("moves", nargs="+", metavar="MOVE", help=MOVE_HELP)
    scorer.add_argument("--board", action="store_true", help="print the board at the end")
    checker = commands.add_parser(
        "gcg",
        help="replay GCG game records and compare their scores with ours",
        description="Replay GCG game records on a new sheet: every line with the file's score "
        "beside ours, and the final totals. Exits 1 when anything differs, 2 when a file "
        "cannot be read.",
    )
    checker.add_argument("files", nargs="+", metavar="FILE", help="a .gcg file")
    checker.add_argument(
        "--edition",
        choices=editions.codes(),
        help="the tile set (default: the file's #lexicon, else English)",
    )
    server = commands.add_parser(
        "serve",
        help="run the table server (phone app at /, API at /api, live sheets at /ws)",
        description="Run the table server. With no settings it keeps every table in an SQLite "
        "file in the data folder; with a Redis URL several server processes (on several hosts) "
        "serve the same tables.",
    )
    server.add_argument(
        "--host",
        default="0.0.0.0",
        help="address to listen on (default: every address, so phones in the room can reach it)",
    )
    server.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    server.add_argument(
        "--data",
        type=Path,
        default=Path("data"),
        help="folder for the SQLite store (default: ./data)",
    )
    server.add_argument(
        "--redis",
        default=os.environ.get("REDIS_URL"),
        metavar="URL",
        help="keep tables in Redis Streams at URL, e.g. redis://localhost:6379/0 "
        "(default: $REDIS_URL; unset: SQLite)",
    )
    server.add_argument(
        "--joins-per-minute",
        type=int,
        default=JOINS_PER_MINUTE,
        metavar="N",
        help=f"join attempts allowed per client address in a minute (default: {JOINS_PER_MINUTE};"
        " raise it when many phones reach the server through one address)",
    )
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args.host, args.port, args.data, args.redis, args.joins_per_minute)
    if args.command == "gcg":
        return check_gcg(args.files, args.edition)
    try:
        return score(args.edition, args.moves, args.board)
    except GameError as error:
        print(f"error: {error} [{error.code}]", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
