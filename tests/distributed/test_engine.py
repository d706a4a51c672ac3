"""Ray Data batch inference on a local Ray (skipped without the `ray` extra)."""

import json
import os
import sys

import pytest

ray = pytest.importorskip("ray")

from spacy_punct.distributed import PunctuateBatch, init_ray, punctuate_dataset, punctuate_files  # noqa: E402
from spacy_punct.formats.records import record_line
from spacy_punct.inference.records import punctuate_records  # noqa: E402

from ..conftest import TEXTS  # noqa: E402

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


@pytest.fixture(scope="module")
def local_ray():
    init_ray(num_cpus=2)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()


@pytest.fixture
def records():
    rows = [{"id": f"r{i}", "text": BARE[i % len(BARE)], "channel": i % 3} for i in range(24)]
    rows[5] = {"id": "r5", "text": "where did you stay", "channel": 2}
    return rows


def _by_id(rows):
    return {row["id"]: row for row in rows}


def test_dataset_equals_single_process_output(local_ray, trained, tmp_path, records):
    trained.to_disk(tmp_path / "model")
    expected = _by_id(punctuate_records(trained, records))
    dataset = ray.data.from_items(records)
    result = punctuate_dataset(dataset, str(tmp_path / "model"), workers=2, batch_size=5).take_all()
    assert len(result) == len(records) and set(_by_id(result)) == set(expected)
    for row_id, row in _by_id(result).items():
        assert row["punctuated"] == expected[row_id]["punctuated"]
        assert row["channel"] == expected[row_id]["channel"] and row["text"] == expected[row_id]["text"]


class DiesOnce(PunctuateBatch):
    """Kills its actor process on the first batch with record r13, once."""

    marker = None

    def __call__(self, batch):
        if "r13" in batch.column("id").to_pylist() and not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(1)
        return super().__call__(batch)


def test_a_killed_actor_loses_and_duplicates_nothing(local_ray, trained, tmp_path, records):
    trained.to_disk(tmp_path / "model")
    DiesOnce.marker = str(tmp_path / "died")
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    dataset = ray.data.from_items(records)
    result = punctuate_dataset(dataset, str(tmp_path / "model"), workers=2, batch_size=4, actor_class=DiesOnce)
    rows = result.take_all()
    assert os.path.exists(DiesOnce.marker)  # an actor did die
    assert sorted(row["id"] for row in rows) == sorted(row["id"] for row in records)


def test_jsonl_files_in_and_out(local_ray, trained, tmp_path, records):
    trained.to_disk(tmp_path / "model")
    source = tmp_path / "in.jsonl"
    records[3]["meta"] = {"speaker": "B", "turns": [1, 2.5]}  # nested values, a field other records lack
    records[4]["text"] += " \u2028 it was\u0085 nice"  # characters str.splitlines breaks at
    source.write_text("\ufeff" + "\n\n".join(json.dumps(r, ensure_ascii=False) for r in records), encoding="utf8")
    count = punctuate_files(str(tmp_path / "model"), source, tmp_path / "out", workers=2, batch_size=8)
    assert count == len(records)
    lines = [
        line for f in sorted((tmp_path / "out").glob("*.jsonl")) for line in f.read_text("utf8").split("\n") if line
    ]
    # the lines the single-process command writes
    assert sorted(lines) == sorted(record_line(output) for output in punctuate_records(trained, records))
    with pytest.raises(ValueError, match="the ray engine does not read text files ending in .cfg"):
        punctuate_files(str(tmp_path / "model"), tmp_path / "model" / "config.cfg", tmp_path / "out2")


def test_parquet_files_in_and_out(local_ray, trained, tmp_path, records):
    import pyarrow
    from pyarrow import parquet

    trained.to_disk(tmp_path / "model")
    timed = [{"word": w, "start": 0.5 * i, "end": 0.5 * i + 0.4} for i, w in enumerate("so where did you stay".split())]
    rows = [{"id": r["id"], "text": r["text"], "channel": r["channel"], "words": None} for r in records]
    rows.append({"id": "timed", "text": None, "channel": 7, "words": timed})
    parquet.write_table(pyarrow.Table.from_pylist(rows), tmp_path / "in.parquet")
    count = punctuate_files(str(tmp_path / "model"), tmp_path / "in.parquet", tmp_path / "out", workers=2, batch_size=8)
    assert count == len(rows)
    result = _by_id(parquet.read_table(tmp_path / "out").to_pylist())  # the files share one schema
    expected = _by_id(punctuate_records(trained, records + [{"id": "timed", "channel": 7, "words": timed}]))
    assert {k: (v["punctuated"], v["channel"]) for k, v in result.items()} == {
        k: (v["punctuated"], v["channel"]) for k, v in expected.items()
    }
    assert [t["start_time"] for t in result["timed"]["tokens"] if t["source"] is not None] == [0.0, 0.5, 1.0, 1.5, 2.0]


