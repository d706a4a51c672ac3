"""The service's web application (FastAPI): `POST /punctuate` (texts,
records, a recogniser's JSON) through one `Batcher` per pipeline,
`WebSocket /stream` (a `Streamer` per connection), `GET /health`,
`GET /models` and the page at `/`. Every error is one line of JSON:
{"error": "..."}, with its status (4xx for anything a client sends); a
stream's error is such a message, then a close frame with its code. The
work of a request is bounded (`ServiceLimits`), a long one runs in steps
beside the others, and a request whose client left is dropped."""

import asyncio
import functools
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from spacy.language import Language
from starlette.exceptions import HTTPException

from ..decode import DecisionSettings
from ..errors import UserError
from ..formats.live_lines import line_words
from ..formats.recognisers import read_recognised, value_format
from ..formats.timed import RecordError
from ..inference.options import REQUEST_FLAGS, PunctOptions
from ..inference.streaming import FixedLookahead, Streamer
from ..languages import guess_language
from .batcher import Batcher, BatchRun, QueueFull, StepsRun
from .processes import ReplicaProcesses
from .work import batch_run, item_words, local_steps, run_items, steps_in_groups


@dataclass(frozen=True)
class ServiceLimits:
    """What one request may ask and how requests wait."""

    max_request_bytes: int = 8_000_000  # a request body
    max_items: int = 1_000  # texts or records in one request
    max_queue: int = 256  # requests waiting for a pipeline; more are refused with 503
    batch_items: int = 64  # texts or records a batch gathers
    batch_wait: float = 0.005  # seconds a batch waits for more after its first request
    max_text_words: int = 100_000  # words of one text, record or recogniser's output
    max_request_words: int = 200_000  # words of one request
    step_words: int = 4_000  # a request of more words runs in steps of about this many, in turn with the others
    max_lookahead: int = 32  # /stream
    max_message_words: int = 5_000  # /stream: words of one message
    max_message_bytes: int = 1_000_000  # /stream: one message
    stream_idle: float = 300.0  # /stream: seconds without a message before the stream is closed
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
                runs, steps = _batch_runs(name, nlp, copies[0] if copies else None, limits.step_words)
                batchers[name] = Batcher(
                    runs,
                    steps,
                    max_queue=limits.max_queue,
                    max_items=limits.batch_items,
                    max_wait=limits.batch_wait,
                    step_words=limits.step_words,
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

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        message = {404: f"no {request.url.path} here", 405: f"{request.method} is not for {request.url.path}"}
        text = message.get(error.status_code, str(error.detail))
        return JSONResponse({"error": f"{text}."}, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": "the request cannot be read."}, status_code=400)

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
        words = _words(kind, items, limits)
        chosen = body.get("model")
        if chosen is None and kind == "transcript" and len(models) > 1:  # the pipeline of the file's language
            chosen = model_for(items[0], {name: str(nlp.lang) for name, nlp in pipelines.items()})
        name, nlp = pipeline(models[0] if chosen is None else chosen)
        settings = request_settings(nlp, body)
        try:
            future = batchers[name].submit(items, (kind, settings), words)
        except QueueFull as e:
            raise ServiceError(503, f"busy: {e}; try again.") from None
        try:
            result = await _unless_gone(request, asyncio.wrap_future(future))  # no thread waits for it
        except (RecordError, ValueError, TypeError, RecursionError) as e:
            raise ServiceError(400, str(e)) from None
        except QueueFull as e:
            raise ServiceError(503, f"{e}.") from None
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
                    {key: json.loads(value) for key, value in websocket.query_params.items() if key in REQUEST_FLAGS},
                ),
            )
        except (ServiceError, ValueError) as e:
            await websocket.send_json({"error": getattr(e, "message", str(e))})
            await websocket.close(code=1008)
            return
        number = 0
        try:
            while True:
                try:
                    message = await asyncio.wait_for(websocket.receive(), timeout=limits.stream_idle)
                except asyncio.TimeoutError:
                    idle = f"no message for {limits.stream_idle:g} seconds: the stream is closed."
                    raise StreamClosed(1001, idle) from None
                if message["type"] == "websocket.disconnect":
                    return
                number += 1
                text = _message_text(message, number, limits)
                if text.strip() in ('{"end": true}', '{"end":true}'):
                    committed = await in_stream_pool(streamer.flush)
                    await websocket.send_json({"committed": _committed(committed), "pending": 0, "end": True})
                    await websocket.close()
                    return
                try:
                    words = _message_words(text, number, limits)
                except RecordError as e:
                    await websocket.send_json({"error": str(e)})
                    continue
                committed = await in_stream_pool(streamer.push_many, words)
                await websocket.send_json({"committed": _committed(committed), "pending": streamer.pending})
        except StreamClosed as e:
            await _close_with_error(websocket, e.code, e.message)
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


