"""The refusals the server sends: a short code, a sentence, an HTTP status; nothing changed.

Every layer of the server raises them (the service, the archive, the socket and HTTP
adapters), so they live apart from all of them.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal sent to the client: a short `code` and a sentence; nothing changed."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def expired_error(status: int = 400) -> ServiceError:
    """What a join or a move on a table closed for want of players gets."""
    return ServiceError("table_expired", "this table was closed: its game never started", status)


def not_found() -> ServiceError:
    return ServiceError("not_found", "there is no such table", 404)


def storage_unreachable() -> ServiceError:
    """What any request needing the database gets while the database does not answer."""
    return ServiceError(
        "storage", "the database is unreachable for now; nothing was changed, try again", 503
    )
