"""`skytotems serve`: the game server's own command (defined with the server), listed here."""

from skytotems.server.command import serve

__all__ = ["serve"]
