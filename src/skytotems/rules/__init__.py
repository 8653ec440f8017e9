"""The pure Sky Totems rules engine (standard library only)."""
