"""Write the recipes configs/<lang>_<kind>.cfg from their base config
(configs/base_<kind>.cfg) and the overrides below: one source per recipe.

    python scripts/configs.py          # write the recipes
    python scripts/configs.py --check  # exit 1 if a written recipe is out of date
"""

import json
import sys
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Set

from thinc.api import Config

from spacy_punct.languages import language_entry

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


class Recipe(NamedTuple):
    base: str  # configs/base_<base>.cfg
    about: str  # the header comment
    overrides: Dict[str, Any]  # dotted config paths -> values
    gpu: bool = False  # whether the recipe is meant for a GPU


# the small pretrained encoder's recipe (en_small_trf), which en_trf_stages goes on from
SMALL_TRF: Dict[str, Any] = {
    "nlp.lang": "en",
    "components.transformer.model.name": "sentence-transformers/all-MiniLM-L6-v2",
    "components.transformer.max_batch_items": 1024,
    "components.punctuator.model.hidden_width": 384,
    "components.punctuator.model.context": {
        "@architectures": "spacy_punct.BiLSTMEncoder.v1",
        "width": 384,
        "depth": 1,
        "dropout": 0.0,
    },
    "components.transformer.model.transformer_config.num_hidden_layers": 3,
    "components.transformer.model.transformer_config.attention_probs_dropout_prob": 0.0,
    "corpora.train.max_length": 100,
    "training.max_steps": 5800,
    "training.optimizer.learn_rate.warmup_steps": 200,
    "training.optimizer.learn_rate.total_steps": 5800,
    "training.optimizer.learn_rate.initial_rate": 0.0002,
    "initialize.after_init": {"@callbacks": "spacy_punct.freeze_embeddings.v1"},
}

# multilingual-e5-small cut and pruned for one language (scripts/e5_encoder.py):
# the small transformer's recipe on it, texts cut short a quarter of the time
E5_SMALL: Dict[str, Any] = {
    **{k: v for k, v in SMALL_TRF.items() if k != "components.transformer.model.transformer_config.num_hidden_layers"},
    "corpora.train.short_share": 0.25,
    "training.max_steps": 20000,
    "training.optimizer.learn_rate.total_steps": 20000,
    "training.eval_frequency": 400,
    "training.patience": 0,
}


# a script without case: no case scores in the training table, nor in its score
NO_CASE_SCORES: Dict[str, Any] = {
    f"training.score_weights.{key}": None for key in ("case_f", "case_initial_f", "case_inner_f")
}


def e5_recipe(lang: str, layers: int, about: str, **overrides: Any) -> Recipe:
    """multilingual-e5-small cut to `layers` for language `lang`, with a
    truecaser where the registry says its script has case."""
    uncased = {} if language_entry(lang).cased else {"nlp.pipeline": ["transformer", "punctuator"], **NO_CASE_SCORES}
    return Recipe(
        "trf",
        about,
        {
            **E5_SMALL,
            **uncased,
            "nlp.lang": lang,
            "components.transformer.model.name": f"encoders/e5-{lang}-l{layers}",
            # XLM-R's own unknown piece
            "corpora.train.augmenter": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1, "unknown": "<unk>"},
            **overrides,
        },
    )


# the English staged recipe's augmenters, and 30% of the texts as the repair mode's input
EN_AUGMENTERS_WITH_REPAIR: Dict[str, Any] = {
    "@augmenters": "spacy_punct.chained_augmenters.v1",
    "*": {
        "spoken": {"@augmenters": "spacy_punct.spoken_numbers_en.v1", "share": 0.5},
        "tags": {"@augmenters": "spacy_punct.tag_questions.v1", "repeat": 3, "with_next": 0.5},
        "noise": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1},
        "repair": {"@augmenters": "spacy_punct.repair_input.v1", "share": 0.3},
    },
}


