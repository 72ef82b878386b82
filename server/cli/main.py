"""The ``tilestream`` command."""

import argparse
import asyncio
import contextlib
import dataclasses
import fcntl
import logging
import logging.config
import os
import signal
import socket
import ssl
import sys
import urllib.parse
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import editions
import tilestream
from rules import Board, GameError
from rules.gcg import read as gcg_records
from server.cli import best_moves as top
from server.live.messages import JOINS_PER_MINUTE, TABLE_JOINS_PER_MINUTE

if TYPE_CHECKING:
    from server.stores.protocols import Store

log = logging.getLogger("tilestream")

DESCRIPTION = (
    "Tilestream, the table companion for the 15×15 crossword tile game: the table server "
    "(serve), the score calculator (score), the best moves of a position (top), GCG records "
    "replayed (gcg), and the move generator compiled ahead of use (compile)."
)

LOCK = "tilestream.lock"  # in the data folder: one server per folder
STORE_CHECK_TIMEOUT = 10.0  # seconds the store has to open at start
KEEP_ALIVE = 5  # seconds an idle HTTP connection is kept between requests
HELLO_TIMEOUT = 5.0  # seconds a websocket has to say hello (server.http.app's default too)
HEADER_TIMEOUT = 10.0  # seconds a request has for its headers, and again for its body
RETENTION_DAYS = 30  # days an idle table is kept (server.jobs.retention's default too; P-11)

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


class Refused(Exception):
    """A server that cannot start; its message is the one sentence printed."""


@dataclasses.dataclass(frozen=True)
class ServeOptions:
    """What ``tilestream serve`` is told."""

    host: str = "0.0.0.0"
    port: int = 8000
    data: Path = Path("data")
    redis: str | None = None
    joins_per_minute: int = JOINS_PER_MINUTE
    forwarded_allow_ips: str = ""
    hello_timeout: float = HELLO_TIMEOUT
    header_timeout: float = HEADER_TIMEOUT
    retention_days: int = RETENTION_DAYS
    table_joins_per_minute: int = TABLE_JOINS_PER_MINUTE
    access_log: bool = False
    certfile: Path | None = None
    keyfile: Path | None = None


LINE = "%(asctime)s %(levelname)s %(message)s"  # every line says when


def log_config(access_log: bool) -> dict[str, Any]:
    """Logging for the server's process: its own lines, uvicorn's warnings and, when asked,
    a line per request (uvicorn's access log), each with its time, on stderr."""
    handler = {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    quiet = {"handlers": ["stderr"], "level": "WARNING", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"format": LINE}},
        "handlers": {"stderr": handler},
        "loggers": {
            "tilestream": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn": quiet,
            "uvicorn.error": quiet,
            "uvicorn.access": {**quiet, "level": "INFO" if access_log else "WARNING"},
        },
    }


def serve(options: ServeOptions) -> int:
    """Run the table server until interrupted (Ctrl-C, SIGTERM: status 0); 1, with one
    sentence, when it cannot start."""
    logging.config.dictConfig(log_config(options.access_log))
    try:
        with _data_folder(options):
            tls = _tls(options)
            check_store(options)
            listener = listen(options.host, options.port)
            _run(options, listener, tls)
    except Refused as refused:
        print(f"tilestream: {refused}", file=sys.stderr, flush=True)
        return 1
    return 0


def _tls(options: ServeOptions) -> bool:
    """Whether to serve https: a certificate and its key, checked before anything listens
    (a missing file, a key that is not the certificate's). Raises Refused."""
    if options.certfile is None and options.keyfile is None:
        return False
    if options.certfile is None or options.keyfile is None:
        raise Refused("https needs both --certfile and --keyfile")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
            options.certfile, options.keyfile
        )
    except FileNotFoundError as error:
        raise Refused(f"cannot read {error.filename}: no such file") from None
    except (OSError, ssl.SSLError) as error:
        reason = getattr(error, "reason", None) or error.strerror or str(error)
        raise Refused(
            f"the certificate {options.certfile} and key {options.keyfile} cannot serve https"
            f" ({reason})"
        ) from None
    return True


@contextlib.contextmanager
def _data_folder(options: ServeOptions) -> Iterator[None]:
    """Hold the data folder's lock for as long as the server runs (SQLite only: with Redis
    the folder holds nothing, and several processes on one host are the point)."""
    if options.redis:
        yield
        return
    data = options.data
    try:
        data.mkdir(parents=True, exist_ok=True)
        lock = (data / LOCK).open("a")
    except OSError as error:
        raise Refused(f"cannot write to the data folder {data}: {error.strerror}") from None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Refused(f"another Tilestream server is using the data folder {data}") from None
        yield  # the lock goes with the process, however it ends


