"""Pydantic models: every HTTP body and every WebSocket message from a client is one.

Anything that does not fit (unknown field, wrong type, too long) is refused before it
reaches the table service. Actions themselves are checked by the engine's own reader
(`action_from_json`) and then by the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    TypeAdapter,
    WithJsonSchema,
)

from skytotems.bots.analysis import LEVELS as ANALYSIS_LEVELS

from .bots import BOT_LEVELS
from .clocks import CLOCK_MODES

ClockName = Literal["none", "fast", "normal", "slow", "24h", "72h"]
assert set(ClockName.__args__) == set(CLOCK_MODES)  # type: ignore[attr-defined]
if TYPE_CHECKING:
    BotLevel = str
else:  # the bot registry's names, as a Literal so the schema lists them
    BotLevel = Literal[BOT_LEVELS]


def storable_text(value: str) -> str:
    """Text that every database stores: PostgreSQL refuses U+0000 in text, which made a
    chat message or a name with it a failed commit (`storage`, or a 500) there."""
    if "\x00" in value:
        raise ValueError("text must not contain the character U+0000")
    return value


Text = Annotated[str, AfterValidator(storable_text)]
Name = Annotated[Text, Field(min_length=1, max_length=40)]
Token = Annotated[str, Field(min_length=8, max_length=128)]
MAX_ID_INT = 2**53  # the largest integer every JSON client (a browser's double) holds exactly
MAX_ID_CHARS = 64


def message_id(value: object) -> int | str | None:
    """A message id the server can echo in any reply: an integer within ±2^53, a string of
    at most 64 characters, or none. Anything else (an integer beyond 64 bits broke the
    JSON writer after the move was committed) is refused before the message is read."""
    if value is None:
        return None
    if type(value) is int and -MAX_ID_INT <= value <= MAX_ID_INT:
        return value
    if type(value) is str and len(value) <= MAX_ID_CHARS:
        return value
    raise ValueError(
        f"message ids are integers within ±2^53 or strings of at most {MAX_ID_CHARS} characters"
    )


MessageId = Annotated[
    int | str | None,
    PlainValidator(message_id),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer", "minimum": -MAX_ID_INT, "maximum": MAX_ID_INT},
                {"type": "string", "maxLength": MAX_ID_CHARS},
                {"type": "null"},
            ]
        }
    ),
    Field(default=None),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------------ HTTP


class OptionsIn(Strict):
    """Game options (RULES.md §10): players 1 (solo) to 4, totem set, tie-break; and
    the privacy option of RULES.md §11."""

    players: int = Field(2, ge=1, le=4)
    totems: str = Field("beginner", max_length=80)
    tie_break: Literal["bga", "rulebook"] = "bga"
    confirm_turns: bool = Field(
        False,
        description="every turn ends with a confirmation (reveal a goal, or end the turn) "
        "and the last reveals ask every seat, so others cannot tell from a turn's end "
        "whether its player could reveal a goal (RULES.md §11)",
    )


class SeatIn(Strict):
    """One player: a human (gets a token), a bot of a level, or a seat left open to join."""

    type: Literal["human", "bot", "open"] = "human"
    name: Name | None = None
    level: BotLevel | None = None


class CreateTable(Strict):
    """A new table. `seats` lists the players in seat order (one in solo)."""

    options: OptionsIn = Field(default_factory=lambda: OptionsIn.model_validate({}))
    seats: list[SeatIn] = Field(min_length=1, max_length=4)
    clock: ClockName = "none"
    listed: bool = Field(
        True,
        description="shown among the lobby's open tables; false for a private game "
        "(against bots, or with invited friends only) that its players find by their tokens",
    )


class SeatOut(BaseModel):
    player: int
    name: str
    kind: Literal["human", "bot", "open"]
    level: str | None = None


class TableSummary(BaseModel):
    """Public facts about a table (no seed, no hidden card)."""

    id: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "finished", "expired"]
    clock: ClockName
    seats: list[SeatOut]
    seq: int | None = None
    move: int | None = None
    created_ms: int
    finished_ms: int | None = None
    result: dict[str, Any] | None = None
    listed: bool = True
    to_move: list[int] = Field(
        default_factory=list, description="the players whose turn it is (while playing)"
    )


class SeatToken(BaseModel):
    """A seat's secret token: the invite link of that seat and nothing else."""

    player: int
    token: str


