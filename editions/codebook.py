"""Every refusal and notice code of Tilestream, declared once with its parameters.

A code is what a phone translates (``error.{code}`` and ``notice.{code}`` in
``web/strings``), with the parameters its sentence may use. The server's HTTP statuses,
``/api/openapi.json``, the phone's strings test and every place that raises one read these
declarations. They live here, in the package every other one may import, so that the tile
sets, the rules and the server name their codes the same way.

A constant is the code itself, a plain ``str``, so it goes into messages and comparisons as
it is; ``DECLARED`` holds what is known about each.
"""

import msgspec


class Declaration(msgspec.Struct, frozen=True):
    """What a code means to those who handle it."""

    code: str
    params: tuple[str, ...]
    status: int  # the HTTP status of a refusal with this code
    refusal: bool  # a command or input can be refused with it
    notice: bool  # the sheet can show it as a notice or a warning
    phone: bool  # a phone can receive it (GCG codes are the command line's, in English)


DECLARED: dict[str, Declaration] = {}


def _declare(
    code: str,
    *params: str,
    status: int = 400,
    notice: bool = False,
    refusal: bool = True,
    phone: bool = True,
) -> str:
    if code in DECLARED:
        raise ValueError(f"the code {code!r} is declared twice")
    DECLARED[code] = Declaration(code, params, status, refusal, notice, phone)
    return code


