"""Ray Data batch inference on a local Ray (skipped without the `ray` extra)."""
import os
import sys

import pytest

ray = pytest.importorskip("ray")

from spacy_punct.distributed import PunctuateBatch, punctuate_dataset  # noqa: E402
from spacy_punct.inference import punctuate_records  # noqa: E402

from .conftest import TEXTS  # noqa: E402

BARE = [t.lower().replace(",", "").replace(".", "").replace("?", "") for t in TEXTS]


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
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
        if "r13" in set(batch["id"]) and not os.path.exists(self.marker):
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
