"""Who may use the web app, and who a request comes from.

Three checks keep other websites away from the games, whatever a user's
browser is made to send:

- **Host.** A request must name one of the hosts the server was started
  for in its ``Host`` header (the address it listens on; on a loopback
  address also ``localhost``; and the names given with
  ``boomboard serve --allowed-host``). Otherwise a page on another site
  whose name is pointed at this machine (DNS rebinding) could read and
  play the games as if it were the page itself.
- **Origin.** A request that changes something (a route of the app's
  whose method is not GET, HEAD or OPTIONS) from a browser must come from the server's own page: its
  ``Origin`` must be the host the request names (a proxy in front must pass
  the ``Host`` header on), or, without an ``Origin``, the browser's
  ``Sec-Fetch-Site`` must say ``same-origin``. Browsers send one or the other with every such
  request; programs that are not browsers send neither and are let through.
- **JSON bodies.** Such a request must carry a JSON body
  (``Content-Type: application/json``). A plain HTML form, or a ``fetch``
  from another site without a CORS preflight (which this server never
  grants), cannot send one.

A client, for the cap on the AI work one client may have under way, is
the address of its connection. ``X-Forwarded-For`` is read only when the
connection comes from a proxy named with ``boomboard serve
--trusted-proxy``: anyone else could write any address there, and so
take a fresh share of the workers with every request.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import Message
from urllib.parse import urlsplit

from starlette.routing import Match

from ..core.errors import ParameterError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
EVERY_ADDRESS = frozenset({"", "0.0.0.0", "::"})
# What a browser's Sec-Fetch-Site says of a request made by the page itself
# ("none": typed in the address bar or opened from a bookmark).
OWN_SITE = frozenset({"same-origin", "none"})

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _host_name(authority: str) -> str | None:
    """The host of ``host[:port]`` (an IPv6 address without its brackets), lowercase; None if malformed."""
    try:
        parts = urlsplit(f"//{authority}")
        parts.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        return None
    return parts.hostname or None


def served_hosts(listen_host: str, allowed: Iterable[str] = ()) -> frozenset[str]:
    """The host names a server listening on ``listen_host`` answers to: that
    address (a loopback one brings ``localhost`` and the other loopback
    addresses) and the names ``allowed``. A server listening on every
    address (``0.0.0.0``, ``::``) also answers any IP address: a name is
    what DNS rebinding needs, an address cannot be rebound."""
    names = set()
    for name in allowed:
        host = _host_name(name.strip())
        if host is None or "/" in name:
            raise ParameterError(f"--allowed-host takes a host name or address, such as games.example, got {name!r}")
        names.add(host)
    listen = listen_host.strip().strip("[]").lower()
    if listen in EVERY_ADDRESS or listen in LOOPBACK_NAMES or (
            (address := _address(listen)) is not None and address.is_loopback):
        names |= LOOPBACK_NAMES
    if listen not in EVERY_ADDRESS:
        names.add(listen)
    return frozenset(names)


def proxy_networks(proxies: Iterable[str]) -> tuple[Network, ...]:
    """The ``--trusted-proxy`` values as networks (an address is a network of one)."""
    networks = []
    for proxy in proxies:
        try:
            networks.append(ipaddress.ip_network(proxy.strip(), strict=False))
        except ValueError:
            raise ParameterError(f"--trusted-proxy takes an IP address or network, such as 127.0.0.1 or "
                                 f"10.0.0.0/8, got {proxy!r}") from None
    return tuple(networks)


@dataclass(frozen=True)
class RequestGuard:
    """The checks above. ``hosts``: the host names a request may name (None:
    any, for an app whose server checks them itself); ``any_address``: an IP
    address is a host too; ``trusted_proxies``: the proxies whose
    ``X-Forwarded-For`` is believed."""

    hosts: frozenset[str] | None = None
    any_address: bool = False
    trusted_proxies: tuple[Network, ...] = ()

    @classmethod
    def for_server(cls, listen_host: str, allowed_hosts: Iterable[str] = (),
                   trusted_proxies: Iterable[str] = ()) -> RequestGuard:
        """The guard of ``boomboard serve --host LISTEN_HOST --allowed-host ... --trusted-proxy ...``."""
        listen = listen_host.strip().strip("[]").lower()
        return cls(served_hosts(listen_host, allowed_hosts), any_address=listen in EVERY_ADDRESS,
                   trusted_proxies=proxy_networks(trusted_proxies))

    def _trusted(self, text: str) -> bool:
        address = _address(text)
        return address is not None and any(address in network for network in self.trusted_proxies)

    def client(self, scope: dict) -> str | None:
        """The address a request comes from: its connection's, or, from a
        trusted proxy, the last address in ``X-Forwarded-For`` that is not
        one of the trusted proxies (the one the first trusted proxy saw)."""
        peer = scope.get("client")
        address = peer[0] if peer else None
        if address is None or not self._trusted(address):
            return address
        forwarded = ",".join(value.decode("latin-1") for name, value in scope.get("headers", ())
                             if name == b"x-forwarded-for")
        for hop in reversed([hop.strip() for hop in forwarded.split(",") if hop.strip()]):
            if _address(hop) is None:  # not an address: the proxy's own record ends here
                break
            address = hop
            if not self._trusted(hop):
                break
        return address

    def refusal(self, scope: dict, changes: bool) -> tuple[int, str] | None:
        """Why a request is refused, as ``(status, message)``; None to let it
        through. ``changes``: it asks for one of the app's changes (a request
        for no route is left to the app's own 404 or 405)."""
        headers = {}
        for name, value in scope.get("headers", ()):
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        host = headers.get("host", "")
        name = _host_name(host)
        if self.hosts is not None and not (name in self.hosts or (self.any_address and _address(name or "x"))):
            return 400, (f"this server does not answer for the host {host!r}; it answers for "
                         f"{', '.join(sorted(self.hosts))} (boomboard serve --allowed-host adds a name)")
        if not changes:
            return None
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if not (parts.scheme in ("http", "https") and host and parts.netloc.lower() == host.lower()):
                return 403, (f"a request from the page at {origin!r} may not change this server's games: "
                             f"only the server's own page may")
        elif headers.get("sec-fetch-site", "same-origin") not in OWN_SITE:
            return 403, "a request from another site may not change this server's games: only the server's own page may"
        message = Message()
        message["content-type"] = headers.get("content-type", "")
        if message.get_content_type() != "application/json":
            return 415, "send the request's body as JSON, with Content-Type: application/json ({} when empty)"
        return None


class GuardMiddleware:
    """Refuses, before the app sees them, the requests :class:`RequestGuard` refuses,
    with a JSON ``{"error": ...}`` like the app's own errors."""

    def __init__(self, app, guard: RequestGuard):
        self.app, self.guard = app, guard

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            # scope["app"]: the application this middleware is part of (Starlette puts it there)
            changes = scope["method"] not in SAFE_METHODS and any(
                route.matches(scope)[0] == Match.FULL for route in scope["app"].router.routes)
            refusal = self.guard.refusal(scope, changes)
            if refusal is not None:
                status, message = refusal
                body = json.dumps({"error": message}).encode()
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
