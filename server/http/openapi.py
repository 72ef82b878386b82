"""The HTTP API described as OpenAPI 3.1, its schemas generated from the msgspec types."""

from functools import cache
from typing import Any

import msgspec

from editions.codebook import DECLARED
from rules.board.scoring import MoveScore
from rules.room.record import GameRecord
from rules.simultaneous.results import GameResults, SeriesResults
from rules.table.views import TableView
from server.http.catalog import Catalog
from server.http.records import Training
from server.live.messages import (
    Accepted,
    CommandRequest,
    DeviceSeen,
    Games,
    GamesRequest,
    Health,
    Joined,
    JoinRequest,
    PreviewResult,
    RecoverRequest,
    Recovery,
    Rejected,
    ScoreRequest,
    Seats,
    SeatsRequest,
    ServerTime,
)
from server.simultaneous.messages import Created, CreateSimultaneous, OrganiserView

TYPES = (
    Accepted,
    Catalog,
    CommandRequest,
    DeviceSeen,
    GameRecord,
    Games,
    GamesRequest,
    Health,
    Joined,
    JoinRequest,
    MoveScore,
    PreviewResult,
    RecoverRequest,
    Recovery,
    Rejected,
    ScoreRequest,
    Seats,
    SeatsRequest,
    ServerTime,
    TableView,
    Training,
    CreateSimultaneous,
    Created,
    OrganiserView,
    GameResults,
    SeriesResults,
)


def _ref(kind: type) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{kind.__name__}"}


def _json(kind: type, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(kind)}}}


