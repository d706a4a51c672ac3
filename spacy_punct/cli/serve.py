"""`spacy-punct serve`: the punctuation service (the `serve` extra)."""

from pathlib import Path
from typing import List

import typer
from spacy.util import is_package

from ..jobs.inputs import use_threads
from ..pipelines.bundled import bundled_names, resolve_model
from ..pipelines.loading import load_pipeline
from ..runtime.threads import DEFAULT_THREADS
from ._util import (
    THREADS_HELP,
    app,
    fail,
)


@app.command(short_help="Serve pipelines over HTTP and WebSocket.")
def serve(
    models: List[str] = typer.Argument(..., help="Pipeline names or paths; the first is the default."),
    host: str = typer.Option("127.0.0.1", help="The address to listen on."),
    port: int = typer.Option(8080, min=0, max=65535, help="The port to listen on."),
    max_queue: int = typer.Option(256, min=1, help="Requests waiting per pipeline; more are answered 503 at once."),
    batch_items: int = typer.Option(
        64, min=1, help="Texts or records that one batch gathers from the waiting requests."
    ),
    batch_wait_ms: float = typer.Option(
        5.0, min=0.0, help="Milliseconds a batch waits for more requests after its first."
    ),
    max_request_mb: float = typer.Option(8.0, min=0.001, help="The largest request body read, in MB."),
    max_text_words: int = typer.Option(
        100_000, min=1, help="Words of one text, record or recogniser's output; more are answered 413 at once."
    ),
    max_request_words: int = typer.Option(200_000, min=1, help="Words of one request; more are answered 413."),
    max_message_words: int = typer.Option(
        5_000, min=1, help="Words of one /stream message; more end the stream with an error (close code 1009)."
    ),
    stream_idle_s: float = typer.Option(
        300.0, min=0.1, help="Seconds a /stream may go without a message before it is closed."
    ),
    allowed_host: List[str] = typer.Option(
        [],
        help="A host name the service answers as (repeatable; '*' any). Default: the loopback names when "
        "listening on loopback, else any; other Host headers are refused (against DNS rebinding).",
    ),
    allowed_origin: List[str] = typer.Option(
        [],
        help="An origin (scheme://host:port) whose pages may call the service (repeatable; '*' any). Default: "
        "the service's own, and the loopback origins when listening on loopback.",
    ),
    header_timeout_s: float = typer.Option(10.0, min=0.1, help="Seconds for a request's headers to arrive."),
    keep_alive_s: float = typer.Option(5.0, min=1.0, help="Seconds an idle kept-alive connection stays open."),
    shutdown_timeout_s: float = typer.Option(
        30.0, min=1.0, help="Seconds the requests in flight have to finish after SIGTERM."
    ),
    engine: str = typer.Option(
        "local", help="local: uvicorn in this process; ray: Ray Serve (the ray extra; RAY_ADDRESS for a cluster)."
    ),
    replicas: int = typer.Option(
        1,
        min=1,
        help="Copies of the pipelines punctuating requests side by side, each on --threads torch threads: "
        "processes of their own (local; 2 with --threads 1 use two cores best) or Ray Serve replicas (ray).",
    ),
    threads: int = typer.Option(DEFAULT_THREADS, help=THREADS_HELP),
) -> None:
    """Serve the pipelines, each loaded once: POST /punctuate ({"model",
    "texts"} or {"records"}, or a recogniser's JSON), WebSocket /stream
    (?model=&lookahead=), GET /health, GET /models, and a page at /.
    Requests must be JSON (Content-Type: application/json); long ones run
    in steps beside the others, and a client that leaves has its work dropped.
    SIGTERM or Ctrl-C: the requests in flight finish (within
    --shutdown-timeout-s), new ones are refused, and the service exits 0.
    Deploying it: docs/service.md."""
    try:
        from ..service.access import access_from
        from ..service.app import ServiceLimits, create_app
        from ..service.server import Timeouts, make_server
    except ImportError as e:
        fail(f"serve needs the serve extra (pip install spacy-punct[serve]): {e}")
    use_threads(threads)
    for model in models:  # a name that names nothing fails here, not in /health
        found = resolve_model(model)
        if isinstance(found, str) and not (is_package(found) or Path(found).exists()):
            fail(f"{model!r} is no bundled pipeline ({', '.join(bundled_names())}), installed package or folder.")
    limits = ServiceLimits(
        max_queue=max_queue,
        batch_items=batch_items,
        batch_wait=batch_wait_ms / 1000,
        max_request_bytes=int(max_request_mb * 1_000_000),
        max_text_words=max_text_words,
        max_request_words=max_request_words,
        max_message_words=max_message_words,
        stream_idle=stream_idle_s,
    )
    if engine == "ray":
        try:
            from ..service.replicas import serve_on_ray
        except ImportError as e:
            fail(f"--engine ray needs the ray extra (pip install spacy-punct[ray]): {e}")
        serve_on_ray(list(models), limits, replicas=replicas, threads=threads, host=host, port=port)
        return
    if engine != "local":
        fail(f"unknown --engine {engine!r}; choose local or ray.")
    service = create_app(
        list(models), lambda name: load_pipeline(name, threads=None), limits, replicas=replicas, replica_threads=threads
    )
    timeouts = Timeouts(headers=header_timeout_s, keep_alive=keep_alive_s, shutdown=shutdown_timeout_s)
    make_server(service, host, port, access_from(allowed_host, allowed_origin), timeouts).run()