# the staged recipe's overrides (en_trf_stages), which the student's extend
RECIPES_EN_TRF_STAGES: Dict[str, Any] = {
    **SMALL_TRF,
    "components.transformer.model.weights_storage": "int8",
    "corpora.train.short_share": 0.25,
    "corpora.train.augmenter": {
        "@augmenters": "spacy_punct.chained_augmenters.v1",
        "*": {
            "spoken": {"@augmenters": "spacy_punct.spoken_numbers_en.v1", "share": 0.5},
            "tags": {"@augmenters": "spacy_punct.tag_questions.v1", "repeat": 3, "with_next": 0.5},
            "noise": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1},
        },
    },
    "training.max_steps": 6000,
    "training.patience": 0,
    "training.optimizer.learn_rate.warmup_steps": 100,
    "training.optimizer.learn_rate.total_steps": 6000,
    "training.optimizer.learn_rate.initial_rate": 0.0001,
    "initialize.after_init": {
        "@callbacks": "spacy_punct.warm_start.v1",
        "source": "spacy_punct/models/en_punct_trf",
        "then": {"@callbacks": "spacy_punct.freeze_embeddings.v1"},
    },
}


RECIPES: Dict[str, Recipe] = {
    "en_cpu": Recipe(
        "cpu",
        "English punctuation restoration on CPU. Simulated recognition errors in 10%\n"
        "of the training words: on test2011 with 10% errors 49.7 against 45.2\n"
        "without, on the clean text 53.7 against 54.9 (25 minutes, one thread).\n"
        "Width 192: distilled from the same teacher on all the English text, the\n"
        "held-out TED tenth 64.7 and GUM dev 54.6 against 61.3 and 50.8 at width 128.",
        {
            "nlp.lang": "en",
            "components.tok2vec.model.embed.embed.width": 192,
            "components.tok2vec.model.encode.width": 192,
            "corpora.train.augmenter": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1},
        },
    ),
    "bn_cpu": Recipe(
        "cpu",
        "Bangla punctuation restoration on CPU; dropout 0.3, which beat 0.1 on the\n"
        "held-out split (micro F1 66.9 against 65.3).",
        {
            "nlp.lang": "bn",
            "nlp.pipeline": ["tok2vec", "punctuator"],  # Bangla script has no case
            **NO_CASE_SCORES,
            "components.tok2vec.model.encode.dropout": 0.3,
            "training.dropout": 0.3,
        },
    ),
    "hu_cpu": Recipe(
        "cpu",
        "Hungarian punctuation restoration on CPU. The 16k words of UD Szeged train\n"
        "call for a smaller, more regularised model than English and Bangla: width\n"
        "64, one layer (PyTorch applies LSTM dropout between layers only: none with\n"
        "one), dropout 0.4, an evaluation every 50 steps.",
        {
            "nlp.lang": "hu",
            "components.tok2vec.model.embed.embed.width": 64,
            "components.tok2vec.model.embed.embed.rows": [2000, 1000, 1000, 500],
            "components.tok2vec.model.encode.width": 64,
            "components.tok2vec.model.encode.depth": 1,
            "components.tok2vec.model.encode.dropout": 0.0,
            "components.punctuator.model.hidden_width": 64,
            "training.dropout": 0.4,
            "training.eval_frequency": 50,
        },
    ),
    "en_small_trf": Recipe(
        "trf",
        "English punctuation restoration with a small pretrained encoder on CPU:\n"
        "all-MiniLM-L6-v2 (6 layers, 384 wide) cut to its lowest 3 layers\n"
        "(transformer_config: the loader reports the weights of layers 3 to 5\n"
        "unused) without attention dropout (PyTorch's fused attention), word-piece\n"
        "embeddings frozen (half the weights: fewer gradients and optimizer steps),\n"
        "chunks of 100 words (one 128-piece window each in training), learning rate\n"
        "2e-4 decaying linearly to zero over 5,800 steps of 1,000 words or by\n"
        "`spacy-punct train --max-minutes` (2e-4 beat 1e-4 by 1.6 points on\n"
        "test2011 at step 1,800). A one-layer BiLSTM between the encoder and the head\n"
        "(Alam et al. 2020): test2011 65.7 against 63.8 (QUESTION 61.7 against\n"
        "55.6) at 3,200 steps. Fewer layers take more steps in the hour: on a 2-core\n"
        "AVX2 CPU, six layers 3,011 steps in 58 minutes (test2011 64.9, QUESTION\n"
        "58.4), four 4,610 (66.0, 60.9), three 5,616 (67.2, 72.5; GUM dev 59.2\n"
        "against 57.7 with six; 4,800 steps in 49.4 minutes: 66.4, 68.8), and\n"
        "three read 1.5 times the words a second of six. All six layers in\n"
        'bfloat16 (CPUs with bfloat16 instructions, cpu_precision "auto"): 4,800\n'
        "steps in 49.9 minutes, test2011 66.3. At inference the encoder reads at most\n"
        "1,024 tokens at a time (max_batch_items): smaller batches, less padding\n"
        "and activations that stay in the CPU's caches, which its int8 layers need.",
        SMALL_TRF,
    ),
    "en_trf_stages": Recipe(
        "trf",
        "The English small transformer (en_small_trf) trained in stages on a corpus\n"
        "larger than one sitting (the TED transcripts): each stage starts from the\n"
        "weights of a saved pipeline (the bundled en_punct_trf, then the last\n"
        "stage's model-last: --initialize.after_init.source) and runs its own\n"
        "schedule, 100 warm-up steps to 1e-4 then linear decay to zero within the\n"
        "stage's steps or time limit; a quarter of the chunks are cut into texts\n"
        "of one to three sentences (single utterances), and every sentence that\n"
        "ends in a tag question (`, isn't it?`) is shown three more times as a text\n"
        "of its own (from stage 2 on), and the numbers of half of the texts are\n"
        "written as words, as recognisers write them (from stage 5 on); the\n"
        "encoder's weights are saved in int8, as the bundle stores them.",
        RECIPES_EN_TRF_STAGES,
    ),
    "en_teacher": Recipe(
        "trf",
        "The English teacher: all-mpnet-base-v2 (12 layers x 768, BERT-base's size;\n"
        "encoders/all-mpnet-base-v2: `spacy project run encoder-mpnet\n"
        "projects/en_teacher`) fine-tuned as a punctuator on all the English\n"
        "text, for the bundled transformer to learn its probabilities from. One long\n"
        "run in pieces (`spacy-punct train --checkpoint-minutes`, `--resume`): 300\n"
        "warm-up steps to 5e-5, then linear decay to zero at 4,000 steps of 1,000\n"
        "words (about 20 hours on two cores), an evaluation every 250 steps,\n"
        "stopped after 1,000 steps without a better one. From the first step, 30% of the texts come as a recogniser's\n"
        "half-punctuated text (runs of sentences keep their marks: the repair\n"
        "mode's input), a quarter are cut into texts of one to three sentences,\n"
        "numbers are written as words in half of them and 10% of the words carry\n"
        "simulated recognition errors. Word-piece embeddings frozen; no truecaser\n"
        "(the encoder is uncased) and no BiLSTM (twelve layers read the context);\n"
        "weights saved in float32.",
        {
            "nlp.lang": "en",
            "nlp.pipeline": ["transformer", "punctuator"],
            **NO_CASE_SCORES,
            "components.transformer.model.name": "encoders/all-mpnet-base-v2",
            "components.transformer.model.weights_storage": "float32",
            "components.transformer.max_batch_items": 1024,
            "components.transformer.model.transformer_config.attention_probs_dropout_prob": 0.0,
            "components.punctuator.model.hidden_width": 384,
            "components.punctuator.learn_rate_scale": 3.0,
            "corpora.train.max_length": 100,
            "corpora.train.short_share": 0.25,
            "corpora.train.augmenter": EN_AUGMENTERS_WITH_REPAIR,
            "training.max_epochs": -1,
            "training.max_steps": 4000,
            "training.patience": 1000,
            "training.eval_frequency": 250,
            "training.optimizer.learn_rate.warmup_steps": 300,
            "training.optimizer.learn_rate.total_steps": 4000,
            "training.optimizer.learn_rate.initial_rate": 0.00005,
            "initialize.after_init": {"@callbacks": "spacy_punct.freeze_embeddings.v1"},
        },
    ),
    "en_trf_student": Recipe(
        "trf",
        "The bundled English transformer (en_punct_trf's three MiniLM layers) taught\n"
        "by the English teacher (configs/en_teacher.cfg): the staged recipe\n"
        "(en_trf_stages) from the bundled weights, on all the English text with the\n"
        "teacher's class probabilities beside the gold marks (distill_weight 0.8,\n"
        "`spacy-punct distill`), and from the first step 30% of the texts as a\n"
        "recogniser's half-punctuated text (the repair mode's input). One long run\n"
        "in pieces (`spacy-punct train --checkpoint-minutes`, `--resume`): 100\n"
        "warm-up steps to 1e-4, linear decay to zero at 12,000 steps of 1,000 words\n"
        "(two passes over the text), an evaluation every 400 steps, stopped after\n"
        "3,000 steps without a better one.",
        {
            **RECIPES_EN_TRF_STAGES,
            "components.punctuator.distill_weight": 0.8,
            "corpora.train.augmenter": EN_AUGMENTERS_WITH_REPAIR,
            "training.max_steps": 12000,
            "training.patience": 3000,
            "training.eval_frequency": 400,
            "training.optimizer.learn_rate.total_steps": 12000,
        },
    ),
    "hu_e5": e5_recipe(
        "hu",
        6,
        "Hungarian punctuation restoration and truecasing with multilingual-e5-small\n"
        "(12 layers x 384, cased, XLM-R's 250,037 pieces) cut to its lowest six\n"
        "layers and pruned to the 28,157 pieces of the Hungarian training text\n"
        "(encoders/e5-hu-l6: `spacy project run encoder-lang projects/e5 --vars.lang hu`), with\n"
        "the small English transformer's settings (en_small_trf): word-piece\n"
        "embeddings frozen, a one-layer BiLSTM before the head, chunks of 100 words,\n"
        "a quarter of them cut into texts of one to three sentences, learning rate\n"
        "2e-4 decaying linearly to zero within 20,000 steps or `--max-minutes`. On\n"
        "one GPU for 5.5 minutes, UD Szeged dev 62.2 with six layers (1,452 steps)\n"
        "against 57.5 with four (1,512 steps), both bundled in int8; 65.2 after\n"
        "two further stages on the CPU (docs/experiments/multilingual-encoder.md).\n"
        "Each question shown twice more as a text of its own: the training text\n"
        "holds few, conversation asks (docs/experiments/hungarian-conversation.md).",
        **{
            "corpora.train.augmenter": {
                "@augmenters": "spacy_punct.chained_augmenters.v1",
                "*": {
                    "questions": {"@augmenters": "spacy_punct.questions.v1", "repeat": 2, "with_next": 0.5},
                    "noise": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1, "unknown": "<unk>"},
                },
            }
        },
    ),
    "bn_e5": e5_recipe(
        "bn",
        6,
        "Bangla punctuation restoration with multilingual-e5-small cut to its lowest\n"
        "six layers and pruned to the 3,814 pieces of the Bangla training text\n"
        "(encoders/e5-bn-l6: `spacy project run encoder-lang projects/e5 --vars.lang bn`); the\n"
        "settings of the Hungarian recipe (hu_e5), without a truecaser (Bangla script\n"
        "has no case). On one GPU for 5.5 minutes, test_news 65.9 with four layers\n"
        "(2,132 steps), 67.3 with six (2,008 steps); six layers for 5 minutes (2,072\n"
        "steps), bundled in int8: 68.4 (docs/experiments/multilingual-encoder.md).",
    ),
    "en_trf": Recipe(
        "trf",
        "English punctuation restoration with bert-base-uncased (GPU).",
        {"nlp.lang": "en", "components.transformer.model.name": "bert-base-uncased"},
        gpu=True,
    ),
    "bn_trf": Recipe(
        "trf",
        "Bangla punctuation restoration with xlm-roberta-base (GPU).",
        {
            "nlp.lang": "bn",
            "nlp.pipeline": ["transformer", "punctuator"],
            **NO_CASE_SCORES,
            "components.transformer.model.name": "xlm-roberta-base",
            # XLM-R's own unknown token
            "corpora.train.augmenter": {"@augmenters": "spacy_punct.asr_noise.v1", "level": 0.1, "unknown": "<unk>"},
        },
        gpu=True,
    ),
    "hu_trf": Recipe(
        "trf",
        "Hungarian punctuation restoration with SZTAKI-HLT/hubert-base-cc (GPU).",
        {"nlp.lang": "hu", "components.transformer.model.name": "SZTAKI-HLT/hubert-base-cc"},
        gpu=True,
    ),
}


