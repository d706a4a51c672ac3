"""Who may reach the service: the hosts it answers as (against DNS
rebinding: a page elsewhere whose name now points here) and the origins
whose pages may call it (against a page the user opens elsewhere driving
the local service). A request without an Origin header (curl, a script)
is no page's and passes the origin check."""

import ipaddress
import json
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Dict, Optional, Sequence, Tuple

ASGIApp = Callable[
    [Dict[str, Any], Callable[[], Awaitable[Dict[str, Any]]], Callable[..., Awaitable[None]]], Awaitable[None]
]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Access:
    """The hosts (names, without a port; "*" for any) and origins
    (`scheme://host[:port]`; "*" for any) the service accepts. None: the
    loopback names when it listens on a loopback address, else any host;
    and the service's own origin (the host the request names), and the
    loopback origins when it listens on one."""

    hosts: Optional[Tuple[str, ...]] = None
    origins: Optional[Tuple[str, ...]] = None

    def allowed_hosts(self, bound: str) -> Tuple[str, ...]:
        if self.hosts is not None:
            return tuple(host.lower() for host in self.hosts)
        return LOOPBACK_NAMES if is_loopback(bound) else ("*",)

    def host_allowed(self, host: str, bound: str) -> bool:
        allowed = self.allowed_hosts(bound)
        return "*" in allowed or host_name(host) in allowed

    def origin_allowed(self, origin: str, host: str, bound: str) -> bool:
        """Whether a page of `origin` may call the service reached as `host`."""
        origin = origin.lower().rstrip("/")
        if self.origins is not None and ("*" in self.origins or origin in (o.lower() for o in self.origins)):
            return True
        if origin.split("://", 1)[-1] == host.lower():  # the service's own page
            return True
        if self.origins is None and is_loopback(bound):
            return host_name(origin.split("://", 1)[-1]) in LOOPBACK_NAMES
        return False


def is_loopback(address: str) -> bool:
    if address.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str:
    """A Host header's name without its port (`[::1]:8080` -> `::1`)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def guard(app: ASGIApp, access: Access, bound: str) -> ASGIApp:
    """`app` behind the host and origin checks: a request that fails them
    is answered 403 with a one-line JSON error (a WebSocket's handshake is
    refused with 403)."""

    async def guarded(scope: Dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope["headers"]}
        host, origin = headers.get("host", ""), headers.get("origin")
        reason = None
        if not access.host_allowed(host, bound):
            reason = f"the host {host!r} is not one this service answers as (--allowed-host)."
        elif origin is not None and not access.origin_allowed(origin, host, bound):
            reason = f"pages of {origin!r} may not call this service (--allowed-origin)."
        if reason is None:
            await app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.http.response.start", "status": 403, "headers": _JSON_HEADERS})
            await send({"type": "websocket.http.response.body", "body": _error_body(reason)})
        else:
            await send({"type": "http.response.start", "status": 403, "headers": _JSON_HEADERS})
            await send({"type": "http.response.body", "body": _error_body(reason)})

    return guarded


_JSON_HEADERS = [(b"content-type", b"application/json")]


def _error_body(message: str) -> bytes:
    return json.dumps({"error": message}).encode("utf8")


def access_from(hosts: Sequence[str], origins: Sequence[str]) -> Access:
    """The access the command line's options give (none given: the defaults)."""
    return Access(tuple(hosts) or None, tuple(origins) or None)
