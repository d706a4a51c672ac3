"""The service over a real socket: who may call it, slow and departed
clients, and its exit on SIGTERM."""

import json
import socket
import time

import pytest

pytest.importorskip("fastapi")
import httpx  # noqa: E402
import websockets.sync.client as ws_client  # noqa: E402

from spacy_punct.service.app import ServiceLimits  # noqa: E402
from spacy_punct.service.local import running_service  # noqa: E402
from spacy_punct.service.server import Timeouts  # noqa: E402


@pytest.fixture(scope="module")
def url():
    with running_service(["en_punct_sm"], timeouts=Timeouts(headers=1.0)) as address:
        yield address


def test_a_foreign_host_and_a_foreign_page_are_refused_and_json_is_required(url):
    texts = {"texts": ["so how was it"]}
    assert httpx.post(f"{url}/punctuate", json=texts).status_code == 200  # no Origin: a script
    rebound = httpx.post(f"{url}/punctuate", json=texts, headers={"Host": "evil.example"})
    assert rebound.status_code == 403 and "evil.example" in rebound.json()["error"]
    page = httpx.post(f"{url}/punctuate", json=texts, headers={"Origin": "http://evil.example"})
    assert page.status_code == 403 and "evil.example" in page.json()["error"]
    simple = httpx.post(  # a cross-site form or fetch without a preflight: text/plain
        f"{url}/punctuate", content=json.dumps(texts), headers={"Content-Type": "text/plain"}
    )
    assert simple.status_code == 415
    own = httpx.post(f"{url}/punctuate", json=texts, headers={"Origin": url})
    assert own.status_code == 200


def test_a_foreign_origin_cannot_open_a_stream(url):
    address = url.replace("http://", "ws://") + "/stream"
    with pytest.raises(Exception) as refused:
        ws_client.connect(address, additional_headers={"Origin": "http://evil.example"}).close()
    assert "403" in str(refused.value)
    with ws_client.connect(address, additional_headers={"Origin": url}) as stream:
        stream.send("so how was it")
        assert "committed" in json.loads(stream.recv(timeout=30))


def test_a_client_that_sends_its_headers_slowly_is_closed(url):
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as slow:
        slow.sendall(b"POST /punctuate HTTP/1.1\r\nHost: localhost\r\n")
        slow.settimeout(10)
        start = time.monotonic()
        assert slow.recv(100) == b""  # closed by the service
        assert time.monotonic() - start < 5


def test_work_for_clients_that_left_is_dropped():
    long_text = " ".join(["so how was the trip it was long but we saw the coast"] * 5_000)  # 65,000 words
    with running_service(["en_punct_sm"], limits=ServiceLimits(max_queue=64)) as address:
        host, port = address.removeprefix("http://").split(":")
        body = json.dumps({"texts": [long_text]}).encode()
        head = "POST /punctuate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        for _ in range(30):
            with socket.create_connection((host, int(port))) as client:
                client.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
                time.sleep(0.05)  # its request is read, then it leaves
        start = time.monotonic()
        answer = httpx.post(f"{address}/punctuate", json={"texts": ["so how was it"]}, timeout=120)
        assert answer.status_code == 200 and time.monotonic() - start < 10


def test_a_short_request_beside_a_long_one_is_answered_at_once():
    import threading

    long_text = " ".join(["so how was the trip it was long but we saw the coast"] * 7_000)  # 91,000 words
    with running_service(["en_punct_sm"]) as address:
        done = {}

        def send_long():
            done["long"] = httpx.post(f"{address}/punctuate", json={"texts": [long_text]}, timeout=300)

        thread = threading.Thread(target=send_long)
        thread.start()
        time.sleep(1.0)  # the long text is being punctuated
        start = time.monotonic()
        short = httpx.post(f"{address}/punctuate", json={"texts": ["so how was it"]}, timeout=120)
        waited = time.monotonic() - start
        assert short.status_code == 200 and waited < 5 and "long" not in done
        thread.join()
        assert done["long"].status_code == 200
        assert len(done["long"].json()["texts"][0].split()) == 91_000
