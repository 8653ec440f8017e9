"""Field encodings shared by actions and events (the one documented JSON form)."""

from __future__ import annotations

from typing import Any

from .grid import cell_from_json, cell_to_json, format_cell
from .pieces import DESIGN_NAMES, TOTEM_NAMES, design_from_name, totem_from_name


def encode_field(name: str, value: Any) -> Any:
    """A field value in its JSON form (cells as [x, y], designs and kinds by name)."""
    if name == "cell":
        return cell_to_json(value)
    if name == "cells":
        return [cell_to_json(c) for c in value]
    if name == "design":
        return DESIGN_NAMES[value]
    if name == "kind":
        return TOTEM_NAMES[value]
    if name == "designs":
        return [DESIGN_NAMES[d] for d in value]
    if isinstance(value, tuple):
        return [encode_field("", v) for v in value]
    return value


def decode_field(name: str, value: Any) -> Any:
    """Read a field from its JSON form; ValueError or TypeError with the reason."""
    if name == "cell":
        return cell_from_json(value)
    if name == "cells":
        if not isinstance(value, list) or not value:
            raise ValueError("cells must be a non-empty list of [x, y]")
        return tuple(sorted(cell_from_json(v) for v in value))
    if name == "design":
        return design_from_name(value)
    if name == "kind":
        return totem_from_name(value)
    if name in ("seat", "slot"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"must be an integer, got {value!r}")
        return value
    if name == "card":
        if not isinstance(value, str) or not value:
            raise ValueError(f"must be a card id string, got {value!r}")
        return value
    raise ValueError(f"unknown field {name}")  # pragma: no cover - table is closed


def text_field(name: str, value: Any) -> str:
    """A field value as short text for transcripts and the terminal."""
    if name == "cell":
        return format_cell(value)
    if name == "cells":
        return " ".join(format_cell(c) for c in value)
    if name == "design":
        return DESIGN_NAMES[value]
    if name == "kind":
        return TOTEM_NAMES[value]
    if name == "designs":
        return " ".join(DESIGN_NAMES[d] for d in value) or "nothing"
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)