_REFUSED = _json(Rejected, "refused: a stable code and its parameters")
_AUTH: list[dict[str, list[str]]] = [{"token": []}]
_TABLE = [{"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}]
_SIMULTANEOUS = [
    {"name": "simultaneous", "in": "path", "required": True, "schema": {"type": "string"}}
]
_GAME = {
    "name": "game",
    "in": "query",
    "schema": {"type": "string"},
    "description": "the game from 1 (the first by default), or 'series' for the series",
}
_CSV = {"description": "CSV text", "content": {"text/csv": {"schema": {"type": "string"}}}}
_SEALED = _json(Rejected, "results_sealed: the game's window has not closed")

PATHS: dict[str, Any] = {
    "/health": {
        "get": {
            "summary": "The server answers",
            "responses": {
                "200": _json(Health, "alive, and the store takes writes"),
                "503": _json(Health, "the store cannot be written now"),
            },
        }
    },
    "/api/tables": {
        "post": {
            "summary": "Create a table; returns the host's token and the join code",
            "responses": {"201": _json(Joined, "the new table"), "503": _REFUSED},
        }
    },
    "/api/games": {
        "post": {
            "summary": "The phone's games: for each table and token it keeps (at most 50), "
            "whose turn it is, its own seat and the last turn; a token that opens nothing is "
            "left out",
            "requestBody": {"content": {"application/json": {"schema": _ref(GamesRequest)}}},
            "responses": {
                "200": _json(Games, "the games the tokens open, in their order"),
                "400": _REFUSED,
                "413": _REFUSED,
                "503": _REFUSED,
            },
        }
    },
    "/api/seats": {
        "post": {
            "summary": "The seats of the table with a code, by name and whether taken; "
            "rate-limited like joins",
            "requestBody": {"content": {"application/json": {"schema": _ref(SeatsRequest)}}},
            "responses": {"200": _json(Seats, "the seats"), "404": _REFUSED, "429": _REFUSED},
        }
    },
    "/api/join": {
        "post": {
            "summary": "Join a table by its code at a seat of its game or as a viewer; a taken "
            "seat waits for the host unless the same phone (its device key) comes back; "
            "rate-limited",
            "requestBody": {"content": {"application/json": {"schema": _ref(JoinRequest)}}},
            "responses": {
                "200": _json(Joined, "the device's token, and whether it was let in"),
                "400": _REFUSED,
                "404": _REFUSED,
                "429": _REFUSED,
            },
        }
    },
    "/api/recover": {
        "post": {
            "summary": "Take the director's place with the table's recovery code: a new "
            "director's token; the device that directed before is let go on every process and "
            "the code is used up; every try counts against the address like a join guess",
            "requestBody": {"content": {"application/json": {"schema": _ref(RecoverRequest)}}},
            "responses": {
                "201": _json(Joined, "the new director's token"),
                "400": _REFUSED,
                "403": _REFUSED,
                "404": _REFUSED,
                "429": _REFUSED,
            },
        }
    },
    "/api/score": {
        "post": {
            "summary": "Score a move without a table (the calculator); check=true labels words;"
            " a board move also returns the board after it",
            "requestBody": {"content": {"application/json": {"schema": _ref(ScoreRequest)}}},
            "responses": {"200": _json(PreviewResult, "the breakdown"), "400": _REFUSED},
        }
    },
    "/api/catalog": {
        "get": {
            "summary": "Every edition (letters, values, premium layout) and rule set",
            "responses": {
                "200": _json(
                    Catalog,
                    "what the phone's forms and board draw: editions, rule sets, and each"
                    " mode's player counts, rule sets and times per move",
                )
            },
        }
    },
    "/api/time": {
        "get": {
            "summary": "The server's clock, for the duplicate round clock on every phone",
            "responses": {"200": _json(ServerTime, "ms since the epoch")},
        }
    },
    "/api/tables/{table}": {
        "delete": {
            "summary": "The host deletes the table (P-11): its log, join code and devices, on "
            "every process; every phone of it is told table_deleted and let go",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "204": {"description": "deleted; the table's tokens open nothing any more"},
                "401": _json(Rejected, "bad_token, device_removed, director_replaced"),
                "403": _json(Rejected, "host_only: only the host deletes a table"),
                "410": _json(Rejected, "table_deleted: deleted meanwhile"),
                "503": _REFUSED,
            },
        }
    },
    "/api/tables/{table}/view": {
        "get": {
            "summary": "The sheet as this device sees it",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {"200": _json(TableView, "the current view"), "401": _REFUSED},
        }
    },
    "/api/tables/{table}/commands": {
        "post": {
            "summary": "Record a command (same meaning and refusals as over the websocket)",
            "security": _AUTH,
            "parameters": _TABLE,
            "requestBody": {"content": {"application/json": {"schema": _ref(CommandRequest)}}},
            "responses": {
                "200": _json(Accepted, "recorded; the seq of its last event"),
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _REFUSED,
                "503": _REFUSED,
            },
        }
    },
    "/api/tables/{table}/devices": {
        "get": {
            "summary": "The devices at the table, for the host: seat, since, last seen",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "200": {
                    "description": "every device at the table",
                    "content": {
                        "application/json": {"schema": {"type": "array", "items": _ref(DeviceSeen)}}
                    },
                },
                "401": _REFUSED,
                "403": _REFUSED,
            },
        }
    },
    "/api/tables/{table}/recovery": {
        "post": {
            "summary": "A new recovery code for the table, for the director or a co-director; "
            "shown once, it replaces the one before",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "201": _json(Recovery, "the code"),
                "401": _REFUSED,
                "403": _REFUSED,
            },
        }
    },
    "/api/tables/{table}/gcg": {
        "get": {
            "summary": "The classic game as a GCG record; an online game's once it is over",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "200": {
                    "description": "GCG text",
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
                "400": _REFUSED,
                "401": _REFUSED,
                "409": _json(Rejected, "game_not_over: an online game is still being played"),
            },
        }
    },
    "/api/tables/{table}/record.json": {
        "get": {
            "summary": "The duplicate game sheet (racks, tops, slips, results) of the closed "
            "rounds: the host's at any time, every device's once the game has ended; "
            "?game=previous: the game before the latest new game",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "200": _json(GameRecord, "the game record"),
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _json(Rejected, "record_not_yet: the game is still being played"),
            },
        }
    },
    "/api/tables/{table}/record.csv": {
        "get": {
            "summary": "The result list as CSV: rank, name, each round, solos, penalties, "
            "total, difference, percentage; to the devices of record.json",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "200": {
                    "description": "CSV text",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                },
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _REFUSED,
            },
        }
    },
    "/api/training": {
        "post": {
            "summary": "A new table playing a game record as training: one player against "
            "the tops, the recorded racks in order (the first one set)",
            "requestBody": {"content": {"application/json": {"schema": _ref(GameRecord)}}},
            "responses": {
                "201": _json(Training, "the host's place at the new table and the racks"),
                "400": _REFUSED,
                "413": _REFUSED,
                "429": _REFUSED,
            },
        }
    },
    "/api/simultaneous": {
        "post": {
            "summary": "A new simultaneous: one or more duplicate games, each drawn and its "
            "tops found once and sealed; the code club directors join with and the "
            "organiser's token",
            "requestBody": {"content": {"application/json": {"schema": _ref(CreateSimultaneous)}}},
            "responses": {
                "201": _json(Created, "the simultaneous"),
                "400": _REFUSED,
                "413": _REFUSED,
                "429": _REFUSED,
            },
        }
    },
    "/api/simultaneous/{simultaneous}": {
        "get": {
            "summary": "The organiser's view: every game's window, every centre's progress "
            "(rounds closed, players, slips in), the standings per game and of the series",
            "security": _AUTH,
            "parameters": _SIMULTANEOUS,
            "responses": {
                "200": _json(OrganiserView, "the simultaneous"),
                "401": _REFUSED,
                "403": _REFUSED,
                "404": _REFUSED,
            },
        },
        "delete": {
            "summary": "The organiser deletes the simultaneous (its log, code and token); its "
            "centres keep their rooms and results, and a draw there is refused",
            "security": _AUTH,
            "parameters": _SIMULTANEOUS,
            "responses": {"204": {"description": "deleted"}, "401": _REFUSED, "403": _REFUSED},
        },
    },
    "/api/simultaneous/{simultaneous}/close": {
        "post": {
            "summary": "The organiser closes a game's window now (?game=, from 1): no centre "
            "draws a rack of it any more, and its results are published",
            "security": _AUTH,
            "parameters": [*_SIMULTANEOUS, _GAME],
            "responses": {
                "200": _json(OrganiserView, "the simultaneous"),
                "400": _REFUSED,
                "401": _REFUSED,
                "403": _REFUSED,
            },
        }
    },
    "/api/simultaneous/{simultaneous}/results.json": {
        "get": {
            "summary": "A game's results (every player with their centre and each round's "
            "score, under the sealed tops) or the series', once the window closed",
            "parameters": [*_SIMULTANEOUS, _GAME],
            "responses": {
                "200": {
                    "description": "the results of the game, or of the series",
                    "content": {
                        "application/json": {
                            "schema": {"oneOf": [_ref(GameResults), _ref(SeriesResults)]}
                        }
                    },
                },
                "400": _REFUSED,
                "403": _SEALED,
                "404": _REFUSED,
            },
        }
    },
    "/api/simultaneous/{simultaneous}/results.csv": {
        "get": {
            "summary": "The results as CSV: place, name, centre, each round, total, "
            "difference, percentage (a game); games, total, tops, percentage (the series)",
            "parameters": [*_SIMULTANEOUS, _GAME],
            "responses": {"200": _CSV, "400": _REFUSED, "403": _SEALED, "404": _REFUSED},
        }
    },
    "/api/simultaneous/{simultaneous}/record.json": {
        "get": {
            "summary": "The sealed game as a duplicate game record, to play as training "
            "(POST it to /api/training), once the window closed",
            "parameters": [*_SIMULTANEOUS, _GAME],
            "responses": {
                "200": _json(GameRecord, "the game record"),
                "400": _REFUSED,
                "403": _SEALED,
                "404": _REFUSED,
            },
        }
    },
    "/api/tables/{table}/qr.svg": {
        "get": {
            "summary": "The join QR code as SVG",
            "security": _AUTH,
            "parameters": _TABLE,
            "responses": {
                "200": {
                    "description": "SVG",
                    "content": {"image/svg+xml": {"schema": {"type": "string"}}},
                },
                "401": _REFUSED,
            },
        }
    },
}


