from spacy_punct.evaluation.score_tables import (
    BundledRow,
    RunScores,
    class_f1,
    markdown_table,
    pipelines_table,
    runs_table,
    score_table,
    scores_by_test_set,
)


def _scores(f=0.5, question_support=3, case=None):
    per = {
        "COMMA": {"p": 0.5, "r": 0.5, "f": f, "support": 10},
        "PERIOD": {"p": 0.6, "r": 0.6, "f": 0.6, "support": 8},
        "QUESTION": {"p": 0.0, "r": 0.0, "f": 0.0, "support": question_support},
    }
    scores = {
        "punct_per_type": per,
        "punct_p": 0.5,
        "punct_r": 0.5,
        "punct_f": f,
        "punct_macro_f": 0.4,
        "punct_ser": 0.7,
        "sents_p": 0.6,
        "sents_r": 0.6,
        "sents_f": 0.6,
        "words": 100,
        "words_per_second": 12345.6,
        "case_f": case,
    }
    if case is not None:
        scores.update(
            case_p=case,
            case_r=case,
            case_initial_f=0.9,
            case_inner_f=0.5,
            case_per_type={"TITLE": {"p": case, "r": case, "f": case}},
        )
    return scores


def test_markdown_table_aligns_figures_right():
    assert (
        markdown_table(["a", "b", "n"], [["x", "y", "1"]], text_columns=2)
        == "| a | b | n |\n|---|---|---:|\n| x | y | 1 |"
    )


def test_a_class_without_marks_in_the_test_set_gets_a_dash():
    assert class_f1(_scores(question_support=0), "QUESTION") == "–"
    assert class_f1(_scores(), "QUESTION") == "0.0" and class_f1(_scores(), "COLON") == ""


def test_score_table_per_class_and_case():
    table = score_table(_scores(case=0.8))
    assert "| COMMA | 50.0 | 50.0 | 50.0 | 10 |" in table
    assert "| **overall (micro)** | 50.0 | 50.0 | 50.0 | 21 |" in table
    assert "| **not lower-case** | 80.0 | 80.0 | 80.0 |" in table and "12346 words/s" in table
    assert "case" not in score_table(_scores())


def test_test_set_table_gives_case_only_for_a_cased_language():
    cased = scores_by_test_set([("IWSLT test2011", _scores(case=0.8))], cased=True)
    assert cased.splitlines()[2] == "| IWSLT test2011 | 50.0 | 50.0 | 60.0 | 0.0 | 80.0 | 12,346 |"
    assert "not lower-case" not in scores_by_test_set([("news", _scores())], cased=False)


def test_runs_table_shows_targets_and_leaves_out_a_test_sets_own_marks():
    own = dict(_scores(), gold_marks=True)
    table = runs_table([RunScores("en_punct_sm", "test2011", _scores(), 64.0), RunScores("en_punct_sm", "x", own)])
    assert "| `en_punct_sm` | test2011 | 50.0 | 64 | 40.0 | 0.0 | 12,346 |" in table
    assert "| x |" not in table


def test_pipelines_table_has_a_column_per_thread_count():
    row = BundledRow(
        "en_punct_sm",
        "bulk",
        "test2011",
        "IWSLT test2011",
        {"test2011": {"punct_f": 0.6, "question_f": 0.5}, "test2011.asr-noise-0.1": {"punct_f": 0.55}},
        19.6,
        {1: 30000.0, 2: None},
    )
    lines = pipelines_table([row]).splitlines()
    assert lines[0].endswith("| words/s, 1 thread | words/s, 2 threads |")
    assert lines[2] == "| `en_punct_sm` | bulk | IWSLT test2011 | 60.0 | 50.0 | 55.0 | 20 MB | 30,000 |  |"