def _store(options: ServeOptions) -> "Store":
    if options.redis:
        from server.stores.redis_streams import RedisStore

        return RedisStore(options.redis)
    from server.stores.sqlite import SqliteStore

    return SqliteStore(options.data / "tilestream.db")


def check_store(options: ServeOptions) -> None:
    """Open the store, write to it and close it again: a server that would answer every
    phone with ``store_unavailable`` had better not start. Raises Refused."""
    if options.redis:
        where = f"Redis at {_without_password(options.redis)}"
    else:
        where = f"the database {options.data / 'tilestream.db'}"

    async def check() -> bool:
        store = _store(options)
        try:
            await store.start()
            return await store.writable()
        finally:
            with contextlib.suppress(Exception):
                await store.close()

    try:
        writable = asyncio.run(asyncio.wait_for(check(), STORE_CHECK_TIMEOUT))
    except TimeoutError:
        raise Refused(f"{where} did not answer within {STORE_CHECK_TIMEOUT:g} s") from None
    except Exception as error:  # whatever the store says, as one sentence: no traceback
        reason = str(error) or type(error).__name__
        raise Refused(f"cannot open {where}: {reason}") from None
    if not writable:
        raise Refused(f"{where} takes no writes (read-only, full or locked)")


def _without_password(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is one sentence. Raises Refused."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family, backlog=2048)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise Refused(f"cannot listen on {host}:{port}: {reason}") from None
    # asyncio turns Nagle's algorithm off only on sockets whose protocol says TCP, and an
    # accepted socket takes the listener's: create_server leaves it 0. With Nagle on, a frame
    # written while the phone has not yet acknowledged the one before it waits for that
    # acknowledgement — up to 40 ms of delayed ACK — so every change would reach phones late.
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, listener.detach())


def _run(options: ServeOptions, listener: socket.socket, tls: bool) -> None:
    import uvicorn

    from server.http import collector
    from server.http.app import Settings, create_app
    from server.http.h11_deadline import with_header_timeout
    from server.http.ws_reading import WebSocketProtocol
    from server.live.messages import MAX_MESSAGE

    settings = Settings(
        _store(options),
        "redis" if options.redis else "sqlite",
        joins_per_minute=options.joins_per_minute,
        table_joins_per_minute=options.table_joins_per_minute,
        hello_timeout=options.hello_timeout,
        body_timeout=options.header_timeout,
        retention_days=options.retention_days,
    )
    host, port = options.host, options.port
    everywhere = host in ("0.0.0.0", "::")
    scheme = "https" if tls else "http"
    print(f"Tilestream: open {scheme}://{'localhost' if everywhere else host}:{port}", flush=True)
    trusted = options.forwarded_allow_ips.strip()
    if trusted:  # behind a proxy (the compose file's Caddy): this address is not the phones'
        print(f"Phones open the proxy's address; requests come through {trusted}", flush=True)
    elif everywhere and (address := lan_address()):
        print(f"Phones on this network: {scheme}://{address}:{port}", flush=True)
        if not tls:  # README, "HTTPS on a club's network"
            print("  (plain http: no install or offline reload there; --certfile for https)")
    config = uvicorn.Config(
        create_app(settings),
        # h11 with a deadline for request headers (silent sockets, slowloris)
        http=with_header_timeout(options.header_timeout),
        # uvicorn's websockets-sansio (whose line for an invalid UTF-8 frame server.http.logbook
        # counts), reading on while the app waits for a message
        ws=WebSocketProtocol,
        ws_max_size=MAX_MESSAGE,
        # Compression per phone cost more than anything else and ~80 KiB a phone: a state is
        # gzipped once for every phone instead, and a change is small (server.live.sheets).
        ws_per_message_deflate=False,
        ws_ping_interval=10,  # a phone gone silent is let go within 20 s, freeing its buffers
        ws_ping_timeout=10,
        timeout_keep_alive=KEEP_ALIVE,
        # X-Forwarded-For only from the proxies named: uvicorn would believe any local peer
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        log_config=log_config(options.access_log),
        access_log=options.access_log,
        server_header=False,  # names the software to every client, on every response
        ssl_certfile=options.certfile if tls else None,
        ssl_keyfile=options.keyfile if tls else None,
    )
    collector.settle()  # the process's own: a server in a test's process keeps its collector
    # uvicorn shuts down on SIGINT or SIGTERM, then raises the signal again with the handler
    # it found: Ctrl-C's KeyboardInterrupt, and for SIGTERM this one — not the default,
    # which would end the process as killed (status 143) after a clean stop.
    signal.signal(signal.SIGTERM, _terminated)
    why = ""
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        why = " (SIGINT)"
    except Terminated:
        why = " (SIGTERM)"
    log.info("tilestream stopped%s", why)


