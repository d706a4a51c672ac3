import gzip
import io

import pytest

from spacy_punct.formats.textio import InputError, TextReader, open_text, read_text


@pytest.mark.parametrize(
    "data",
    [
        b"so how\r\nwhere\rok\n",
        "\ufeffso how\nwhere\nok".encode("utf8"),
        "so how\nwhere\nok\n".encode("utf-16"),
        "so how\nwhere\nok\n".encode("utf-16-be").join([b"\xfe\xff", b""]),
        gzip.compress(b"so how\nwhere\nok\n"),
    ],
)
def test_encodings_and_line_ends(tmp_path, data):
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    assert list(open_text(path)) == ["so how", "where", "ok"]


def test_each_line_comes_with_its_own_end(tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(b"a b\r\n\r\nc\rd\ne")
    assert list(open_text(path).lines()) == [("a b", "\r\n"), ("", "\r\n"), ("c", "\r"), ("d", "\n"), ("e", "")]
    assert list(open_text(path)) == ["a b", "", "c", "d", "e"]
    assert open_text(path).read_as_written() == ("a b\r\n\r\nc\rd\ne", "")
    path.write_bytes(b"a\r\nb\r\n")
    assert open_text(path).read_as_written() == ("a\r\nb", "\r\n")  # the last line's end apart


def test_undecodable_bytes_are_replaced_and_counted(tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(b"caf\xe9 ok\n\xff\xfe bad\n")
    text, replaced = read_text(path)
    assert text == "caf\ufffd ok\n\ufffd\ufffd bad" and replaced == 3


@pytest.mark.parametrize(
    "data",
    [b"\x00\x01\x02 binary", bytes(range(1, 32)) * 20, "no BOM".encode("utf-16-le")],
)
def test_binary_is_refused(tmp_path, data):
    path = tmp_path / "in.dat"
    path.write_bytes(data)
    with pytest.raises(InputError, match="binary|does not look like text"):
        open_text(path)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(InputError, match="folder"):
        open_text(tmp_path)


def test_a_stream_without_peek_and_an_empty_one():
    class Raw(io.RawIOBase):
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, buffer):
            chunk = self.data.read(len(buffer))
            buffer[: len(chunk)] = chunk
            return len(chunk)

    assert list(TextReader(Raw(b"a\nb\n"), "pipe")) == ["a", "b"]
    assert list(TextReader(io.BytesIO(b""), "empty")) == []


def test_a_named_encoding_reads_what_utf8_cannot(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes("café, déjà vu\r\nnaïve\n".encode("latin-1"))
    assert read_text(path) == ("caf\ufffd, d\ufffdj\ufffd vu\nna\ufffdve", 4)
    assert read_text(path, "latin-1") == ("café, déjà vu\nnaïve", 0)
    assert read_text(path, "cp1252") == ("café, déjà vu\nnaïve", 0)
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeffso how".encode("utf8"))
    assert read_text(bom, "UTF8") == ("so how", 0)  # the byte-order mark is no character of the text
    gz = tmp_path / "legacy.txt.gz"
    gz.write_bytes(gzip.compress("déjà".encode("latin-1")))
    assert read_text(gz, "latin-1") == ("déjà", 0)


def test_an_unknown_encoding_is_refused_before_reading(tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("so how", encoding="utf8")
    with pytest.raises(InputError, match="Unknown encoding 'klingon'"):
        open_text(path, "klingon")


def test_a_gzip_file_cut_short_gives_its_lines_and_names_the_problem(tmp_path):
    import gzip

    lines = [f"line {i} of a long transcript that goes on" for i in range(3000)]
    data = gzip.compress(("\n".join(lines) + "\n").encode("utf8"), mtime=0)
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[: len(data) // 2])
    reader = open_text(path)
    read = list(reader)
    reader.close()
    assert 0 < len(read) < len(lines) and read[:-1] == lines[: len(read) - 1]
    assert reader.error.startswith(f"{path} breaks off")
    with pytest.raises(InputError, match="breaks off"):
        read_text(path)


def test_a_gzip_file_cut_inside_its_first_block_is_an_input_error(tmp_path):
    import gzip

    data = gzip.compress(b"so how was the trip\n" * 10, mtime=0)
    path = tmp_path / "cut.txt.gz"
    path.write_bytes(data[:20])
    with pytest.raises(InputError, match="breaks off before its first line"):
        open_text(path)


def test_a_gzip_bomb_without_line_ends_stops_in_bounded_memory(tmp_path):
    """400 MB of text with no line end, in a gzip file of some hundred KB:
    read with a limit of 2 million characters, the reader stops at the limit
    in a line and its memory stays far below the expanded size."""
    import subprocess
    import sys

    path = tmp_path / "bomb.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as bomb:
        bomb.write(b"so how was the trip\n")
        block = b"a" * 1_000_000
        for _ in range(400):
            bomb.write(block)
    assert path.stat().st_size < 5_000_000
    script = (
        "import resource, sys\n"
        "from spacy_punct import textio\n"
        "textio.MAX_LINE_CHARS = 2_000_000\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
        "reader = textio.open_text(sys.argv[1])\n"
        "lines = [len(line) for line in reader]\n"
        "print(lines, reader.error)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    before_mb, first, peak_mb = result.stdout.splitlines()
    assert (
        first == f"[19] {path}, line 2 is longer than 2,000,000 characters (textio.MAX_LINE_CHARS): split it into lines"
    )
    assert int(peak_mb) - int(before_mb) < 100, (before_mb, peak_mb)  # 400 MB expanded


def test_a_line_of_the_longest_length_is_read(tmp_path, monkeypatch):
    from spacy_punct import textio

    monkeypatch.setattr(textio, "MAX_LINE_CHARS", 10)
    path = tmp_path / "in.txt"
    path.write_bytes(b"0123456789\r\nabc\n0123456789x\n")
    reader = open_text(path)
    assert list(reader.lines()) == [("0123456789", "\r\n"), ("abc", "\n")]
    assert "line 3 is longer than 10 characters" in reader.error


def test_a_pipe_tells_whether_more_of_it_can_be_read_at_once():
    import os

    from spacy_punct.formats.textio import TextReader

    read, write = os.pipe()
    os.write(write, b"so how\n")
    with os.fdopen(read, "rb", buffering=0) as stream:
        reader = TextReader(stream, "standard input")  # it reads what the pipe holds to tell the encoding
        lines = reader.lines()
        assert next(lines) == ("so how", "\n")
        assert not reader.more_waiting()  # its writer has written nothing more
        os.write(write, b"was it\n")
        assert reader.more_waiting()
        os.close(write)
        assert next(lines) == ("was it", "\n")
