import os
import subprocess
import sys

from spacy_punct.runtime.native_caches import CACHE_ENTRIES, CACHE_SETTINGS, bound_native_caches


def test_defaults_set(monkeypatch):
    for name in CACHE_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    bound_native_caches()
    assert [os.environ[name] for name in CACHE_SETTINGS] == [str(CACHE_ENTRIES)] * 2


def test_user_setting_wins(monkeypatch):
    monkeypatch.setenv("LRU_CACHE_CAPACITY", "5")
    monkeypatch.delenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY", raising=False)
    bound_native_caches(32)
    assert os.environ["LRU_CACHE_CAPACITY"] == "5"
    assert os.environ["ONEDNN_PRIMITIVE_CACHE_CAPACITY"] == "32"


def test_set_on_import():
    """With the fast tokenizers' thread pool off (`threads.tokenizers_pool_off`), in the same fresh interpreter."""
    unset = (*CACHE_SETTINGS, "TOKENIZERS_PARALLELISM")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    code = "import os, spacy_punct; print(*(os.environ[name] for name in %r))" % (unset,)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == [str(CACHE_ENTRIES)] * 2 + ["false"]
