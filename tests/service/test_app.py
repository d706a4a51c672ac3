"""The service: the same output as the library, one-line JSON errors."""

import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from spacy_punct import load_pipeline, punctuate, punctuate_recognised, punctuate_records  # noqa: E402
from spacy_punct.inference.streaming import FixedLookahead, Streamer  # noqa: E402
from spacy_punct.pipelines.loading import find_punctuator  # noqa: E402
from spacy_punct.service.app import ServiceLimits, create_app  # noqa: E402

LINES = ["so how was the trip it was long but we saw the coast", "hi kevin my internet is down", ""]


@pytest.fixture(scope="module")
def client():
    app = create_app(["en_punct_sm"], lambda name: load_pipeline(name), ServiceLimits(max_request_bytes=20_000))
    with TestClient(app) as client:
        deadline = time.time() + 60
        while client.get("/health").status_code != 200 and time.time() < deadline:
            time.sleep(0.1)
        yield client


def test_texts_and_records_come_out_as_the_library_writes_them(client):
    nlp = load_pipeline("en_punct_sm")
    response = client.post("/punctuate", json={"model": "en_punct_sm", "texts": LINES})
    assert response.status_code == 200
    assert response.json() == {"texts": [doc.text for doc in punctuate(nlp, LINES)]}
    records = [
        {"id": 1, "text": LINES[0]},
        {"words": [{"word": "where", "start": 0.0, "end": 0.3}, {"word": "did", "start": 0.3, "end": 0.5}]},
    ]
    response = client.post("/punctuate", json={"records": records})
    assert response.json() == {"records": list(punctuate_records(nlp, records))}
    whisper = {"text": " where did", "segments": [{"words": records[1]["words"]}]}
    back = client.post("/punctuate", json={**whisper, "model": "en_punct_sm"}).json()  # in its own shape
    assert back == punctuate_recognised(nlp, whisper) and back["text"] == " Where did?"
    segments = [{"id": 1, "start": 0.0, "end": 0.5, "text": " where did", "words": None}]
    assert client.post("/punctuate", json=segments).json()[0]["text"] == " Where did?"  # faster-whisper's list
    cpp = {"transcription": [{"offsets": {"from": 0, "to": 500}, "text": " where did"}]}
    assert client.post("/punctuate", json=cpp).json()["transcription"][0]["text"] == " Where did?"
    deepgram = {
        "results": {"channels": [{"alternatives": [{"transcript": "where did", "words": records[1]["words"]}]}]}
    }
    assert client.post("/punctuate", json=deepgram).json()["results"]["channels"][0]["alternatives"][0] == {
        "transcript": "Where did?",
        "words": [dict(w, punctuated_word=t) for w, t in zip(records[1]["words"], ["Where", "did?"])],
    }
    google = {"results": [{"alternatives": [{"transcript": "where did"}], "resultEndTime": "0.5s"}]}
    assert client.post("/punctuate", json=google).json()["results"][0]["alternatives"][0]["transcript"] == "Where did?"
    assemblyai = {
        "audio_url": "a.mp3",
        "words": [{"text": "where", "start": 0, "end": 300}, {"text": "did", "start": 300, "end": 500}],
    }
    assert client.post("/punctuate", json=assemblyai).json()["text"] == "Where did?"  # a transcript, not a record
    azure = {"recognizedPhrases": [{"offset": "PT0S", "duration": "PT0.5S", "nBest": [{"display": "where did"}]}]}
    assert client.post("/punctuate", json=azure).json()["recognizedPhrases"][0]["nBest"][0]["display"] == "Where did?"
    amazon = {"results": {"items": [{"alternatives": [{"content": w}], "start_time": "0.0"} for w in ("where", "did")]}}
    assert client.post("/punctuate", json=amazon).json()["results"]["items"][2]["alternatives"][0]["content"] == "?"
    said = [{"type": "word", "start_time": 0.0, "alternatives": [{"content": w}]} for w in ("where", "did")]
    assert client.post("/punctuate", json={"results": said}).json()["results"][2]["alternatives"][0]["content"] == "?"
    rev = {"monologues": [{"elements": [{"type": "text", "value": "where"}, {"type": "text", "value": "did"}]}]}
    assert client.post("/punctuate", json=rev).json()["monologues"][0]["elements"][-1] == {
        "type": "punct",
        "value": "?",
    }
    chunks = {
        "text": "WHERE DID",
        "chunks": [{"text": "WHERE", "timestamp": [0, 0.3]}, {"text": "DID", "timestamp": [0.3, None]}],
    }
    assert client.post("/punctuate", json=chunks).json()["chunks"][1] == {"text": "did?", "timestamp": [0.3, None]}
    srt = "1\n00:00:00,000 --> 00:00:00,500\nwhere did\n"
    assert client.post("/punctuate", json={"transcript": srt}).json() == punctuate_recognised(nlp, srt)
    wrapped = client.post("/punctuate", json={"transcript": segments, "repair": True}).json()
    assert wrapped == punctuate_recognised(nlp, segments, repair=True)
    kept = client.post("/punctuate", json={"texts": ["so, how was it"], "keep_existing": True}).json()
    assert kept["texts"][0].startswith("So, how")
    ends_first = {"end_threshold": 0.9, "thresholds": {"QUESTION": 0.5}}
    settings = find_punctuator(nlp)[1].settings.replace(end_threshold=0.9, thresholds={"QUESTION": 0.5})
    response = client.post("/punctuate", json={"texts": LINES, **ends_first})
    assert response.json() == {"texts": [doc.text for doc in punctuate(nlp, LINES, settings=settings)]}