def test_punctuate_command_with_the_ray_engine(local_ray, trained, tmp_path, records):
    from typer.testing import CliRunner

    from spacy_punct.cli import app

    trained.to_disk(tmp_path / "model")
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    args = ["punctuate", str(tmp_path / "model"), str(source), "-o", str(tmp_path / "out"), "--engine", "ray"]
    result = CliRunner().invoke(app, args + ["--workers", "2"])
    assert result.exit_code == 0 and f"Wrote {len(records)} records" in result.output, result.output
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 1 and "exists" in again.output
    source.write_text(json.dumps(records[0]) + "\n{not json\n", encoding="utf8")
    bad_args = ["punctuate", str(tmp_path / "model"), str(source), "-o", str(tmp_path / "bad"), "--engine", "ray"]
    bad = CliRunner().invoke(app, bad_args)
    assert bad.exit_code == 1 and "not JSON" in bad.output, bad.output


def test_the_readme_example_finishes_with_the_actors_on_every_cpu(local_ray, trained, tmp_path, records):
    """ray.data.read_parquet waited forever for a CPU behind two actors on two cores."""
    import pyarrow
    from pyarrow import parquet

    from spacy_punct.distributed import read_records

    trained.to_disk(tmp_path / "model")
    (tmp_path / "transcripts").mkdir()
    for part in range(2):
        parquet.write_table(pyarrow.Table.from_pylist(records[part::2]), tmp_path / "transcripts" / f"{part}.parquet")
    punctuated = punctuate_dataset(
        read_records(tmp_path / "transcripts"), str(tmp_path / "model"), workers=2, batch_size=5
    )
    punctuated.write_parquet(str(tmp_path / "punctuated"))
    assert len(parquet.read_table(tmp_path / "punctuated")) == len(records)


def test_the_ray_engine_reads_a_folder_of_record_files(local_ray, trained, tmp_path, records):
    from typer.testing import CliRunner

    from spacy_punct.cli import app

    trained.to_disk(tmp_path / "model")
    folder = tmp_path / "in"
    folder.mkdir()
    for part in range(2):
        (folder / f"{part}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records[part::2]), encoding="utf8")
    args = ["punctuate", str(tmp_path / "model"), str(folder), "-o", str(tmp_path / "out"), "--engine", "ray"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and f"Wrote {len(records)} records" in result.output, result.output


def test_workers_and_batch_size_are_checked_before_ray_is_asked():
    for kwargs, error in (
        ({"workers": 0}, ValueError),
        ({"batch_size": "256"}, TypeError),
        ({"workers": 1.5}, TypeError),
    ):
        with pytest.raises(error, match="workers and batch_size must be"):
            punctuate_dataset(None, "en_punct_sm", **kwargs)


def test_a_folder_of_recognisers_files_on_ray_is_written_as_in_one_process(local_ray, trained, tmp_path):
    from pathlib import Path

    from spacy_punct.distributed import punctuate_folder_on_ray
    from spacy_punct.inference.folders import punctuate_folder

    trained.to_disk(tmp_path / "model")
    data = Path(__file__).parents[1] / "data" / "recognisers"
    source = tmp_path / "in"
    (source / "sub").mkdir(parents=True)
    for k, name in enumerate(["whisper.json", "deepgram.json", "sample.srt", "amazon.json", "vosk.json"]):
        (source / ("sub" if k % 2 else "") / name).write_bytes((data / name).read_bytes())
    (source / "bad.json").write_text('{"segments": 3}', encoding="utf8")
    done = list(punctuate_folder_on_ray(str(tmp_path / "model"), source, tmp_path / "ray", workers=2))
    assert [str(file.path) for file in done] == sorted(str(p.relative_to(source)) for p in source.rglob("*.*"))
    assert [file.path.name for file in done if file.error] == ["bad.json"] and "segments" in done[0].error
    local = list(punctuate_folder(trained, source, tmp_path / "local"))
    assert [(f.path, f.words) for f in done] == [(f.path, f.words) for f in local]
    for file in local:
        if file.error is None:
            assert (tmp_path / "ray" / file.path).read_bytes() == (tmp_path / "local" / file.path).read_bytes()


def test_the_ray_engine_punctuates_a_folder_of_recognisers_files_under_their_names(local_ray, trained, tmp_path):
    from pathlib import Path

    from typer.testing import CliRunner

    from spacy_punct.cli import app

    trained.to_disk(tmp_path / "model")
    data = Path(__file__).parents[1] / "data" / "recognisers"
    source = tmp_path / "in"
    source.mkdir()
    for name in ("whisper.json", "sample.srt", "rev.json"):
        (source / name).write_bytes((data / name).read_bytes())
    (source / "bad.json").write_text('{"segments": 3}', encoding="utf8")
    args = ["punctuate", str(tmp_path / "model"), str(source), "-o", str(tmp_path / "out"), "--engine", "ray"]
    result = CliRunner().invoke(app, args + ["--workers", "2"])
    assert result.exit_code == 1 and "Punctuated 3 files" in result.stderr and "1 left out" in result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["rev.json", "sample.srt", "whisper.json"]
    both = CliRunner().invoke(app, args[:-2] + ["-o", str(tmp_path / "x"), "--engine", "ray", "--processes", "2"])
    assert both.exit_code == 1 and "choose one" in both.output
