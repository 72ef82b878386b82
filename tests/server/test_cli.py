import subprocess
import sys

import pytest

from server.cli import main


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
        [sys.executable, "-m", "server.cli", "score", "it", "H3 across LEGGIO"],
        capture_output=True, text=True, check=True,
    )
    assert done.stdout.splitlines()[0] == "H3 across LEGGIO: 46"