@pytest.mark.parametrize(
    "body,status,message",
    [
        (b"{bad", 400, "the request is not JSON"),
        (b'{"model": "fr", "texts": []}', 404, "unknown model 'fr'"),
        (b'{"texts": [1]}', 400, '"texts" must be a list of strings'),
        (b'{"texts": ["a"], "thresholds": {"NOPE": 0.5}}', 400, "NOPE"),
        (b'{"texts": ["a"], "end_threshold": 1.5}', 400, '"end_threshold" must be a number from 0 to 1'),
        (b'{"texts": ["a"], "end_threshold": true}', 400, '"end_threshold" must be a number from 0 to 1'),
        (b'{"segments": 3}', 400, "expected Whisper's result"),
        (b'"so how"', 400, "the request must be a JSON object"),
        (b'{"texts": ["' + b"a " * 20_000 + b'"]}', 413, "at most 20,000"),
    ],
)
def test_bad_requests_are_one_line_of_json(client, body, status, message):
    response = client.post("/punctuate", content=body, headers=JSON)
    assert response.status_code == status
    assert message in response.json()["error"] and "\n" not in response.json()["error"]


JSON = {"Content-Type": "application/json"}
DEEP = b'{"texts": ' + b"[" * 9_000 + b"]" * 9_000 + b"}"  # within the test limit of 20,000 bytes


@pytest.mark.parametrize(
    "body,status,message",
    [
        (DEEP, 400, "nested too deep"),
        (b'{"texts": ["so"], "pad": ' + b"7" * 5_000 + b"}", 400, "JSON that cannot be read"),
        (b'{"texts": ["so"], "thresholds": {"COMMA": ' + b"9" * 401 + b"}}", 400, '"thresholds" must be an object'),
        (b'{"texts": ["so"], "end_threshold": 1e999}', 400, '"end_threshold" must be a number'),
    ],
    ids=["nested", "long-integer", "threshold-digits", "infinite"],
)
def test_hostile_bodies_are_4xx_json_never_500(client, body, status, message):
    response = client.post("/punctuate", content=body, headers=JSON)
    assert (response.status_code, response.headers["content-type"]) == (status, "application/json")
    assert message in response.json()["error"]


