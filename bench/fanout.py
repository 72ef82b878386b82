"""Websocket fan-out: tables of four phones on loopback against real ``tilestream serve``.

Run: ``python -m bench.fanout`` (about 2 minutes) or ``python -m bench.fanout --quick``
(about 40 s: shorter loads; SQLite, Redis ``always`` on one and two processes, the echo and
the 2,000 phones).

For each setup — SQLite; Redis with its append-only file fsynced ``always`` (on disk before
Redis answers) and ``everysec``, each on one and on two server processes, which reach it
through its Unix socket as a server on Redis's own machine does, and ``always`` on one
process once more over TCP, as from another machine or container; SQLite again with
phones that do not offer permessage-deflate (the server accepts it from none: a check that
nothing is compressed per phone) — the benchmark
starts the servers (and a throwaway redis-server on a free port), then a separate client
process (``bench.fanout_client``) creates 100 tables per server process over HTTP, opens four
phones per table (with two servers, two phones of every table on each) and the host's
phone sends commands. Three loads each: ``max`` (every table sends its next command once
its last phone has the previous one), where a process must record 2,500 events a second
on SQLite and on Redis; 1,000 commands a second per server process, where p99 must stay
under 25 ms; and half of it.

The baseline is the bare ceiling in the same run: the same uvicorn settings serving a
Starlette app whose only websocket relays each command to the table's four sockets as the
message a phone gets for it — a real mid-game sheet's change, after a first whole state —
(and answers ``accepted``), with no store, no rules and no per-phone queue. ``× echo`` is a
``max`` row's events/s over the echo's; ``µs/ev`` the server processes' CPU time per recorded
event, and ``cpu ×`` that over the echo's at the same load (the goal, at 1,000 a second: at
most 2.2 times; at ``max`` the echo is bound by the client, not by its server).

Every setup runs ``--runs`` times (3; 1 with ``--quick``), in rounds of every setup with the
echo in each, and each figure is the median of its runs; the errors of a row are the worst
run's.

Last, 2,000 phones (500 tables × 4) on one SQLite process: each must get its first
state, stay connected while held, and still get the sheet quickly while every table sends
a command every 2 s; the server's resident memory is shown before and after.

The client is one Python process on the same 2-core machine as the servers: its CPU share
is printed beside the servers' and Redis's, and beside what the rest of the machine used
meanwhile, so a row limited by the client, or disturbed by other work, shows as such.
"""

import argparse
import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from statistics import median
from typing import NamedTuple

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bench.fanout_client import GAME, Figures, Load, Outcome, Plan, raise_fd_limit
from events import commands as c
from rules.table.record import record
from rules.table.state import State
from rules.table.views import view
from server.live.messages import MAX_MESSAGE, Accepted, StateMessage, encoder
from server.live.sheets import Version

ROOT = Path(__file__).resolve().parent.parent
TABLES = 100  # per server process
GOAL = 1_000  # commands a second per server process at which p99 must stay under P99_GOAL
P99_GOAL = 25.0  # ms
MAX_GOAL = 2_500  # recorded events a second per process at max, on SQLite and on Redis
CPU_GOAL = 2.2  # server CPU per recorded event at max, at most this many times the echo's
PHONES = 2_000
CLIENT_BOUND = 90  # % of a core: the client process, not the server, set this row's pace
OTHERS_BUSY = 25  # % of a core used by processes outside the benchmark: figures are noisy
SERVE = [sys.executable, "-m", "server.cli.main", "serve"]  # `tilestream serve`, from this tree


class Setup(NamedTuple):
    """Servers to start: ``store`` is sqlite, echo, or a Redis appendfsync policy."""

    store: str
    processes: int
    deflate: bool = True  # phones offer permessage-deflate, as browsers do
    tcp: bool = False  # the servers reach Redis over TCP, not through its Unix socket

    @property
    def name(self) -> str:
        label = {"sqlite": "sqlite", "echo": "echo"}.get(self.store, f"redis {self.store}")
        return (
            f"{label} ×{self.processes}{' tcp' if self.tcp else ''}"
            f"{'' if self.deflate else ' no deflate'}"
        )


# --- processes -----------------------------------------------------------------------------