ALREADY_JOINED = _declare("already_joined")
# ``tilestream top``: the board file cannot be read, or is not 15 rows of tiles
BAD_BOARD = _declare("bad_board", phone=False)
# not ``across`` or ``down``
BAD_DIRECTION = _declare("bad_direction", "text")
# a typed-word mark past the word's end
BAD_INDEX = _declare("bad_index", "index", "length")
# input that is not a message of the protocol
BAD_MESSAGE = _declare("bad_message", "error")
# not one of 2L 3L 2W 3W
BAD_PREMIUM = _declare("bad_premium", "text")
# ``tilestream top``: a rack that is not tiles of the edition
BAD_RACK = _declare("bad_rack", phone=False)
# a file to import that is not a game record of this server (``rules.room.record``)
BAD_RECORD = _declare("bad_record")
# the recovery code does not open that table, or it was used up
BAD_RECOVERY = _declare("bad_recovery", status=403)
# not a reference as the FISF writes one: ``H4`` across, ``4H`` down
BAD_REFERENCE = _declare("bad_reference", "text")
# a board drawing of the wrong shape
BAD_ROWS = _declare("bad_rows", "rows", "size")
# not a square name like ``H8``
BAD_SQUARE = _declare("bad_square", "text")
# row notation that is not a tile (``[CH`` …)
BAD_TILE = _declare("bad_tile", "text")
# the token opens no table, or not this one
BAD_TOKEN = _declare("bad_token", status=401)
# ``serve --wordlist``: not EDITION=FILE
BAD_WORDLIST_OPTION = _declare("bad_wordlist_option", phone=False)
# ``--words``/``--wordlist``: the list cannot be read, or has no word
BAD_WORDS = _declare("bad_words", phone=False)
# online: an exchange with fewer tiles in the bag than the rules ask (P-51)
BAG_TOO_SMALL = _declare("bag_too_small", "bag", "min")
# in a game: a blank played as a letter outside the edition's alphabet
BLANK_NOT_IN_ALPHABET = _declare("blank_not_in_alphabet", "letter")
# the table kept moving while the command was decided; try again
BUSY = _declare("busy", status=409)
CLOCK_NOT_RUNNING = _declare("clock_not_running", notice=True)
# duplicate room: the director paused the round clock; slips wait until it runs again
CLOCK_PAUSED = _declare("clock_paused", status=409)
CLOCK_RUNNING = _declare("clock_running")
# online: the computer's strengths name more or fewer seats than the game has
COMPUTER_COUNT = _declare("computer_count", "count", "players")
# online: that seat is the computer's; no phone joins or plays it
COMPUTER_SEAT = _declare("computer_seat", "seat", status=409)
# a write from another site's page
CROSS_ORIGIN = _declare("cross_origin", status=403)
# the host took this device away from the table
DEVICE_REMOVED = _declare("device_removed", status=401)
# another phone took the director's place with the recovery code: this one directs no more
DIRECTOR_REPLACED = _declare("director_replaced", status=401)
# a typed word without tiles
EMPTY_WORD = _declare("empty_word", "index")
# duplicate room: the late entries are over
ENTRIES_CLOSED = _declare("entries_closed", "round", status=409)
EXCHANGE_BAG_LOW = _declare(
    "exchange_bag_low", "bag", "min", "player", "seq", notice=True, refusal=False
)
EXCHANGE_LIMIT = _declare(
    "exchange_limit", "count", "max", "player", "seq", notice=True, refusal=False
)
# online: an exchange is of 1 to 7 tiles
EXCHANGE_COUNT = _declare("exchange_count", "count", "max")
# the first move must cover the centre star
FIRST_MOVE_OFF_CENTRE = _declare("first_move_off_centre", "centre")
# the first move needs at least two tiles
FIRST_MOVE_SINGLE_TILE = _declare("first_move_single_tile")
# the command was for an earlier game
GAME_CHANGED = _declare("game_changed", status=409)
GAME_ERROR = _declare("game_error")
GAME_OVER = _declare("game_over", notice=True)
# online: the record of a game is served once it has ended
GAME_NOT_OVER = _declare("game_not_over", status=409)
# an empty square between the new tiles
GAP = _declare("gap", "square")
GCG_CLASSIC_ONLY = _declare("gcg_classic_only", phone=False)
GCG_ENCODING = _declare("gcg_encoding", "encoding", phone=False)
GCG_LINE = _declare("gcg_line", "text", phone=False)
GCG_NO_GAME = _declare("gcg_no_game", phone=False)
GCG_NO_MOVES = _declare("gcg_no_moves", phone=False)
GCG_PLAYERS = _declare("gcg_players", phone=False)
GCG_THROUGH_DIFFERS = _declare("gcg_through_differs", "square", phone=False)
GCG_THROUGH_EMPTY = _declare("gcg_through_empty", "square", phone=False)
GCG_UNREADABLE = _declare("gcg_unreadable", phone=False)
# the host's (the director's) act
HOST_ONLY = _declare("host_only", status=403)
ILLEGAL_PLACEMENT = _declare("illegal_placement")
# a digit, symbol or space in typed letters
INVALID_CHARACTER = _declare("invalid_character", "char", "text")
INVALID_MOVE = _declare("invalid_move")
LETTER_NOT_IN_SET = _declare("letter_not_in_set", "letter")
# a letter the set lacks can only be a blank
LOCKED_BLANK = _declare("locked_blank", "letter")
# online: a time per move outside what a game allows
MOVE_SECONDS_OUT_OF_RANGE = _declare("move_seconds_out_of_range", "max", "min", "seconds")
NAME_MISSING = _declare("name_missing")
# duplicate room: another phone holds that name
NAME_TAKEN = _declare("name_taken", "name", status=409)
NAME_TOO_LONG = _declare("name_too_long", "length", "max")
# the edition has no board (Literaki)
NO_BOARD = _declare("no_board", "edition", notice=True)
# a game clock command in a game without one (a notice: a clock event in such a game)
NO_CLOCK = _declare("no_clock", notice=True, status=409)
NO_GAME = _declare("no_game", notice=True)
NO_MOVE = _declare("no_move")
# online: every seat the computer's; a game needs a person to play it
NO_PERSON = _declare("no_person", "players")
# duplicate room: the open round has no rack yet (the director draws or types it)
NO_RACK = _declare("no_rack")
# registering by name is for a duplicate room
NO_REGISTRATION = _declare("no_registration", status=409)
NO_SUCH_PLAYER = _declare("no_such_player", "player", notice=True)
NO_SUCH_ROUND = _declare("no_such_round", "round", notice=True)
# the table's game has no such seat
NO_SUCH_SEAT = _declare("no_such_seat", "seat", "seats")
# a move without new tiles
NO_TILES = _declare("no_tiles")
# online: a preview never says whether a word exists (WS-30)
NO_WORD_CHECK = _declare("no_word_check")
# online play needs an edition with a word list
NO_WORD_LIST = _declare("no_word_list", "edition")
# typed mode without any word
NO_WORDS = _declare("no_words")
# the host has not let this device in yet
NOT_ADMITTED = _declare("not_admitted", status=403)
# a later move must touch a tile on the board
NOT_CONNECTED = _declare("not_connected")
# online: the time per move has not run out (the server's own pass); the game clock: a
# phone called time the server's clock still shows left
NOT_DUE = _declare("not_due", status=409)
NOT_IN_CLASSIC = _declare("not_in_classic", notice=True, refusal=False)
NOT_IN_DUPLICATE = _declare("not_in_duplicate", notice=True, refusal=False)
# new tiles not in one row or one column
NOT_IN_LINE = _declare("not_in_line")
NOT_IN_MODE = _declare("not_in_mode", "mode")
NOT_JOINED = _declare("not_joined")
# tiles laid or exchanged from a rack, outside an online game
NOT_ONLINE = _declare("not_online", "mode")
# the turn meant is not the one to play (after an undo, say)
NOT_TO_MOVE = _declare("not_to_move", "player", "to_move", status=409)
# duplicate room: a slip's word goes on into the tiles before or after it
NOT_WHOLE_WORD = _declare("not_whole_word", "square")
# each phone its own seat: another seat's turn, cell or line
NOT_YOUR_SEAT = _declare("not_your_seat", "seat", status=403)
NOTATION = _declare("notation")
NOTHING_TO_CLEAR = _declare("nothing_to_clear")
NOTHING_TO_UNDO = _declare("nothing_to_undo")
# a new tile on a square already taken
OCCUPIED = _declare("occupied", "square")
# letters run past the edge from this start square
OFF_BOARD = _declare("off_board", "square", "text")
OVER_TOP = _declare("over_top", "player", "points", "round", "top", notice=True, refusal=False)
OVER_USE = _declare("over_use", "count", "letter", "used", notice=True, refusal=False)
PASS_LIMIT = _declare("pass_limit", "count", "limit", notice=True, refusal=False)
PLAYER_COUNT = _declare("player_count", "count", "max", "min")
# duplicate room: the director took that player out
PLAYER_REMOVED = _declare("player_removed", "player", notice=True, status=409)
POINTS_OUT_OF_RANGE = _declare("points_out_of_range", "max", "points")
# e.g. 2L with Literaki values
PREMIUM_NOT_OFFERED = _declare("premium_not_offered", "edition", "premium")
RACK_COUNT = _declare("rack_count", "count", "players", notice=True)
# duplicate room: the round has its rack already
RACK_DRAWN = _declare("rack_drawn", "round", status=409)
RACK_LETTERS_AND_POINTS = _declare("rack_letters_and_points", "player")
RACK_NEEDED_AFTER_PASSES = _declare("rack_needed_after_passes", "player")
# duplicate room: a typed rack short of the vowels or consonants the rack rule asks
RACK_RULE = _declare("rack_rule", "consonants", "min", "vowels")
# too many joins or new tables from one address in a minute
RATE_LIMITED = _declare("rate_limited", status=429)
# a phone's command does not name the turn, line, round or game it saw
REFERENCE_MISSING = _declare("reference_missing", "field")
REFUSED = _declare("refused")
# duplicate room: every place of the rule set is taken
ROOM_FULL = _declare("room_full", "max", status=409)
# duplicate: that round's top was recorded already
ROUND_CLOSED = _declare("round_closed", "round", status=409)
# duplicate: a command for a round after the open one (only a hand-made request names one)
ROUND_NOT_OPEN = _declare("round_not_open", "round", status=409)
ROUND_FULL = _declare("round_full")
RULES_NOT_FOR_MODE = _declare("rules_not_for_mode", "mode", "rules")
RULES_PLAYER_COUNT = _declare("rules_player_count", "max", "rules")
# a run of scoreless turns that ends the game where exchanges and withdrawn words count too
SCORELESS_LIMIT = _declare("scoreless_limit", "count", "limit", notice=True, refusal=False)
# undo or penalty: the newest line is not the one the phone saw
SHEET_CHANGED = _declare("sheet_changed", "last_line", status=409)
# duplicate room: a letter of a slip's word is not the tile on its square
SLIP_MISMATCH = _declare("slip_mismatch", "letter", "square")
# duplicate room: a player's phone hands in slips; cells, tops and corrections are the director's
SLIP_ONLY = _declare("slip_only", status=403)
SQUARE_TAKEN = _declare("square_taken", "square", notice=True, refusal=False)
# the store cannot be reached or written now; nothing was recorded
STORE_UNAVAILABLE = _declare("store_unavailable", status=503)
# duplicate room: a top typed as points or as words off the board; a room's top is a move
TOP_ON_BOARD = _declare("top_on_board")
# duplicate room: the director's typed top makes words the table's list lacks
TOP_NOT_IN_LIST = _declare("top_not_in_list", "count", "words")
# the table was deleted: by its host, or idle past the retention time (P-11)
TABLE_DELETED = _declare("table_deleted", status=410)
# a known code: the table had its joins of the minute (a room's phones come in by turns)
TABLE_JOINS_BUSY = _declare("table_joins_busy", status=429)
# duplicate room: a typed rack names tiles the bag no longer holds
TILES_NOT_IN_BAG = _declare("tiles_not_in_bag", "tiles")
# online: a play or exchange uses tiles the seat does not hold
TILES_NOT_ON_RACK = _declare("tiles_not_on_rack", "tiles")
# duplicate room: a slip after the round clock ran out, refused by the rules
TIME_UP = _declare("time_up", status=409)
# a body or frame over the size limit
TOO_LARGE = _declare("too_large", status=413)
TOO_MANY_BLANKS = _declare("too_many_blanks", "count", "max", "player")
TOO_MANY_LETTERS = _declare("too_many_letters", "count", "max", "player")
# more new tiles than a rack holds
# a scored move with more new tiles than a rack holds: shown, not recordable (P-21)
TOO_MANY_NEW_TILES = _declare("too_many_new_tiles", "count", "rack_size")
TOO_MANY_TILES = _declare("too_many_tiles", "count", "rack_size")
# a main word and at most 7 cross words
TOO_MANY_WORDS = _declare("too_many_words", "count", "max")
# the turn (or duplicate cell) meant was recorded meanwhile: by whom, and what
TURN_TAKEN = _declare("turn_taken", "by", "by_host", "kind", "player", "points", "word", status=409)
TWO_EMPTY_RACKS = _declare("two_empty_racks", "players", notice=True)
UNDO_UNKNOWN_LINE = _declare("undo_unknown_line", "line", "seq", notice=True, refusal=False)
# a player or viewer asks for the duplicate game sheet before the game has ended
RECORD_NOT_YET = _declare("record_not_yet", status=403)
# no table has that join code
UNKNOWN_CODE = _declare("unknown_code", status=404)
# admit or remove: no such device at the table
UNKNOWN_DEVICE = _declare("unknown_device", "device")
UNKNOWN_EDITION = _declare("unknown_edition")
UNKNOWN_LANGUAGE = _declare("unknown_language")
UNKNOWN_RULES = _declare("unknown_rules", "known", "rules")
# online: the computer plays at one of the strengths ``known``
UNKNOWN_STRENGTH = _declare("unknown_strength", "known", "strength")
# no such table
UNKNOWN_TABLE = _declare("unknown_table", status=404)
# a viewer (a room display) changes nothing
VIEWER_READ_ONLY = _declare("viewer_read_only", status=403)
# a typed word over 15 tiles
WORD_TOO_LONG = _declare("word_too_long", "index", "length", "max")
# online: every word of the move the list lacks, main and cross words at once (WS-31)
WORDS_NOT_IN_LIST = _declare("words_not_in_list", "count", "words")
# --- a simultaneous (``rules.simultaneous``) ---
# no simultaneous has that code or id
NO_SIMULTANEOUS = _declare("no_simultaneous", status=404)
# a simultaneous has no game of that number
NO_SUCH_GAME = _declare("no_such_game", "count")
# another room plays the same game of a simultaneous under that centre's name
CENTRE_NAME_TAKEN = _declare("centre_name_taken", "name", status=409)
# a room that drew a rack or closed a round cannot become a simultaneous's centre
ROUNDS_BEGUN = _declare("rounds_begun", status=409)
# a simultaneous's centre plays the sealed game: no typed rack or top, no other game
SEALED_GAME = _declare("sealed_game", status=409)
# a simultaneous's game: its window has closed, no rack is drawn any more
WINDOW_CLOSED = _declare("window_closed", "game", status=409)
# a simultaneous's game: its window has not opened (``opens``: ms since the epoch)
NOT_OPEN_YET = _declare("not_open_yet", "opens", status=409)
# a simultaneous's results (and the game as training) come once its window closed
RESULTS_SEALED = _declare("results_sealed", "closes", status=403)
# a simultaneous's code or id is no table to play or join at
NOT_A_TABLE = _declare("not_a_table", status=409)
# a simultaneous's games: none, too many, or a window that closes before it opens
BAD_SCHEDULE = _declare("bad_schedule", "max")
# --- a table a tournament trusts (seats, the board, the game clock, the challenge) ---
# tiles without a score: only the player to move (or the host) lays them on the board
NOT_YOUR_BOARD = _declare("not_your_board", "to_move")
# the game clock: only the player whose time runs (or the host) taps it
NOT_YOUR_CLOCK = _declare("not_your_clock", "player")
# the game clock's first start: another player (or the host) starts the time of the player
# to move, as WESPA's "start your opponent's timer"
OTHERS_START_CLOCK = _declare("others_start_clock", "player")
# a player whose time ran out under a rule set where that loses the game plays no more
OUT_OF_TIME = _declare("out_of_time", "player")
# the game clock: that player's time was called already (phones at zero call it at once)
TIME_CALLED = _declare("time_called", "player", status=409)
# the game clock's minutes per player, off (0) or from ``min`` to ``max``
CLOCK_MINUTES_OUT_OF_RANGE = _declare("clock_minutes_out_of_range", "max", "min", "minutes")
# a challenge names the latest move; that line is not (or no longer) it
NOTHING_TO_CHALLENGE = _declare("nothing_to_challenge")
# the move was challenged already
ALREADY_CHALLENGED = _declare("already_challenged")
# the rule set challenges no word at the table (SBNL: the jury checks after the game), or
# this mode has none
NO_CHALLENGE = _declare("no_challenge", "rules")
# a challenger challenges another player's move, not their own
OWN_MOVE = _declare("own_move")
# online: a move stands and the game ends by the rules only; an undo or an early end would
# show a rack that its owner alone has seen (or the next draw)
ONLINE_FINAL = _declare("online_final", status=409)
# the word check of this list stays on the server (online play, a running room or game)
WORD_CHECK_SECRET = _declare("word_check_secret", status=403)
# a device's own label: at most ``max`` characters
LABEL_TOO_LONG = _declare("label_too_long", "max")