class Terminated(Exception):
    """SIGTERM: stop as after Ctrl-C."""


def _terminated(signum: int, frame: object) -> None:
    raise Terminated


def _days(text: str) -> int:
    """A whole number of days, 0 or more (argparse's type)."""
    try:
        days = int(text)
    except ValueError:
        days = -1
    if days < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days (0 or more)")
    return days


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="tilestream", description=DESCRIPTION)
    version = f"tilestream {tilestream.__version__}"
    parser.add_argument("--version", action="version", version=version)
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
        "serve the same tables. Tables idle for --retention-days are deleted.",
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
        help="keep tables in Redis Streams at URL, e.g. redis://localhost:6379/0 or, on "
        "Redis's machine, unix:///run/redis/redis-server.sock?db=0; or in a Redis Cluster: "
        "redis+cluster://node:6379 (default: $REDIS_URL; unset: SQLite)",
    )
    server.add_argument(
        "--joins-per-minute",
        type=int,
        default=JOINS_PER_MINUTE,
        metavar="N",
        help=f"join attempts with a code that names no table allowed per client address in a "
        f"minute: the rate codes can be guessed at (default: {JOINS_PER_MINUTE})",
    )
    server.add_argument(
        "--table-joins-per-minute",
        type=int,
        default=TABLE_JOINS_PER_MINUTE,
        metavar="N",
        help=f"join requests allowed per table in a minute, from any address; a phone makes two "
        f"(default: {TABLE_JOINS_PER_MINUTE}: a room of 200 phones in a minute)",
    )
    server.add_argument(
        "--forwarded-allow-ips",
        default=os.environ.get("FORWARDED_ALLOW_IPS", ""),
        metavar="IPS",
        help="proxies whose X-Forwarded-For names the client, comma-separated ('*': any) "
        "(default: $FORWARDED_ALLOW_IPS; unset: none, the peer's own address counts)",
    )
    server.add_argument(
        "--hello-timeout",
        type=float,
        default=HELLO_TIMEOUT,
        metavar="S",
        help=f"seconds a new websocket has to say hello before it is closed "
        f"(default: {HELLO_TIMEOUT:g})",
    )
    server.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT,
        metavar="S",
        help=f"seconds a connection has to send a request's headers, and then its body "
        f"(default: {HEADER_TIMEOUT:g})",
    )
    server.add_argument(
        "--retention-days",
        type=_days,
        default=RETENTION_DAYS,
        metavar="N",
        help=f"delete a table (its log, code and devices) once it has been idle for N days, "
        f"swept every hour (default: {RETENTION_DAYS}; 0: keep every table for ever)",
    )
    server.add_argument(
        "--certfile",
        type=Path,
        metavar="FILE",
        help="serve https with this certificate (PEM, the chain after it); with --keyfile",
    )
    server.add_argument("--keyfile", type=Path, metavar="FILE", help="the certificate's key")
    server.add_argument(
        "--access-log", action="store_true", help="log a line for every request (default: off)"
    )
    server.add_argument(
        "--wordlist",
        action="append",
        default=[],
        metavar="EDITION=FILE",
        help="judge an edition's language by a plain text list (one word a line); repeatable",
    )
    top.add_parser(commands)
    args = parser.parse_args(argv)
    if args.command == "top":
        return top.run(args)
    if args.command == "compile":
        return top.compile_generator()
    if args.command == "serve":
        if status := top.use_wordlists(args.wordlist):
            return status
        return serve(
            ServeOptions(
                args.host,
                args.port,
                args.data,
                args.redis,
                args.joins_per_minute,
                args.forwarded_allow_ips,
                args.hello_timeout,
                args.header_timeout,
                retention_days=args.retention_days,
                table_joins_per_minute=args.table_joins_per_minute,
                access_log=args.access_log,
                certfile=args.certfile,
                keyfile=args.keyfile,
            )
        )
    if args.command == "gcg":
        return check_gcg(args.files, args.edition)
    try:
        return score(args.edition, args.moves, args.board)
    except GameError as error:
        print(f"error: {error} [{error.code}]", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