class CreatedTable(BaseModel):
    table: TableSummary
    tokens: list[SeatToken]


class JoinTable(Strict):
    name: Name


class Joined(BaseModel):
    table: TableSummary
    player: int
    token: str


class TableList(BaseModel):
    tables: list[TableSummary]


class Bots(BaseModel):
    """The bot levels a table may seat (the lobby's list) and the older names still read."""

    levels: list[str]
    aliases: dict[str, str]


class Refusal(BaseModel):
    """Every refusal: a short machine-readable `code` and a sentence; nothing changed."""

    code: str
    message: str


# The limits' answers, possible on every route (HttpLimits checks before any route runs).
LIMIT_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: {
        "model": Refusal,
        "description": "The request body is over the size limit (`too_large`), checked "
        "before it is read; nothing changed.",
    },
    429: {
        "model": Refusal,
        "description": "Too many requests (or tables created) from this client address "
        "(`rate_limited`); nothing changed.",
        "headers": {
            "Retry-After": {
                "description": "Seconds to wait before trying again.",
                "schema": {"type": "integer", "minimum": 1},
            }
        },
    },
}


AnalysisLevelName = Literal["fast", "greedy", "thorough"]
assert set(AnalysisLevelName.__args__) == set(ANALYSIS_LEVELS)  # type: ignore[attr-defined]


class AnalysisJob(BaseModel):
    """The post-game analysis of a finished table at a level (docs/analysis.md): one job
    per table and level, shared by everyone. `done` of `total` decisions are analysed
    (`total` is null until the worker has counted them); `decisions` are those done so
    far, and `result` is the CLI's `--json` report once `status` is "done". Status
    "none": nobody has asked for it yet."""

    table_id: str
    level: AnalysisLevelName
    status: Literal["none", "queued", "running", "done", "failed"]
    done: int
    total: int | None
    decisions: list[dict[str, Any]]
    result: dict[str, Any] | None
    error: str | None


class Health(BaseModel):
    status: Literal["ok"]
    tables_in_memory: int
    connections: int


class Ready(BaseModel):
    """Readiness: each dependency's state ("ok" or why not); `reason` when unready."""

    status: Literal["ready", "unready"]
    checks: dict[str, str]
    reason: str | None = None


# ------------------------------------------------------------------- WebSocket


class Hello(Strict):
    """First message on a socket: a seat token (none: spectator) and the last seq seen."""

    type: Literal["hello"]
    token: Token | None = None
    seq: int | None = Field(None, ge=0)


class Act(Strict):
    """Play `action` (engine wire format) on the state numbered `seq`."""

    type: Literal["act"]
    id: MessageId
    seq: int = Field(ge=0)
    action: dict[str, Any]


class Undo(Strict):
    """Undo the last action, or restart the turn (back to the last revealing point)."""

    type: Literal["undo"]
    id: MessageId
    seq: int = Field(ge=0)
    to: Literal["last", "turn"] = "last"


class Takeover(Strict):
    """Ask for a bot to play `player`, whose time has run out."""

    type: Literal["takeover"]
    id: MessageId
    player: int = Field(ge=0, le=3)


class Ping(Strict):
    type: Literal["ping"]
    id: MessageId


class Chat(Strict):
    """Say `text` at the table: a seated player in the players' channel, a spectator
    (under `name`) in the spectators' one. Plain text; the length limit is a setting."""

    type: Literal["chat"]
    id: MessageId
    text: Text = Field(min_length=1, max_length=4000)
    name: Name | None = None


ClientMessage = Annotated[Hello | Act | Undo | Takeover | Ping | Chat, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[Hello | Act | Undo | Takeover | Ping | Chat] = TypeAdapter(
    ClientMessage  # type: ignore[arg-type,unused-ignore]
)
