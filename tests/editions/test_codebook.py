"""Every refusal and notice code is declared once (editions/codebook.py), and what raises or
describes a code reads that declaration."""

import json

import pytest

import editions.errors
import rules.errors
import rules.gcg.read
import rules.table.decisions
import wordlists.lexicon
from editions import codebook
from editions.codebook import DECLARED
from server.http import openapi

ERROR_CLASSES = [
    editions.errors.GameError,
    editions.errors.NotationError,
    editions.errors.UnknownEdition,
    rules.errors.InvalidMove,
    rules.errors.IllegalPlacement,
    rules.table.decisions.Refused,
    wordlists.lexicon.UnknownLanguage,
]


def test_a_constant_is_its_code_and_each_is_declared_once() -> None:
    constants = {
        name: value
        for name, value in vars(codebook).items()
        if name.isupper() and name != "DECLARED"
    }
    assert sorted(constants.values()) == sorted(DECLARED)
    assert all(name == code.upper() for name, code in constants.items())
    with pytest.raises(ValueError, match="declared twice"):
        codebook._declare(codebook.GAP)


@pytest.mark.parametrize("kind", ERROR_CLASSES, ids=lambda kind: kind.__name__)
def test_every_error_class_defaults_to_a_declared_code(kind: type) -> None:
    assert kind.code in DECLARED


@pytest.mark.parametrize(
    ("code", "status"),
    [
        (codebook.BAD_TOKEN, 401),
        (codebook.DEVICE_REMOVED, 401),
        (codebook.NOT_YOUR_SEAT, 403),
        (codebook.UNKNOWN_CODE, 404),
        (codebook.TURN_TAKEN, 409),
        (codebook.RATE_LIMITED, 429),
        (codebook.STORE_UNAVAILABLE, 503),
        (codebook.GAP, 400),
    ],
)
def test_a_refusal_declares_its_http_status(code: str, status: int) -> None:
    assert DECLARED[code].status == status


def test_the_turn_taken_refusal_declares_what_the_phone_says() -> None:
    declared = DECLARED[codebook.TURN_TAKEN]
    assert set(declared.params) == {"player", "kind", "points", "word", "by", "by_host"}


def test_the_openapi_document_lists_every_refusal_a_phone_can_get() -> None:
    rejected = json.loads(openapi.document())["components"]["schemas"]["Rejected"]
    phone = sorted(c for c, d in DECLARED.items() if d.refusal and d.phone)
    assert rejected["properties"]["code"]["enum"] == phone
    assert rejected["x-codes"][codebook.TURN_TAKEN]["status"] == 409
    assert not any(code.startswith("gcg_") for code in phone)  # the command line's, in English
