"""The service's web application (FastAPI): `POST /punctuate` (texts,
records, a recogniser's JSON) through one `Batcher` per pipeline,
`WebSocket /stream` (a `Streamer` per connection), `GET /health`,
`GET /models` and the page at `/`. Every error is one line of JSON:
{"error": "..."}, with its status."""

import asyncio
import functools
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse
from spacy.language import Language

from ..decode import DecisionSettings, check_settings
from ..formats.live_lines import line_words
from ..formats.recognisers import read_recognised, value_format
from ..formats.timed import RecordError
from ..inference.streaming import FixedLookahead, Streamer
from ..languages import guess_language
from ..pipelines.loading import find_punctuator
from .batcher import Batcher, BatchRun, QueueFull
from .processes import ReplicaProcesses
from .work import batch_run, run_items


@dataclass(frozen=True)
class ServiceLimits:
    """What one request may ask and how requests wait."""

    max_request_bytes: int = 8_000_000  # a request body
    max_items: int = 1_000  # texts or records in one request
    max_queue: int = 256  # requests waiting for a pipeline; more are refused with 503
    batch_items: int = 64  # texts or records a batch gathers
    batch_wait: float = 0.005  # seconds a batch waits for more after its first request
    max_lookahead: int = 32  # /stream
    stream_runs: int = 2  # /stream: threads running the streams' models, for all connections (more only add memory)


