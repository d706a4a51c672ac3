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
    response = client.post("/punctuate", content=body)
    assert response.status_code == status
    assert message in response.json()["error"] and "\n" not in response.json()["error"]


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
