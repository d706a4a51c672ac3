from pathlib import Path

from setuptools import find_packages, setup

about = {}
exec((Path(__file__).parent / "spacy_punct" / "about.py").read_text(), about)

setup(
    name="spacy-punct",
    version=about["__version__"],
    description="Punctuation restoration as a trainable spaCy pipeline component",
    long_description=(Path(__file__).parent / "README.md").read_text(encoding="utf8"),
    long_description_content_type="text/markdown",
    author="The spacy-punct developers",
    # the code is MIT; each bundled pipeline (spacy_punct/models/<name>/) carries the
    # licences of the texts it learned from, for non-commercial use (its LICENSE file)
    license=(
        "MIT (code); the bundled pipelines in spacy_punct/models: non-commercial use under the licences of "
        "their sources, CC BY-NC-ND 4.0 AND CC BY-NC-SA 4.0 AND CC BY-SA 4.0 (English), CC BY-NC-SA 4.0 AND "
        "CC BY-SA 4.0 (Hungarian), CC BY-NC-SA (Bangla); see each pipeline's LICENSE file"
    ),
    license_files=["LICENSE"],
    classifiers=[
        "License :: OSI Approved :: MIT License",
        "License :: Free for non-commercial use",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Topic :: Text Processing :: Linguistic",
        "Typing :: Typed",
    ],
    packages=find_packages(include=["spacy_punct", "spacy_punct.*"]),
    # the bundled pipelines (spacy_punct/models/<name>/): loaded by name, e.g. "en"
    package_data={"spacy_punct": ["py.typed", "heard_marks.json", "models/*/*", "models/*/*/*", "service/page.html"]},
    # the README's torch (2.13) installs on Python 3.10 and later; the suite runs on 3.11 and 3.12
    python_requires=">=3.10",
    install_requires=[
        # the spaCy the suite runs on (3.8.18); spaCy 3.7 failed to import beside typer 0.29
        "spacy>=3.8.2,<3.9",
        "spacy-transformers>=1.3,<1.5",
        # from 4.47 transformers imports torch.distributed.tensor when it starts (and from
        # 4.53 torch._dynamo): about 1 s more of every start of a transformer pipeline
        "transformers>=4.41,<4.47",
        "thinc>=8.3,<8.4",
        # torch._int_mm on the CPU (2.3); torch.load reads weights only by default (2.6), as thinc's
        # and spacy-transformers' loads of a pipeline's weights then do
        "torch>=2.6",
        # the command line; typer 0.29 is what the suite runs on, spaCy itself imports typer too
        "typer>=0.9,<0.30",
        "threadpoolctl>=3",
        "numpy",
        "srsly>=2.4,<3",
        "catalogue>=2.0.6,<2.1",
        "tqdm>=4.38",
    ],
    extras_require={
        # mypy: the public API is type-checked in the suite
        # httpx: FastAPI's test client; ruff pinned, so that its formatting does not move
        "test": ["pytest>=7", "hypothesis>=6", "tokenizers", "mypy>=1.8", "httpx>=0.25", "ruff==0.17.6"],
        "benchmark": ["matplotlib", "tokenizers"],
        # spacy-punct serve: FastAPI on uvicorn (with httptools and uvloop), WebSockets through websockets;
        # starlette (FastAPI's own) for the errors of its routing, which FastAPI's HTTPException does not catch
        "serve": ["fastapi>=0.110", "starlette>=0.36.3", "uvicorn[standard]>=0.29", "websockets>=12"],
        # distributed.py reads some of Ray Data's inner workings: the Ray 2 line only
        # serve --engine ray: Ray Serve
        "ray": ["ray[data,serve]>=2.9,<3", "pandas", "pyarrow"],
    },
    entry_points={
        "spacy_factories": [
            "punctuator = spacy_punct.components.punctuator:make_punctuator",
            "punct_rewriter = spacy_punct.components.rewriter:make_punct_rewriter",
            "int8_quantizer = spacy_punct.components.quantizer:make_int8_quantizer",
            "truecaser = spacy_punct.components.truecaser:make_truecaser",
        ],
        "spacy_architectures": [
            "spacy_punct.PunctuatorModel.v1 = spacy_punct.layers.classifier:build_punctuator_model",
            "spacy_punct.BiLSTMEncoder.v1 = spacy_punct.layers.bilstm:build_bilstm_encoder",
            "spacy_punct.LowercaseEmbed.v1 = spacy_punct.layers.lowercase:build_lowercase_embed",
            "spacy_punct.TransformerModel.v1 = spacy_punct.layers.transformer:build_transformer_model",
            "spacy_punct.Tok2Vec.v1 = spacy_punct.layers.tok2vec:build_tok2vec",
            "spacy_punct.RepairHead.v1 = spacy_punct.layers.repair_head:build_repair_head",
        ],
        "spacy_misc": [
            "spacy_punct.fixed_lookahead.v1 = spacy_punct.inference.streaming:create_fixed_lookahead",
            "spacy_punct.entropy_lookahead.v1 = spacy_punct.inference.streaming:create_entropy_lookahead",
        ],
        "spacy_span_getters": [
            "spacy_punct.word_strided_spans.v1 = spacy_punct.layers.span_getters:configure_word_strided_spans",
        ],
        "thinc_layers": ["spacy_punct.PauseFeatures.v1 = spacy_punct.layers.pauses:build_pause_features"],
        "thinc_schedules": [
            "spacy_punct.warmup_linear_within.v1 = spacy_punct.training.schedules:create_warmup_linear_within",
        ],
        "spacy_tokenizers": ["spacy_punct.Tokenizer.v1 = spacy_punct.components.tokenizer:create_tokenizer"],
        "spacy_readers": ["spacy_punct.PunctCorpus.v1 = spacy_punct.training.corpus:PunctCorpus"],
        "spacy_scorers": [
            "spacy_punct.punct_scorer.v1 = spacy_punct.scorer:make_punct_scorer",
            "spacy_punct.case_scorer.v1 = spacy_punct.scorer:make_case_scorer",
        ],
        "spacy_augmenters": [
            "spacy_punct.asr_noise.v1 = spacy_punct.training.augment:create_asr_noise_augmenter",
            "spacy_punct.sentence_shuffle.v1 = spacy_punct.training.augment:create_sentence_shuffle_augmenter",
            "spacy_punct.tag_questions.v1 = spacy_punct.training.augment:create_tag_question_augmenter",
            "spacy_punct.questions.v1 = spacy_punct.training.augment:create_question_augmenter",
            "spacy_punct.case_noise.v1 = spacy_punct.training.augment:create_case_noise_augmenter",
            "spacy_punct.repair_input.v1 = spacy_punct.training.augment:create_repair_input_augmenter",
            "spacy_punct.chained_augmenters.v1 = spacy_punct.training.augment:create_chained_augmenters",
            "spacy_punct.spoken_numbers_en.v1 = spacy_punct.training.spoken_numbers:create_spoken_numbers_augmenter",
        ],
        "spacy_callbacks": [
            "spacy_punct.time_limit.v1 = spacy_punct.training.loop:create_time_limit",
            "spacy_punct.freeze_embeddings.v1 = spacy_punct.training.freeze:create_freeze_embeddings",
            "spacy_punct.freeze_layers.v1 = spacy_punct.training.freeze:create_freeze_layers",
            "spacy_punct.warm_start.v1 = spacy_punct.training.warm_start:create_warm_start",
        ],
        "spacy_punct_output_formats": [
            "text = spacy_punct.formats.output_formats:TextWriter",
            "jsonl = spacy_punct.formats.output_formats:JsonlWriter",
            "srt = spacy_punct.formats.output_formats:SrtWriter",
            "vtt = spacy_punct.formats.output_formats:VttWriter",
        ],
        "console_scripts": ["spacy-punct = spacy_punct.cli:app"],
    },
)