def _batch_runs(
    name: str, nlp: Language, copies: Optional[ReplicaProcesses], step_words: int
) -> Tuple[List[BatchRun], List[StepsRun]]:
    """A batch run and a long job's run for each copy of the pipeline `name`
    that serves requests: `nlp` itself, or each of its copies in other
    processes."""
    if copies is None:
        return [batch_run(functools.partial(run_items, nlp))], [local_steps(nlp, step_words)]
    runs = [functools.partial(copies.run, replica, name) for replica in range(len(copies))]
    return [batch_run(run) for run in runs], [steps_in_groups(run, step_words) for run in runs]


class StreamClosed(Exception):
    """A stream ends with this error message and close code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


async def _close_with_error(websocket: WebSocket, code: int, message: str) -> None:
    try:
        await websocket.send_json({"error": message})
        await websocket.close(code=code)
    except (WebSocketDisconnect, RuntimeError):  # the client left first
        pass


def _message_text(message: Mapping[str, Any], number: int, limits: ServiceLimits) -> str:
    """A stream message's text, or `StreamClosed` for what no stream takes."""
    text = message.get("text")
    if text is None:
        raise StreamClosed(1003, f"message {number} is binary: a stream takes text messages (JSON or words).")
    if len(text) > limits.max_message_bytes:
        raise StreamClosed(1009, f"message {number} is over {limits.max_message_bytes:,} characters.")
    return text


def _message_words(text: str, number: int, limits: ServiceLimits) -> List[Any]:
    """The words of a stream message; a `RecordError` for a message that
    cannot be read (the stream goes on), `StreamClosed` for one over the
    limit."""
    if len(text.split()) > limits.max_message_words:
        raise StreamClosed(1009, f"message {number} holds over {limits.max_message_words:,} words.")
    try:
        words = line_words(text, f"message {number}")
    except (ValueError, RecursionError) as e:  # JSON nested too deep, an integer too long
        raise RecordError(f"message {number}: not JSON that can be read ({_reason(e)}).") from None
    if not _encodable(json.dumps(words, ensure_ascii=False, default=str)):
        raise RecordError(f"message {number}: a lone surrogate in a word (not text).")
    return words


def _encodable(text: str) -> bool:
    try:
        text.encode("utf8")
    except UnicodeEncodeError:
        return False
    return True


def _reason(error: BaseException) -> str:
    return "nested too deep" if isinstance(error, RecursionError) else str(error).split(";")[0].split(":")[0]


async def _unless_gone(request: Request, waiting: "asyncio.Future[Any]") -> Any:
    """The result of `waiting`, unless the client disconnects first: then
    the work is dropped (cancelling the future cancels the job)."""
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        done, _ = await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if waiting not in done:
        waiting.cancel()
        raise ServiceError(499, "the client left.")
    return waiting.result()


async def _disconnected(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


def _words(kind: str, items: List[Any], limits: ServiceLimits) -> int:
    """A request's words, or a 413 for a text or request over the limits."""
    counts = [item_words(item) for item in items]
    for number, count in enumerate(counts, start=1):
        if count > limits.max_text_words:
            what = "the transcript" if kind == "transcript" else f"{kind[:-1]} {number}"
            raise ServiceError(413, f"{what} holds {count:,} words; at most {limits.max_text_words:,} are read.")
    if sum(counts) > limits.max_request_words:
        raise ServiceError(413, f"the request holds {sum(counts):,} words; at most {limits.max_request_words:,}.")
    return sum(counts)


async def _json_body(request: Request, max_bytes: int) -> Any:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise ServiceError(415, "send the request as JSON (Content-Type: application/json).")
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
    except (ValueError, RecursionError) as e:  # an integer of thousands of digits, nesting too deep
        raise ServiceError(400, f"the request is JSON that cannot be read ({_reason(e)}).") from None
    if not isinstance(body, (dict, list)):
        raise ServiceError(400, 'the request must be a JSON object: {"model": ..., "texts": [...]}.')
    return body


def _items(body: Mapping[str, Any], max_items: int) -> Tuple[str, List[Any]]:
    """("texts", "records" or "transcript", the items): a recogniser's JSON
    (any shape a transcript format fits: Whisper's "segments", Deepgram's
    or Google's "results", ...) is one transcript, an object with timed
    "words" one record."""
    rest = {key: value for key, value in body.items() if key not in REQUEST_OPTIONS}
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


# what a request's body may hold beside its texts, records or transcript
REQUEST_OPTIONS = ("model", *REQUEST_FLAGS, "thresholds", "margins", "end_threshold")


def request_settings(nlp: Language, body: Mapping[str, Any]) -> DecisionSettings:
    """The pipeline's decision settings with a request's options."""
    try:
        return PunctOptions.from_request(body).settings(nlp)
    except UserError as e:
        raise ServiceError(400, str(e)) from None


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