def free_ports(count: int) -> list[int]:
    """Ports on 127.0.0.1 that nothing listens on just now."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(p.getsockname()[1]) for p in probes]


def spawn(command: list[str], log: Path, root: Path = ROOT) -> subprocess.Popen[bytes]:
    """Start ``command`` in ``root``: ``python -m`` there runs that tree's code."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            command,
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=raise_fd_limit,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a process we started: SIGINT (uvicorn's clean shutdown), then SIGKILL."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_ready(port: int, process: subprocess.Popen[bytes], log: Path, redis: bool = False) -> None:
    """Wait until the process answers (HTTP /health, or PING for Redis)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        with contextlib.suppress(OSError, http.client.HTTPException):
            if redis:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            else:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                connection.request("GET", "/health")
                if connection.getresponse().status == 200:
                    return
        time.sleep(0.05)
    tail = log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"{log.stem} did not come up on port {port}:\n{tail}")


def start_redis(
    folder: Path, fsync: str, stack: contextlib.ExitStack, unix: bool = False
) -> tuple[int, str]:
    """A throwaway redis-server with an append-only file: its pid and URL (its Unix socket's
    with ``unix``, else its TCP port's)."""
    folder.mkdir(parents=True)
    (port,) = free_ports(1)
    log = folder / "redis.log"
    path = folder / "redis.sock"
    process = spawn(
        [
            "redis-server",
            "--bind", "127.0.0.1",
            "--port", str(port),
            "--unixsocket", str(path),
            "--dir", str(folder),
            "--save", "",
            "--appendonly", "yes",
            "--appendfsync", fsync,
            "--daemonize", "no",
        ],
        log,
    )  # fmt: skip
    stack.callback(stop, process)
    wait_ready(port, process, log, redis=True)
    return process.pid, f"unix://{path}?db=0" if unix else f"redis://127.0.0.1:{port}/0"


def start_servers(
    setup: Setup, work: Path, stack: contextlib.ExitStack, root: Path = ROOT
) -> tuple[list[int], dict[str, list[int]]]:
    """The setup's server processes (and Redis), from the tree at ``root``: their ports, and
    pids by role."""
    pids: dict[str, list[int]] = {}
    redis_url = None
    if setup.store not in ("sqlite", "echo"):
        redis_pid, redis_url = start_redis(work / "redis", setup.store, stack, not setup.tcp)
        pids["redis"] = [redis_pid]
    ports = free_ports(setup.processes)
    started = []
    for number, port in enumerate(ports):
        if setup.store == "echo":
            command = [sys.executable, "-m", "bench.fanout", "echo", "--port", str(port)]
        else:
            command = [*SERVE, "--host", "127.0.0.1", "--port", str(port),
                       "--data", str(work / "data")]  # fmt: skip
            command += ["--redis", redis_url] if redis_url else []
        log = work / f"server-{number}.log"
        process = spawn(command, log, root)
        stack.callback(stop, process)
        started.append((port, process, log))
    for port, process, log in started:
        wait_ready(port, process, log)
    pids["server"] = [process.pid for _, process, _ in started]
    return ports, pids


def median_figures(runs: list[Figures]) -> Figures:
    """One load's figures over several runs: each the median of the runs', the errors the
    worst run's, a latency None when any run never got every command to every phone."""
    worst = max(runs, key=lambda f: (f.dropped + f.unfinished, sum(f.rejected.values())))
    p50s, p99s = [f.p50 for f in runs], [f.p99 for f in runs]
    return msgspec.structs.replace(
        worst,
        events=median([f.events for f in runs]),
        pushes=median([f.pushes for f in runs]),
        p50=None if None in p50s else median([p for p in p50s if p is not None]),
        p99=None if None in p99s else median([p for p in p99s if p is not None]),
        cpu={role: median([f.cpu.get(role, 0.0) for f in runs]) for role in worst.cpu},
    )


def median_outcome(runs: list[Outcome]) -> Outcome:
    """Several runs of a setup as one: median figures, the fewest phones and tables ready."""
    first = runs[0]
    return msgspec.structs.replace(
        first,
        setup=median([o.setup for o in runs]),
        initial=min(o.initial for o in runs),
        held=min(o.held for o in runs),
        ready=min(o.ready for o in runs),
        rss_kb={
            moment: [round(median([o.rss_kb[moment][i] for o in runs])) for i in range(len(kb))]
            for moment, kb in first.rss_kb.items()
        },
        loads=[median_figures([o.loads[i] for o in runs]) for i in range(len(first.loads))],
    )


def run(setup: Setup, tables: int, loads: list[Load], warm: float, measure: float,
        hold: float = 0.0, root: Path = ROOT) -> Outcome:  # fmt: skip
    """Start the setup's processes (from the tree at ``root``), drive them from a client
    process, stop them."""
    with tempfile.TemporaryDirectory(prefix="fanout-") as folder, contextlib.ExitStack() as stack:
        work = Path(folder)
        ports, pids = start_servers(setup, work, stack, root)
        kind = "echo" if setup.store == "echo" else "tilestream"
        plan = Plan(kind, ports, tables, loads, warm, measure, pids, hold, setup.deflate)
        client = subprocess.run(
            [sys.executable, "-m", "bench.fanout_client", msgspec.json.encode(plan).decode()],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            timeout=900,  # 2,000 phones take a while to open on 2 cores
            check=False,
        )
        if client.returncode != 0:
            logs = "\n".join(p.read_text(errors="replace")[-1500:] for p in work.glob("*.log"))
            raise RuntimeError(f"the client failed for {setup.name}; server logs:\n{logs}")
        return msgspec.json.decode(client.stdout.splitlines()[-1], type=Outcome)


# --- the echo ceiling ----------------------------------------------------------------------


def echo_app() -> Starlette:
    """Starlette with one websocket that relays each command to its table's sockets."""

    class Message(msgspec.Struct):
        type: str
        table: str = ""
        id: str = ""

    decoder = msgspec.json.Decoder(Message)
    whole, change = mid_game()
    sheet = msgspec.Raw(whole)
    # The change as the server encodes it, but for its seqs: the part after them, as it is.
    rest = change[change.index(',"set":') :]
    rooms: defaultdict[str, set[WebSocket]] = defaultdict(set)
    seqs: defaultdict[str, int] = defaultdict(int)

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        room = None
        try:
            while True:
                message = decoder.decode(await ws.receive_text())
                if message.type == "hello":
                    room = message.table
                    rooms[room].add(ws)
                    await ws.send_text(encoder.encode(StateMessage(seqs[room], sheet)).decode())
                elif room is not None:
                    seqs[room] += 1
                    seq = seqs[room]
                    await ws.send_text(encoder.encode(Accepted(message.id, seq)).decode())
                    text = f'{{"type":"change","after":{seq - 1},"seq":{seq}{rest}'
                    for peer in list(rooms[room]):
                        with contextlib.suppress(Exception):
                            await peer.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            if room is not None:
                rooms[room].discard(ws)

    async def health(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    return Starlette(routes=[Route("/health", health), WebSocketRoute("/ws", echo)])


def mid_game() -> tuple[bytes, str]:
    """The view a phone has halfway through a benchmark game, and the change message for
    the turn that made it: what the echo sends."""
    state, _ = record(State(), c.StartGame("en", players=("Ann", "Bob", "Cas", "Dee")))
    before = state
    for n in range(1, GAME // 2):
        command = c.Pass() if n % 5 == 0 else c.EnterPoints((n * 7) % 60 + 2)
        before, (state, _) = state, record(state, command)
    made = Version(state.seq, view(state), Version(before.seq, view(before), None))
    change = made.change()
    assert isinstance(change, str), "a turn's change is small: text"
    return made.json(), change


def serve_echo(port: int) -> None:
    """Serve the echo app with the uvicorn settings of ``tilestream serve`` (server/cli/main.py)."""
    import uvicorn

    raise_fd_limit()
    uvicorn.run(echo_app(), host="127.0.0.1", port=port, ws_max_size=MAX_MESSAGE,
                ws_per_message_deflate=False, ws_ping_interval=10, ws_ping_timeout=10,
                log_level="warning")  # fmt: skip


# --- the report ----------------------------------------------------------------------------


def ms(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f}"


def errors(f: Figures) -> list[str]:
    """What went wrong in a load: refusals, dropped phones, commands never on every phone."""
    found = [f"refused {code} ×{n}" for code, n in f.rejected.items()]
    found += [f"{f.dropped} phones dropped"] if f.dropped else []
    return found + ([f"{f.unfinished} of {f.commands} unfinished"] if f.unfinished else [])


def _cpu(f: Figures) -> str:
    roles = ("server", "redis", "client", "other")
    return "/".join(f"{f.cpu[r]:.0f}" if r in f.cpu else "–" for r in roles)


def cpu_per_event(f: Figures) -> float:
    """The server processes' CPU time per recorded event, µs."""
    return f.cpu["server"] * 10_000 / f.events if f.events else float("inf")


def echo_of(results: list[tuple[Setup, Outcome]], setup: Setup, load: str) -> Figures | None:
    """The echo's row of ``load`` the setup's phones compare with (the same deflate offer)."""
    for echo, outcome in results:
        if echo.store == "echo" and echo.deflate == setup.deflate:
            return next((f for f in outcome.loads if f.name == load), None)
    return None


def report(results: list[tuple[Setup, Outcome]]) -> None:
    """One line per setup and load, with the ``max`` rows' share of the echo ceiling."""
    print(
        f"{'setup':<22} {'load':<20} {'events/s':>9} {'pushes/s':>9} {'p50 ms':>7}"
        f" {'p99 ms':>7} {'× echo':>7} {'µs/ev':>6} {'cpu ×':>6}"
        "  cpu % srv/redis/client/other  notes"
    )
    for setup, outcome in results:
        for f in outcome.loads:
            echo = echo_of(results, setup, f.name)
            share = f"{f.events / echo.events:.2f}" if echo and f.offered is None else ""
            cost = f"{cpu_per_event(f) / cpu_per_event(echo):.2f}" if echo else ""
            notes = errors(f)
            notes += (
                ["client-bound"] if f.offered is None and f.cpu["client"] >= CLIENT_BOUND else []
            )
            notes += ["others busy"] if f.cpu["other"] >= OTHERS_BUSY else []
            print(
                f"{setup.name:<22} {f.name:<20} {f.events:>9,.0f} {f.pushes:>9,.0f}"
                f" {ms(f.p50):>7} {ms(f.p99):>7} {share:>7} {cpu_per_event(f):>6.0f} {cost:>6}"
                f"  {_cpu(f):<28} {', '.join(notes)}"
            )
        if outcome.refused or outcome.ready < outcome.phones // 4:
            refused = ", ".join(f"{code} ×{n}" for code, n in outcome.refused.items())
            print(
                f"{'':<22} setup: {outcome.initial} of {outcome.phones} phones got a first state,"
                f" {outcome.ready} of {outcome.phones // 4} tables ready; refused: {refused}"
            )
    if any(f.cpu["other"] >= OTHERS_BUSY for _, o in results for f in o.loads):
        print(
            f"others busy: processes outside this benchmark used ≥ {OTHERS_BUSY} % of a core"
            " during that row (the machine has 2 cores); run again on a quiet machine"
        )
    sizes = [f.state_bytes for s, o in results if s.store != "echo" for f in o.loads]
    if sizes:
        print(f"mean view frame (state or change): {sum(sizes) / len(sizes):,.0f} bytes as sent")


def goals(results: list[tuple[Setup, Outcome]]) -> None:
    """Say plainly which goals each setup meets."""
    for setup, outcome in results:
        if setup.store == "echo":
            continue
        top, full, half = outcome.loads
        per_process = top.events / setup.processes
        tables = outcome.phones // 4
        if outcome.ready < tables:
            refused = ", ".join(f"{code} ×{n}" for code, n in outcome.refused.items())
            print(
                f"goals for {setup.name}: MISSED — only {outcome.ready} of {tables} tables could"
                f" be set up (refused: {refused}); its rows ran those, at"
                f" {outcome.ready / tables:.0%} of the load"
            )
            continue
        # Kept up: every command of the window recorded and on every phone by the end of the
        # drain; a stall at either edge of the window may shift a few percent across it.
        kept = (
            full.unfinished == 0 and not full.rejected and full.events >= 0.95 * (full.offered or 0)
        )
        met = per_process >= MAX_GOAL and kept
        print(
            f"goal ≥ {MAX_GOAL:,} events/s per process, {setup.name}: "
            f"{'met' if met else 'MISSED'} — {per_process:,.0f}/s per process at max; "
            f"{full.offered:,.0f}/s offered → {full.events:,.0f}/s recorded, p99 {ms(full.p99)} ms"
        )
        ok = full.p99 is not None and full.p99 < P99_GOAL and not full.dropped + len(full.rejected)
        print(
            f"goal p99 < {P99_GOAL:.0f} ms at {GOAL:,}/s per process, {setup.name}: "
            f"{'met' if ok else 'MISSED'} — p50 {ms(full.p50)} ms, p99 {ms(full.p99)} ms;"
            f" at {GOAL // 2:,}/s p99 {ms(half.p99)} ms"
        )
        echo = echo_of(results, setup, full.name)
        if echo is not None:
            ratio = cpu_per_event(full) / cpu_per_event(echo)
            print(
                f"goal server CPU per event ≤ {CPU_GOAL:g}× the echo's, {setup.name}: "
                f"{'met' if ratio <= CPU_GOAL else 'MISSED'} — {cpu_per_event(full):.0f} µs"
                f" against {cpu_per_event(echo):.0f} µs ({ratio:.2f}×) at {full.name}"
            )


def phones_report(outcome: Outcome) -> None:
    """The 2,000 phones held on one process."""
    rss = {moment: sum(kb) for moment, kb in outcome.rss_kb.items()}
    (f,) = outcome.loads
    per_phone = (rss["phones"] - rss["idle"]) / outcome.phones
    ok = (
        outcome.initial == outcome.phones == PHONES
        and outcome.held == PHONES
        and f.dropped == 0
        and f.p99 is not None
        and f.p99 < P99_GOAL
    )
    print(
        f"goal {PHONES:,} phones on one process: {'met' if ok else 'MISSED'} — "
        f"{outcome.phones:,} opened in {outcome.setup:.1f} s (with their tables), "
        f"{outcome.initial:,} got their first state, {outcome.held:,} still open after the hold"
    )
    print(
        f"  server RSS: {rss['idle'] / 1024:.0f} MiB idle, {rss['phones'] / 1024:.0f} MiB with "
        f"the phones ({per_phone:.0f} KiB a phone), {rss['held'] / 1024:.0f} MiB after the hold"
    )
    print(
        f"  a command every 2 s per table ({f.events:,.0f} events/s, {f.pushes:,.0f} pushes/s): "
        f"to the last phone p50 {ms(f.p50)} ms, p99 {ms(f.p99)} ms; "
        f"{f.dropped} dropped, {f.unfinished} unfinished; cpu % srv/redis/client/other {_cpu(f)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fanout", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short pass over fewer setups")
    parser.add_argument(
        "--runs", type=int, help="runs of every setup, figures their median (3; --quick 1)"
    )
    parser.add_argument("mode", nargs="?", choices=["echo"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode == "echo":
        serve_echo(args.port)
        return
    raise_fd_limit()
    warm, measure, hold = (0.5, 1.5, 1.0) if args.quick else (1.0, 3.0, 3.0)
    runs = args.runs or (1 if args.quick else 3)
    setups = [Setup("sqlite", 1), Setup("always", 1), Setup("always", 2)]
    if not args.quick:
        setups += [Setup("always", 1, tcp=True), Setup("everysec", 1), Setup("everysec", 2)]
        setups.append(Setup("sqlite", 1, deflate=False))
    setups.append(Setup("echo", 1))
    if not args.quick:
        setups.append(Setup("echo", 1, deflate=False))
    rate = GOAL / TABLES
    loads = [
        Load("max", None),
        Load(f"{GOAL:,}/s per process", rate),
        Load(f"{GOAL // 2:,}/s per process", rate / 2),
    ]
    began = time.monotonic()
    # Round after round of every setup, the echo in each: a spell of other work on the machine
    # weighs on a setup's runs and on the echo's alike, not on one of them.
    outcomes: dict[Setup, list[Outcome]] = {setup: [] for setup in setups}
    for round_ in range(1, runs + 1):
        for setup in setups:
            print(f"round {round_}: {setup.name} …", end=" ", file=sys.stderr, flush=True)
            outcomes[setup].append(run(setup, TABLES * setup.processes, loads, warm, measure))
            print(f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    results = [(setup, median_outcome(runs_of)) for setup, runs_of in outcomes.items()]
    print(f"running {PHONES:,} phones on sqlite ×1 …", end=" ", file=sys.stderr, flush=True)
    every = [Load("every 2 s", 0.5)]
    held = median_outcome(
        [run(Setup("sqlite", 1), PHONES // 4, every, warm, measure, hold) for _ in range(runs)]
    )
    print(f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    print(
        f"fan-out: {TABLES} tables × 4 phones per server process; loads of {warm:g} s warm-up"
        f" + {measure:g} s measured, median of {runs} run(s);"
        f" {os.cpu_count()} cores shared by servers, Redis and client"
    )
    report(results)
    goals(results)
    phones_report(held)
    print(f"whole run: {time.monotonic() - began:.0f} s")


if __name__ == "__main__":
    main()