def _codes(schema: dict[str, Any]) -> dict[str, Any]:
    """A refusal's schema with every code a phone can get, its parameters and its status."""
    refusals = {k: d for k, d in DECLARED.items() if d.refusal and d.phone}
    code = {
        "type": "string",
        "enum": sorted(refusals),
        "description": "a stable code, declared once with its parameters (x-codes)",
    }
    described = {k: {"params": list(d.params), "status": d.status} for k, d in refusals.items()}
    return {
        **schema,
        "properties": {**schema["properties"], "code": code},
        "x-codes": dict(sorted(described.items())),
    }


@cache
def document() -> bytes:
    """The OpenAPI document, encoded once."""
    _, components = msgspec.json.schema_components(
        TYPES, ref_template="#/components/schemas/{name}"
    )
    components["Rejected"] = _codes(components["Rejected"])
    return msgspec.json.encode(
        {
            "openapi": "3.1.0",
            "info": {
                "title": "Tilestream",
                "version": "1",
                "description": "Tables for the 15×15 crossword tile game. Live sheets use the "
                "websocket at /ws (hello, command, preview, resync → state, change, "
                "accepted, rejected, preview); see the README.",
            },
            "paths": PATHS,
            "components": {
                "schemas": components,
                "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}},
            },
        }
    )