def render(name: str) -> str:
    """The text of a recipe's config: the base file, comments and order kept,
    with the recipe's values in place of the base's."""
    recipe = RECIPES[name]
    base = CONFIGS / f"base_{recipe.base}.cfg"
    lines = base.read_text(encoding="utf8").split("\n")
    while lines and lines[0].startswith("#"):
        lines.pop(0)  # the base's own header
    open_sections = _empty_sections(lines)
    for path, value in recipe.overrides.items():
        section, key = path.rsplit(".", 1)
        value_text = json.dumps(value, separators=(",", ":"))
        lines = _replace(lines, section, key, value_text, f"{name}: {path}", open_sections)
    gpu = " --gpu-id 0" if recipe.gpu else ""
    header = [
        *recipe.about.split("\n"),
        f"Written by scripts/configs.py from configs/{base.name} and this recipe's",
        "overrides there: edit those, not this file.",
        f"Train: python -m spacy train configs/{name}.cfg{gpu} --paths.train corpus/train.spacy --paths.dev corpus/dev.spacy",
    ]
    text = "".join(f"# {line}\n" for line in header) + "\n".join(lines)
    config = Config().from_str(text, interpolate=False)
    for path, value in recipe.overrides.items():
        node = config
        for part in path.split("."):
            node = node[part]
        assert node == value, f"{name}: {path} reads back as {node!r}, not {value!r}"
    return text