class ServiceError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def create_app(
    models: Sequence[str],
    load: Callable[[str], Language],
    limits: ServiceLimits = ServiceLimits(),
    *,
    load_now: bool = False,
    replicas: int = 1,
    replica_threads: int = 1,
) -> FastAPI:
    """The application serving the pipelines named `models`, each loaded
    once by `load` on a thread of its own when the application starts:
    `/health` answers 503 until every one is loaded. With `load_now`, they
    are loaded before this returns (a Ray Serve replica, ready once loaded).
    With `replicas` above 1, requests are punctuated by that many copies of
    the pipelines in processes of their own (`processes.ReplicaProcesses`,
    `replica_threads` torch threads each), side by side; the streams and
    the requests' settings read the copy in this process."""
    pipelines: Dict[str, Language] = {}
    batchers: Dict[str, Batcher] = {}
    copies: List[ReplicaProcesses] = []
    state: Dict[str, Optional[str]] = {"error": None}
    # the streams' models run on a few threads of their own (made at the first
    # stream): a thread each, waiting its turn, would each keep an allocator arena
    stream_pool: Dict[str, ThreadPoolExecutor] = {}

    def load_all() -> None:
        try:
            if replicas > 1:
                copies.append(ReplicaProcesses(models, replicas, replica_threads))
            for name in models:
                nlp = load(name)
                batchers[name] = Batcher(
                    _batch_runs(name, nlp, copies[0] if copies else None),
                    max_queue=limits.max_queue,
                    max_items=limits.batch_items,
                    max_wait=limits.batch_wait,
                )
                pipelines[name] = nlp
        except Exception as e:  # shown by /health
            state["error"] = str(e)

    if load_now:
        load_all()

    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        loader = threading.Thread(target=None if load_now else load_all, name="spacy-punct-loader", daemon=True)
        loader.start()
        yield
        loader.join()
        for batcher in batchers.values():
            batcher.close()  # the requests taken finish first
        for processes in copies:
            processes.close()
        if "pool" in stream_pool:
            stream_pool.pop("pool").shutdown(wait=True)

    app = FastAPI(title="spacy-punct", lifespan=lifespan)

    async def in_stream_pool(run: Callable[..., Any], *args: Any) -> Any:
        if "pool" not in stream_pool:
            stream_pool["pool"] = ThreadPoolExecutor(limits.stream_runs, thread_name_prefix="spacy-punct-stream")
        return await asyncio.get_running_loop().run_in_executor(stream_pool["pool"], run, *args)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    def pipeline(name: Any) -> Tuple[str, Language]:
        if not isinstance(name, str) or name not in models:
            raise ServiceError(404, f"unknown model {name!r}; this service has {', '.join(models)}.")
        if name not in pipelines:
            raise ServiceError(503, f"the model {name!r} is still loading.")
        return name, pipelines[name]

    @app.get("/health")
    async def health() -> JSONResponse:
        if state["error"]:
            return JSONResponse({"status": "failed", "error": state["error"]}, status_code=500)
        if len(pipelines) < len(models):
            return JSONResponse({"status": "loading", "loaded": sorted(pipelines)}, status_code=503)
        return JSONResponse({"status": "ready", "models": list(models)})

    @app.get("/models")
    async def list_models() -> Dict[str, Any]:
        return {
            "models": [
                {
                    "name": name,
                    "loaded": name in pipelines,
                    "pipeline": pipelines[name].pipe_names if name in pipelines else None,
                    "lang": pipelines[name].lang if name in pipelines else None,
                }
                for name in models
            ]
        }

    @app.get("/", response_class=HTMLResponse)
    async def page() -> str:
        return resources.files(__package__).joinpath("page.html").read_text(encoding="utf8")

    @app.post("/punctuate")
    async def punctuate_request(request: Request) -> JSONResponse:
        body = await _json_body(request, limits.max_request_bytes)
        if isinstance(body, list):  # faster-whisper's segments or words, for the default pipeline
            body = {"transcript": body}
        kind, items = _items(body, limits.max_items)
        chosen = body.get("model")
        if chosen is None and kind == "transcript" and len(models) > 1:  # the pipeline of the file's language
            chosen = model_for(items[0], {name: str(nlp.lang) for name, nlp in pipelines.items()})
        name, nlp = pipeline(models[0] if chosen is None else chosen)
        settings = request_settings(nlp, body)
        try:
            future = batchers[name].submit(items, (kind, settings))
        except QueueFull as e:
            raise ServiceError(503, f"busy: {e}; try again.") from None
        try:
            result = await asyncio.wrap_future(future)  # no thread waits for it
        except (RecordError, ValueError, TypeError) as e:
            raise ServiceError(400, str(e)) from None
        # plain JSON: no model of the response to validate; a recogniser's JSON comes back in its own shape
        return JSONResponse(result[0] if kind == "transcript" else {kind: result})

    @app.websocket("/stream")
    async def stream(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            _, nlp = pipeline(websocket.query_params.get("model", models[0]))
            lookahead = _whole_number(websocket.query_params.get("lookahead", "4"), "lookahead", limits.max_lookahead)
            streamer = Streamer(
                nlp,
                FixedLookahead(lookahead),
                settings=request_settings(
                    nlp,
                    {key: json.loads(value) for key, value in websocket.query_params.items() if key in _FLAGS},
                ),
            )
        except (ServiceError, ValueError) as e:
            await websocket.send_json({"error": getattr(e, "message", str(e))})
            await websocket.close(code=1008)
            return
        number = 0
        try:
            while True:
                message = await websocket.receive_text()
                number += 1
                if message.strip() in ('{"end": true}', '{"end":true}'):
                    committed = await in_stream_pool(streamer.flush)
                    await websocket.send_json({"committed": _committed(committed), "pending": 0, "end": True})
                    await websocket.close()
                    return
                try:
                    words = line_words(message, f"message {number}")
                    committed = await in_stream_pool(streamer.push_many, words)
                except RecordError as e:
                    await websocket.send_json({"error": str(e)})
                    continue
                await websocket.send_json({"committed": _committed(committed), "pending": streamer.pending})
        except WebSocketDisconnect:
            return

    return app


def model_for(item: Any, langs: Mapping[str, str]) -> Optional[str]:
    """The first of the models (`langs`: each one's language) that reads a
    recogniser's output in the language it names, or its words tell; None
    where none does, or the output cannot be read (its error comes later)."""
    try:
        text = item if isinstance(item, str) else json.dumps(item)
        transcript = read_recognised(text, None if isinstance(item, str) else value_format(item), name="transcript")[1]
    except (RecordError, ValueError):
        return None
    language = transcript.language or guess_language(word.text for word in transcript.words)
    return next((name for name, lang in langs.items() if lang == language), None)


def _batch_runs(name: str, nlp: Language, copies: Optional[ReplicaProcesses]) -> List[BatchRun]:
    """A batch run for each copy of the pipeline `name` that serves requests:
    `nlp` itself, or each of its copies in other processes."""
    if copies is None:
        return [batch_run(functools.partial(run_items, nlp))]
    return [batch_run(functools.partial(copies.run, replica, name)) for replica in range(len(copies))]


async def _json_body(request: Request, max_bytes: int) -> Any:
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise ServiceError(413, f"the request is {int(length):,} bytes; at most {max_bytes:,} are read.")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > max_bytes:
            raise ServiceError(413, f"the request is over {max_bytes:,} bytes, the most that are read.")
    try:
        body = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ServiceError(400, f"the request is not JSON ({getattr(e, 'msg', e)}).") from None
    if not isinstance(body, (dict, list)):
        raise ServiceError(400, 'the request must be a JSON object: {"model": ..., "texts": [...]}.')
    return body


def _items(body: Mapping[str, Any], max_items: int) -> Tuple[str, List[Any]]:
    """("texts", "records" or "transcript", the items): a recogniser's JSON
    (any shape a transcript format fits: Whisper's "segments", Deepgram's
    or Google's "results", ...) is one transcript, an object with timed
    "words" one record."""
    rest = {key: value for key, value in body.items() if key not in _OPTIONS}
    if "texts" in body:
        kind, items = "texts", body["texts"]
        if not isinstance(items, list) or not all(isinstance(text, str) for text in items):
            raise ServiceError(400, '"texts" must be a list of strings.')
    elif "records" in body:
        kind, items = "records", body["records"]
        if not isinstance(items, list) or not all(isinstance(record, dict) for record in items):
            raise ServiceError(400, '"records" must be a list of objects.')
    elif "transcript" in body:
        kind, items = "transcript", [body["transcript"]]
    elif value_format(rest):
        kind, items = "transcript", [rest]
    elif "words" in body:
        kind, items = "records", [rest]
    else:
        raise ServiceError(
            400, 'give "texts" (a list of strings), "records" (a list of objects) or a recogniser\'s JSON.'
        )
    if len(items) > max_items:
        raise ServiceError(413, f"{len(items)} {kind} in one request; at most {max_items}.")
    return kind, items


_FLAGS = ("keep_existing", "add_marks", "repair")
_OPTIONS = ("model", *_FLAGS, "thresholds", "margins", "end_threshold")


def request_settings(nlp: Language, body: Mapping[str, Any]) -> DecisionSettings:
    """The pipeline's decision settings with a request's options."""
    pipe = find_punctuator(nlp)[1]
    changes: Dict[str, Any] = {}
    for key in _FLAGS:
        if body.get(key) is not None:
            if not isinstance(body[key], bool):
                raise ServiceError(400, f'"{key}" must be true or false.')
            changes[key] = body[key]
    for key in ("thresholds", "margins"):
        if body.get(key) is not None:
            values = body[key]
            if not isinstance(values, dict) or not all(isinstance(v, (int, float)) for v in values.values()):
                raise ServiceError(400, f'"{key}" must be an object of labels and numbers.')
            changes[key] = {label.upper(): float(value) for label, value in values.items()}
    end_threshold = body.get("end_threshold")
    if end_threshold is not None:
        if (
            isinstance(end_threshold, bool)
            or not isinstance(end_threshold, (int, float))
            or not 0 <= end_threshold <= 1
        ):
            raise ServiceError(400, '"end_threshold" must be a number from 0 to 1.')
        changes["end_threshold"] = float(end_threshold)
    try:
        check_settings(pipe.label_set, changes.get("thresholds"), changes.get("margins"), ("thresholds", "margins"))
    except ValueError as e:
        raise ServiceError(400, str(e)) from None
    return pipe.settings.replace(**changes)


def _whole_number(value: str, name: str, largest: int) -> int:
    if not value.isdigit() or int(value) > largest:
        raise ServiceError(400, f"{name} must be a whole number from 0 to {largest}, not {value!r}.")
    return int(value)


def _committed(words: List[Any]) -> List[Dict[str, Any]]:
    return [
        {
            "index": w.index,
            "word": w.word,
            "text": w.text,
            "mark": w.mark,
            "sentence_start": w.sentence_start,
            "sentence_end": w.sentence_end,
            "start": w.start,
            "end": w.end,
            "closes": w.closes,
        }
        for w in words
    ]
