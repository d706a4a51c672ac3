from spacy_punct.evaluation.repair import repair_table, score_repair
from tests.conftest import TEXTS


def test_repair_scores_name_the_targets_terms(trained):
    docs = [trained.make_doc(" ".join(TEXTS[k:] + TEXTS[:k])) for k in range(3)]
    result = score_repair(trained, docs, seed=1)
    assert result["documents"] == 3 and 0 < result["stripped_words"] < result["words"]
    for key in ("stripped_f", "plain_stripped_f", "keep_stripped_f"):
        assert 0.0 <= result[key]["f"] <= 1.0
    # without a repair head: marks only in long stretches, so the intact runs come out as written
    assert result["intact_marks_kept"] == 1.0 and result["intact_case_kept"] == 1.0
    assert result["documents_altered"] == 0
    table = repair_table(result)
    assert "intact runs' words keeping their mark" in table and "repair against plain" in table
    assert score_repair(trained, docs, seed=1) == result  # the same runs for the same seed
