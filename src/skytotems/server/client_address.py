"""The address of the client behind a request or socket, for per-address limits.

Behind a reverse proxy every connection comes from the proxy, and the client's address is
in `X-Forwarded-For` (each proxy appends the address it received the request from). That
header is believed only when the peer is a trusted proxy (`Settings.trusted_proxies`):
anyone else could write any address there and escape every per-address limit. The
client is then the rightmost address in the chain that is not a trusted proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """Parse addresses and networks ("10.0.0.1", "10.0.0.0/8", "::1"); ValueError if bad."""
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def _is_trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def resolve(peer: str, forwarded_for: Iterable[str], trusted: tuple[Network, ...]) -> str:
    """The client's address: `peer`, unless `peer` is trusted; then the rightmost address
    of the X-Forwarded-For values that is not itself a trusted proxy."""
    if not trusted or not _is_trusted(peer, trusted):
        return peer
    chain = [part.strip() for value in forwarded_for for part in value.split(",")]
    for address in reversed([a for a in chain if a]):
        if not _is_trusted(address, trusted):
            return address
    return peer


def of_scope(scope: Any, trusted: tuple[Network, ...]) -> str:
    """The client's address for an ASGI HTTP or WebSocket scope."""
    client = scope.get("client")
    peer = client[0] if client else "unknown"
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-for"
    ]
    return resolve(peer, forwarded, trusted)
