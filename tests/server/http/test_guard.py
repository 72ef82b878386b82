import pytest
from starlette.datastructures import Headers

from server.http.guard import foreign


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({}, False),  # curl, scripts, tests: no browser
        ({"host": "club.example:8000", "origin": "http://club.example:8000"}, False),
        ({"host": "club.example", "origin": "https://club.example"}, False),
        ({"host": "club.example:443", "origin": "https://club.example"}, False),
        ({"host": "Club.Example", "origin": "http://club.example"}, False),
        ({"host": "[::1]:8000", "origin": "http://[::1]:8000"}, False),
        ({"host": "club.example", "sec-fetch-site": "same-origin"}, False),
        ({"host": "club.example", "sec-fetch-site": "none"}, False),  # typed in the bar
        ({"host": "club.example", "origin": "http://evil.example"}, True),
        ({"host": "club.example:8000", "origin": "http://club.example:9000"}, True),
        ({"host": "club.example", "origin": "null"}, True),  # a sandboxed page, a file
        ({"host": "club.example", "sec-fetch-site": "cross-site"}, True),
        ({"host": "club.example", "sec-fetch-site": "same-site"}, True),  # a sibling subdomain
        ({"origin": "http://club.example"}, True),  # no host to be the same as
    ],
)
def test_foreign_tells_another_origin_from_our_own(headers: dict[str, str], refused: bool) -> None:
    assert foreign(Headers(headers)) is refused
