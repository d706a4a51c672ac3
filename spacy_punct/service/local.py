"""The service run on a thread of this process, for tests and scripts:
`with running_service(["en"]) as url: ...`, and how they open its page in
a headless Chromium."""

import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Sequence

import httpx

from ..pipelines.loading import load_pipeline
from .access import Access
from .app import ServiceLimits, create_app
from .server import Timeouts, make_server

# a headless Chromium on a machine with no network: without the background
# services' flags it tries to reach its vendor's hosts at every start
HEADLESS_CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def running_service(
    models: Sequence[str],
    limits: ServiceLimits = ServiceLimits(),
    timeout: float = 300.0,
    access: Access = Access(),
    timeouts: Timeouts = Timeouts(),
) -> Iterator[str]:
    """The service of `models` on a free loopback port, ready (its /health
    answers 200); yields its address and stops it on leaving."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(list(models), lambda name: load_pipeline(name, threads=None), limits)
    server = make_server(app, "127.0.0.1", port, access, timeouts)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{url}/health").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError(f"the service at {url} did not become ready")
            time.sleep(0.1)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=30)
