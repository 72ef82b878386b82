import json
import re
from pathlib import Path

from server.http import openapi
from server.http.app import Settings, create_app
from server.stores.sqlite import SqliteStore


def test_openapi_document_is_openapi_3_1_with_every_reference_resolved() -> None:
    document = json.loads(openapi.document())
    assert document["openapi"] == "3.1.0"
    schemas = document["components"]["schemas"]
    refs = set(re.findall(r'"#/components/schemas/([^"]+)"', openapi.document().decode()))
    assert refs and refs <= set(schemas)


def test_openapi_document_describes_every_http_route(tmp_path: Path) -> None:
    app = create_app(Settings(SqliteStore(tmp_path / "t.db"), "sqlite"))
    http = {
        re.sub(r"\{(\w+)\}", r"{\1}", route.path)
        for route in app.routes
        if getattr(route, "methods", None) and route.path != "/api/openapi.json"
    }
    assert http == set(json.loads(openapi.document())["paths"])
