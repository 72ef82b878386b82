import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.main import listen, main


def test_score_prints_every_move_with_its_formulas(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "nl", "H4 across PLANK", "F6 down KRAN"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "H4 across PLANK: 28",
        "  PLANK           (3 × 2 + 3 + 1 + 1 + 3) × 2 = 28",
        "F6 down KRAN: 16",
        "  KRAAN           3 × 3 + 2 + 1 + 1 + 1 × 3 = 16",
    ]


def test_score_prints_the_bingo_and_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "nl", "H3 across AQUAGYM", "--board"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "H3 across AQUAGYM: 130"
    assert out[2] == "  bingo           +50"
    assert out[3 + 7] == "..AQUAGYM......"


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (["H9 across AB"], "error: the first move must cover H8 [first_move_off_centre]"),
        (["H8 across A1"], "[invalid_character]"),
        (["H8 PLANK"], "is not a move as START DIRECTION LETTERS"),
        (["Z9 across AB"], "[bad_square]"),
    ],
)
def test_score_refuses_a_bad_move_with_its_code(
    capsys: pytest.CaptureFixture[str], moves: list[str], message: str
) -> None:
    assert main(["score", "nl", *moves]) == 2
    assert message in capsys.readouterr().err


def test_console_script_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "score", "it", "H3 across LEGGIO"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines()[0] == "H3 across LEGGIO: 46"


GCG = Path(__file__).parents[2] / "fixtures" / "gcg"


def test_gcg_prints_every_line_beside_ours(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gcg", str(GCG / "doug_v_emely.gcg")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        f"{GCG / 'doug_v_emely.gcg'} (en): doug v emely",
        "  line  player  play         file  ours  total  ours",
        "     3  doug    8D WINDY      +32   +32     32    32",
    ]
    assert "     9  emely   --            -24   -24     55    55" in out
    assert out[-2:] == [
        "    30  emely   (OPEG)        +14   +14    345   345",
        "  final: doug 451 (ours 451), emely 345 (ours 345): same",
    ]


def test_gcg_exits_1_when_a_score_differs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    changed = tmp_path / "changed.gcg"
    text = (GCG / "doug_v_emely.gcg").read_text()
    changed.write_text(text.replace("WINDY +32 32", "WINDY +30 30"))
    assert main(["gcg", str(changed)]) == 1
    out = capsys.readouterr().out
    assert "     3  doug    8D WINDY      +30   +32     30    32  differs" in out
    assert "     5  doug    E3 JAVE..N    +34   +34     66    66\n" in out  # the file goes on
    assert out.rstrip().endswith("final: doug 451 (ours 451), emely 345 (ours 345): DIFFERS")


def test_gcg_takes_the_edition_to_score_with(capsys: pytest.CaptureFixture[str]) -> None:
    polish = str(GCG / "polish_endgame.gcg")
    assert main(["gcg", polish]) == 1  # no #lexicon: scored as English
    assert main(["gcg", polish, "--edition", "pl"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == "  final: 1 316 (ours 316), 2 323 (ours 323): same"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "No such file"),
        (b"#player1 a Ann\n#player2 b Bob\n", "the file has no move lines"),
        (b"#character-encoding UTF-8\n#player1 c\xe9sar c\n", "cannot be read as such"),
    ],
)
def test_gcg_exits_2_for_a_file_it_cannot_read_and_reads_the_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes | None, message: str
) -> None:
    bad = tmp_path / "bad.gcg"
    if content is not None:
        bad.write_bytes(content)
    assert main(["gcg", str(bad), str(GCG / "josh2.gcg")]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {bad}: ") and message in captured.err
    assert "final: jvc 397 (ours 397), Paula 291 (ours 291): same" in captured.out


def test_gcg_reports_the_lines_it_could_not_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    odd = tmp_path / "odd.gcg"
    odd.write_text("#player1 a Ann\n#player2 b Bob\n>a: WINDY 8D WINDY +32 32\nstray\n")
    assert main(["gcg", str(odd)]) == 1
    assert "  line 4: 'stray' is neither a pragma nor a move" in capsys.readouterr().out


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
async def test_served_connections_send_each_frame_at_once_without_nagle(host: str) -> None:
    # uvicorn serves the listener through asyncio, which turns Nagle's algorithm off for the
    # connections of a TCP listener only: with it on, a phone got each change up to 40 ms late.
    listener = listen(host, 0)
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Served(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            served = transport.get_extra_info("socket")
            accepted.set_result(served.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    server = await asyncio.get_running_loop().create_server(Served, sock=listener)
    async with server:
        _, writer = await asyncio.open_connection(host, listener.getsockname()[1])
        assert await asyncio.wait_for(accepted, 5) != 0
        writer.close()