def test_the_service_s_own_errors_have_the_documented_shape(client):
    wrong_method = client.get("/punctuate")
    assert wrong_method.status_code == 405 and wrong_method.json() == {"error": "GET is not for /punctuate."}
    unknown = client.get("/nothing/here")
    assert unknown.status_code == 404 and unknown.json() == {"error": "no /nothing/here here."}
    plain = client.post("/punctuate", content=b'{"texts": ["so"]}', headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and "application/json" in plain.json()["error"]


def test_word_limits_answer_413_at_once():
    limits = ServiceLimits(max_text_words=50, max_request_words=80)
    app = create_app(["en_punct_sm"], lambda name: load_pipeline(name), limits, load_now=True)
    with TestClient(app) as small:
        one = small.post("/punctuate", json={"texts": ["so " * 51]})
        assert one.status_code == 413 and one.json()["error"] == "text 1 holds 51 words; at most 50 are read."
        many = small.post("/punctuate", json={"texts": ["so " * 40, "so " * 41]})
        assert many.status_code == 413 and "the request holds 81 words; at most 80" in many.json()["error"]
        assert small.post("/punctuate", json={"texts": ["so " * 40]}).status_code == 200


def test_health_and_models(client):
    assert client.get("/health").json() == {"status": "ready", "models": ["en_punct_sm"]}
    assert client.get("/models").json()["models"][0]["pipeline"] == ["tok2vec", "truecaser", "punctuator"]
    assert "WebSocket" in client.get("/").text


def test_the_stream_commits_words_as_the_library_streams_them(client):
    nlp = load_pipeline("en_punct_sm")
    lines = ["so how was", "the trip it was long", "but we saw the coast"]
    streamer = Streamer(nlp, FixedLookahead(2))  # as `spacy-punct stream` reads a recogniser's lines
    expected = [w.text for line in lines for w in streamer.push_many(line.split())] + [w.text for w in streamer.flush()]
    texts = []
    with client.websocket_connect("/stream?model=en_punct_sm&lookahead=2") as socket:
        for line in lines:
            socket.send_text(line)
            texts += [w["text"] for w in socket.receive_json()["committed"]]
        socket.send_text('{"end": true}')
        final = socket.receive_json()
        texts += [w["text"] for w in final["committed"]]
    assert final["end"] and " ".join(texts) == " ".join(expected)


def test_repair_is_a_request_option(client):
    text = "Thank you all for coming. today i want to talk about the budget"
    plain = client.post("/punctuate", json={"texts": [text]}).json()["texts"][0]
    repaired = client.post("/punctuate", json={"texts": [text], "repair": True}).json()["texts"][0]
    assert repaired == next(iter(punctuate(load_pipeline("en_punct_sm"), [text], repair=True))).text
    assert repaired.startswith("Thank you all for coming. ") and plain != repaired or plain.startswith("Thank you")
    bad = client.post("/punctuate", json={"texts": [text], "repair": "yes"})
    assert bad.status_code == 400 and "repair" in bad.json()["error"]


def test_merge_is_a_request_option_and_refuses_repair(client):
    text = "So, how was it? It was long. we saw the coast"
    merged = client.post("/punctuate", json={"texts": [text], "merge": True}).json()["texts"][0]
    assert merged == next(iter(punctuate(load_pipeline("en_punct_sm"), [text], settings=_merging()))).text
    both = client.post("/punctuate", json={"texts": [text], "merge": True, "repair": True})
    assert both.status_code == 400 and "merge decides every mark again" in both.json()["error"]


def _merging():
    from spacy_punct.pipelines.loading import find_punctuator

    return find_punctuator(load_pipeline("en_punct_sm"))[1].settings.replace(merge=True)


def test_the_load_now_app_is_ready_at_once():
    app = create_app(["en_punct_sm"], lambda name: load_pipeline(name), load_now=True)
    with TestClient(app) as fresh:
        assert fresh.get("/health").status_code == 200


def test_a_recognisers_output_goes_to_the_model_of_its_language_where_none_is_named():
    from spacy_punct.service.app import model_for

    langs = {"en_punct_sm": "en", "hu_punct_trf": "hu"}
    google = {"results": [{"alternatives": [{"transcript": "jó napot"}], "languageCode": "hu-hu"}]}
    assert model_for(google, langs) == "hu_punct_trf"
    srt = "1\n00:00:00,000 --> 00:00:02,000\naz internet nem működik és már\n"  # names none: its words tell
    assert model_for(srt, langs) == "hu_punct_trf"
    assert model_for({"segments": [{"start": 0, "end": 1, "text": " so how was the trip"}]}, langs) == "en_punct_sm"
    assert model_for({"language": "de", "segments": []}, langs) is None and model_for("not a file", langs) is None


@pytest.mark.parametrize(
    "send, code, message",
    [
        (lambda socket: socket.send_bytes(b"so how"), 1003, "is binary"),
        (lambda socket: socket.send_text("so " * 6_000), 1009, "over 5,000 words"),
        (lambda socket: socket.send_text("x" * 1_000_001), 1009, "over 1,000,000 characters"),
    ],
    ids=["binary", "too-many-words", "too-long"],
)
def test_a_stream_message_no_stream_takes_gets_an_error_then_a_close_code(client, send, code, message):
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/stream") as socket:
        send(socket)
        assert message in socket.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == code


@pytest.mark.parametrize(
    "text, message",
    [
        ("[" * 5_000 + "]" * 5_000, "nested too deep"),
        ('{"word": "so", "start": ' + "1" * 5_000 + "}", "not JSON that can be read"),
        ('{"word": "\\ud800", "start": 0, "end": 1}', "lone surrogate"),
    ],
    ids=["nested", "long-integer", "surrogate"],
)
def test_a_stream_message_that_cannot_be_read_is_an_error_and_the_stream_goes_on(client, text, message):
    with client.websocket_connect("/stream?lookahead=0") as socket:
        socket.send_text(text)
        assert message in socket.receive_json()["error"]
        socket.send_text("so how was it")
        assert socket.receive_json()["committed"]


def test_an_idle_stream_is_closed():
    from starlette.websockets import WebSocketDisconnect

    limits = ServiceLimits(stream_idle=0.5)
    app = create_app(["en_punct_sm"], lambda name: load_pipeline(name), limits, load_now=True)
    with TestClient(app) as idle, idle.websocket_connect("/stream") as socket:
        assert "no message for 0.5 seconds" in socket.receive_json()["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1001
