"""A three-hour recording as users send it: `WORDS` words of a test set's
bare words as one openai-whisper result (segments of 12 timed words), as an
SRT file of cues of 10 words, as a Deepgram result (one channel's timed
words) and as a Google Speech-to-Text response (results of 12 timed words), each punctuated by `spacy-punct punctuate`
in a process of its own: wall time and peak memory, and whether the output's
words and marks equal those of the same words punctuated as one line of text.

    python projects/benchmarks/long_transcripts.py TEST.spacy OUTPUT.json PIPELINE [--words 30000] [--threads 2]
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List

import spacy
from spacy.tokens import DocBin

from spacy_punct.word_records import word_records


def words_of(test: Path, n: int) -> List[str]:
    nlp = spacy.blank("en")
    words = [r.seen for doc in DocBin().from_disk(test).get_docs(nlp.vocab) for r in word_records(doc, lowercase=True)]
    return (words * (n // len(words) + 1))[:n]


def whisper(words: List[str]) -> str:
    segments = []
    for start in range(0, len(words), 12):
        chunk = words[start : start + 12]
        timed = [{"word": " " + w, "start": round(0.3 * (start + k), 2), "end": round(0.3 * (start + k) + 0.25, 2),
                  "probability": 0.9} for k, w in enumerate(chunk)]  # fmt: skip
        segments.append({"id": len(segments), "start": timed[0]["start"], "end": timed[-1]["end"],
                         "text": "".join(t["word"] for t in timed), "words": timed})  # fmt: skip
    return json.dumps({"text": " " + " ".join(words), "segments": segments, "language": "en"})


def srt(words: List[str]) -> str:
    cues = []
    for number, start in enumerate(range(0, len(words), 10), start=1):
        begin, end = 3.0 * (number - 1), 3.0 * number - 0.1
        stamp = lambda s: f"{int(s // 3600):02d}:{int(s % 3600 // 60):02d}:{int(s % 60):02d},{int(s * 1000 % 1000):03d}"  # noqa: E731
        cues.append(f"{number}\n{stamp(begin)} --> {stamp(end)}\n{' '.join(words[start : start + 10])}\n")
    return "\n".join(cues)


def timed(words: List[str]) -> List[Dict[str, object]]:
    return [{"word": w, "start": round(0.3 * k, 2), "end": round(0.3 * k + 0.25, 2)} for k, w in enumerate(words)]


def deepgram(words: List[str]) -> str:
    entries = [dict(entry, confidence=0.9) for entry in timed(words)]
    best = {"transcript": " ".join(words), "confidence": 0.9, "words": entries}
    return json.dumps({"metadata": {"channels": 1}, "results": {"channels": [{"alternatives": [best]}]}})


def google(words: List[str]) -> str:
    entries = [{"startTime": f"{e['start']}s", "endTime": f"{e['end']}s", "word": e["word"]} for e in timed(words)]
    results = [{"alternatives": [{"transcript": ("" if start == 0 else " ") + " ".join(words[start : start + 12]),
                                  "confidence": 0.9, "words": entries[start : start + 12]}],
                "resultEndTime": entries[min(start + 12, len(words)) - 1]["endTime"], "languageCode": "en-us"}
               for start in range(0, len(words), 12)]  # fmt: skip
    return json.dumps({"results": results})


_MEASURED = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL); "
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def run(command: List[str]) -> Dict[str, float]:
    """Wall time and peak memory of a command, in a process of its own."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURED, *command], check=True, capture_output=True, text=True)
    return {"seconds": time.perf_counter() - start, "peak_mb": int(done.stdout.split()[-1]) / 1024}


def marked_words(text: str) -> List[str]:
    return re.findall(r"[\w']+[,.?!]*", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("test", type=Path)
    parser.add_argument("output", type=Path)
    parser.add_argument("pipeline")
    parser.add_argument("--words", type=int, default=30_000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    words = words_of(args.test, args.words)
    results: Dict[str, Dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "text": Path(folder, "line.txt"),
            "whisper": Path(folder, "talk.json"),
            "srt": Path(folder, "talk.srt"),
            "deepgram": Path(folder, "deepgram.json"),
            "google": Path(folder, "google.json"),
        }
        files["text"].write_text(" ".join(words) + "\n", encoding="utf8")
        files["whisper"].write_text(whisper(words), encoding="utf8")
        files["srt"].write_text(srt(words), encoding="utf8")
        files["deepgram"].write_text(deepgram(words), encoding="utf8")
        files["google"].write_text(google(words), encoding="utf8")
        outputs = {}
        for name, path in files.items():
            out = Path(folder, "out-" + path.name)
            command = [
                "spacy-punct",
                "punctuate",
                args.pipeline,
                str(path),
                "-o",
                str(out),
                "--threads",
                str(args.threads),
            ]
            results[name] = run(command)
            outputs[name] = out.read_text(encoding="utf8")
            print(f"{name}: {results[name]['seconds']:.1f} s, peak {results[name]['peak_mb']:.0f} MB", file=sys.stderr)
    reference = marked_words(outputs["text"])
    whisper_text = "".join(segment["text"] for segment in json.loads(outputs["whisper"])["segments"])
    caption_text = " ".join(
        line for line in outputs["srt"].splitlines() if line and "-->" not in line and not line.isdigit()
    )
    deepgram_text = json.loads(outputs["deepgram"])["results"]["channels"][0]["alternatives"][0]["transcript"]
    google_text = "".join(r["alternatives"][0]["transcript"] for r in json.loads(outputs["google"])["results"])
    results["deepgram"]["equals_text"] = marked_words(deepgram_text) == reference
    results["google"]["equals_text"] = marked_words(google_text) == reference
    results["whisper"]["equals_text"] = marked_words(whisper_text) == reference
    results["srt"]["equals_text"] = marked_words(caption_text) == reference
    results["srt"]["cues_in"] = len(range(0, len(words), 10))
    results["srt"]["cues_out"] = outputs["srt"].count("-->")
    result = {"test": str(args.test), "pipeline": args.pipeline, "words": len(words), "threads": args.threads,
              "runs": results}  # fmt: skip
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
