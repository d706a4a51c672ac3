import spacy

from spacy_punct.convert import ConversionStats, ConvertOptions
from spacy_punct.convert.ted import convert_ted, is_punctuated, talk_text

TALK = """

Translator: Joseph Geni
Reviewer: Morton Bast
I&#39;m often asked,
&quot;What surprised you?&quot; (Laughter)
And I say, it was
a long trip. (Applause)
CA: So how was it?
(Audience: Yes.) It was good, thank you.
♫ la la la ♫
"""


def test_talk_text_joins_lines_and_drops_header_notes_labels_and_songs():
    assert (
        talk_text(TALK)
        == 'I\'m often asked, "What surprised you?" And I say, it was a long trip. So how was it? It was good, thank you.'
    )


def test_parentheses_in_speech_stay():
    assert talk_text("The value (k) is small, (or so) we thought.") == "The value (k) is small, (or so) we thought."


def test_is_punctuated():
    assert is_punctuated("one, two three four. five")
    assert not is_punctuated(" ".join(["word"] * 300) + ".")


def _talks(tmp_path):
    folder = tmp_path / "ted"
    (folder / "a").mkdir(parents=True)
    words = " ".join(f"w{i}" for i in range(60))
    (folder / "a" / "one.md").write_text(f"Hello, {words}. Is it? Yes.\n", encoding="utf8")
    (folder / "a" / "copy.md").write_text(f"Hello, {words}. Is it? Yes.\n", encoding="utf8")
    (folder / "a" / "bare.md").write_text(" ".join(f"v{i}" for i in range(200)) + "\n", encoding="utf8")
    (folder / "a" / "listed.md").write_text("Other words, here. Fine.\n", encoding="utf8")
    (folder / "a" / "two.md").write_text("Something else, said here. And more?\n", encoding="utf8")
    return folder


def test_convert_ted_skips_duplicates_bare_files_and_the_excluded(tmp_path):
    stats = ConversionStats()
    options = ConvertOptions(exclude=frozenset({"a/listed.md"}))
    docs = list(convert_ted(_talks(tmp_path), spacy.blank("en"), stats, options))
    # path order: bare, copy, listed, one, two; one.md repeats copy.md, read before it
    assert [doc.user_data["source"] for doc in docs] == ["a/copy.md", "a/two.md"]
    assert stats.documents == 2
    assert stats.skipped["near-duplicate talks"] == 1
    summary = stats.summary()
    assert "without punctuation" in summary and "excluded files: 1" in summary
