"""What a phone is, as its user agent says it: the model and the browser, for the host's list
of devices, where two phones of one seat must be told apart before either has named itself.

Only what a person recognises on their own phone is kept ("Pixel 7 · Chrome", "iPhone ·
Safari"); never the version numbers, which would tell nobody at the table anything.
Chrome on Android sends the reduced agent ("Android 10; K") that hides the model: then it
is an Android phone.
"""

import re

#: The browser, by the first token of the agent found, in this order: several agents name
#: another browser too (Edge and Samsung Internet say "Chrome", Chrome says "Safari").
BROWSERS = (
    ("SamsungBrowser/", "Samsung Internet"),
    ("EdgA/", "Edge"),
    ("EdgiOS/", "Edge"),
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("FxiOS/", "Firefox"),
    ("Firefox/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
#: Systems without a model in the agent, by the token that names them.
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "Chromebook"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)
#: "Android 14; Pixel 7)", after an old agent's language ("Android 4.0.3; ko-kr; LG-L160L
#: Build/IML74K)"): the model, without its build.
_ANDROID = re.compile(
    r"Android[^;)]*;\s*(?:[a-z]{2}[-_][A-Za-z]{2};\s*)?([^;)]+?)(?:\s+Build/[^;)]*)?\s*[;)]"
)
#: What the reduced agent of Chrome puts where the model was.
_HIDDEN = {"K", ""}
#: The most of an agent that is read: a header is the phone's to make as long as it likes.
_READ = 512


def model(agent: str) -> str:
    """The phone's model (or system) and its browser, "" when the agent says neither.

    >>> model("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
    ...       "Gecko) Chrome/124.0.0.0 Mobile Safari/537.36")
    'Pixel 7 · Chrome'
    >>> model("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
    ...       "Chrome/124.0.0.0 Mobile Safari/537.36")
    'Android · Chrome'
    >>> model("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
    ...       "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
    'iPhone · Safari'
    >>> model("Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like "
    ...       "Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36")
    'SM-A536B · Samsung Internet'
    >>> model("")
    ''
    """
    agent = agent[:_READ]
    device = ""
    found = _ANDROID.search(agent)
    if found is not None:
        named = found.group(1).strip()
        device = "Android" if named in _HIDDEN else named
    elif "Android" in agent:
        device = "Android"
    else:
        device = next((name for token, name in SYSTEMS if token in agent), "")
    browser = next((name for token, name in BROWSERS if token in agent), "")
    return " · ".join(part for part in (device, browser) if part)