def _replace(lines: List[str], section: str, key: str, value: str, what: str, open_sections: Set[str]) -> List[str]:
    """Set `key = value` in `[section]` of a config's lines. The key must be in
    the base already, but for a section the base leaves empty (such as the
    Hugging Face settings in transformer_config), which takes new keys."""
    header = f"[{section}]"
    if header not in lines:
        raise KeyError(f"{what}: no section {header}")
    start = lines.index(header) + 1
    end = start
    while end < len(lines) and not lines[end].startswith("["):
        end += 1
    for i in range(start, end):
        if lines[i].split("=", 1)[0].strip() == key:
            return lines[:i] + [f"{key} = {value}"] + lines[i + 1 :]
    if header not in open_sections:
        raise KeyError(f"{what}: no {key} in {header}")
    last = max([start - 1, *(i for i in range(start, end) if lines[i].strip())])
    return lines[: last + 1] + [f"{key} = {value}"] + lines[last + 1 :]


def _empty_sections(lines: List[str]) -> Set[str]:
    """The headers of the sections with no settings."""
    empty = set()
    for i, line in enumerate(lines):
        if line.startswith("["):
            following = lines[i + 1 :]
            body = following[: next((j for j, l in enumerate(following) if l.startswith("[")), len(following))]
            if not any(l.strip() and not l.startswith("#") for l in body):
                empty.add(line)
    return empty


def main(check: bool) -> int:
    stale = []
    for name in RECIPES:
        path = CONFIGS / f"{name}.cfg"
        text = render(name)
        if check:
            if not path.exists() or path.read_text(encoding="utf8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf8")
    if stale:
        print(f"Out of date (run python scripts/configs.py): {', '.join(stale)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
