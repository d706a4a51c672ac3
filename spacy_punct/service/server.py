"""The service's HTTP server: uvicorn with a time limit on a request's
headers (uvicorn has none: a client sending them slowly holds a socket
forever), the keep-alive and shutdown timeouts, and an exit status of 0
after SIGTERM (uvicorn raises the signal again once it has shut down)."""

import contextlib
import signal
import threading
from asyncio import TimerHandle
from dataclasses import dataclass
from typing import Any, Iterator, Optional

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .access import Access, guard


@dataclass(frozen=True)
class Timeouts:
    """Seconds: for a request's headers to arrive, an idle kept-alive
    connection, and the requests in flight to finish after SIGTERM."""

    headers: float = 10.0
    keep_alive: float = 5.0
    shutdown: float = 30.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol that closes a connection whose request's
    headers have not all arrived `header_timeout` seconds after it opened
    or after its last response."""

    header_timeout = Timeouts.headers
    _header_timer: Optional[TimerHandle] = None

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        waiting = bool(self.pipeline)  # a pipelined request whose headers are in starts now
        super().on_response_complete()
        if not waiting and not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Any) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server, but SIGTERM and SIGINT end it with status 0 once
    the requests in flight are done (uvicorn's own raises the signal again)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        before = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)


def make_server(app: Any, host: str, port: int, access: Access, timeouts: Timeouts = Timeouts()) -> Server:
    """The server of `app` on `host`:`port`, behind the access checks."""
    protocol = type("HeaderTimeout", (HeaderTimeoutProtocol,), {"header_timeout": timeouts.headers})
    config = uvicorn.Config(
        guard(app, access, host),
        host=host,
        port=port,
        http=protocol,
        log_level="warning",
        timeout_keep_alive=int(max(1, timeouts.keep_alive)),
        timeout_graceful_shutdown=int(max(1, timeouts.shutdown)),
    )
    return Server(config)
