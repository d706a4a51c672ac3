"""Who may reach the service: hosts and origins."""

from spacy_punct.service.access import Access, host_name, is_loopback


def test_host_names_and_loopback():
    assert [host_name(h) for h in ("localhost:8080", "[::1]:80", "Example.org", "::1")] == [
        "localhost",
        "::1",
        "example.org",
        "::1",
    ]
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")
    public = Access()
    assert public.host_allowed("evil.example", "0.0.0.0") and not public.host_allowed("evil.example", "127.0.0.1")
    assert public.origin_allowed("http://svc.example:8080", "svc.example:8080", "0.0.0.0")  # its own page
    assert not public.origin_allowed("http://evil.example", "svc.example:8080", "0.0.0.0")
    named = Access(hosts=("svc.example",), origins=("https://app.example",))
    assert named.host_allowed("svc.example:443", "0.0.0.0") and not named.host_allowed("localhost", "127.0.0.1")
    assert named.origin_allowed("https://app.example", "svc.example", "0.0.0.0")
