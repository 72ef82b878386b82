"""What the lists must not hold, as the tests sample it: a fixed set of abbreviations,
units and acronyms per language, and the marking table (``abbreviations.toml``) as read.
``test_marks`` and ``test_moves_have_no_abbreviation`` share these.
"""

import tomllib

from wordlists import marks

#: A fixed sample per language: abbreviations, units, acronyms, symbols (issue 24's table,
#: and a few more of each kind). None is in its list.
ABBREVIATIONS = {
    "nl": "kg cm km tv nv sf btw bv pc cd wc bh dj sms gsm mg ml cv dvd gps vwo cao ngo apr aug",
    "en": "kg cm etc mph pc cd jr ft lb oz mr mrs ltd dept approx assn xv xxv",
    "de": "kg cm usw bzw pkw lkw nr vgl ggf evtl inkl bzgl zzgl dr str",
    "pl": "kg cm tv itd itp np mgr tzw dr cd mgra dra prof inż woj pkp ok",
    "es": "cm etc sra sras srta ud uds km kg",
    "it": "kg ecc km cm sig dott avv pag",
    "fr": "kg cm km mm ml etc",
}

TABLE = tomllib.loads(marks.TABLE.read_text(encoding="utf-8"))
