"""A three-hour recording as users send it: `WORDS` words of a test set's
bare words in every recogniser's format `spacy-punct punctuate` reads (one
openai-whisper result of segments of 12 timed words, an SRT and a WebVTT
file of cues of 10 words, ...), each punctuated in a process of its own:
wall time and peak memory, and whether the output's words and marks (read
back by the format's own reader) equal those of the same words punctuated
as one line of text.

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
from typing import Callable, Dict, List, Tuple

import spacy
from spacy.tokens import DocBin

from spacy_punct.formats.captions import timestamp
from spacy_punct.formats.recognisers import make_format
from spacy_punct.word_records import word_records

Timed = List[Tuple[str, float, float]]  # (word, start, end) in seconds


def words_of(test: Path, n: int) -> List[str]:
    nlp = spacy.blank("en")
    words = [r.seen for doc in DocBin().from_disk(test).get_docs(nlp.vocab) for r in word_records(doc, lowercase=True)]
    return (words * (n // len(words) + 1))[:n]


def timed(words: List[str]) -> Timed:
    return [(w, round(0.3 * k, 2), round(0.3 * k + 0.25, 2)) for k, w in enumerate(words)]


def chunks(words: Timed, size: int) -> List[Timed]:
    return [words[start : start + size] for start in range(0, len(words), size)]


def whisper(words: Timed) -> str:
    segments = []
    for chunk in chunks(words, 12):
        entries = [{"word": " " + w, "start": s, "end": e, "probability": 0.9} for w, s, e in chunk]
        segments.append({"id": len(segments), "start": chunk[0][1], "end": chunk[-1][2],
                         "text": "".join(t["word"] for t in entries), "words": entries})  # fmt: skip
    return json.dumps({"text": "".join(s["text"] for s in segments), "segments": segments, "language": "en"})


def whisper_cpp(words: Timed) -> str:
    segments = [{"timestamps": {"from": timestamp(c[0][1], ","), "to": timestamp(c[-1][2], ",")},
                 "offsets": {"from": round(c[0][1] * 1000), "to": round(c[-1][2] * 1000)},
                 "text": "".join(" " + w for w, _, _ in c)} for c in chunks(words, 12)]  # fmt: skip
    return json.dumps({"result": {"language": "en"}, "transcription": segments}, indent="\t")


def captions(kind: str) -> Callable[[Timed], str]:
    def write(words: Timed) -> str:
        separator = "," if kind == "srt" else "."
        cues = [f"{n}\n{timestamp(c[0][1], separator)} --> {timestamp(c[-1][2], separator)}\n"
                f"{' '.join(w for w, _, _ in c)}\n" for n, c in enumerate(chunks(words, 10), 1)]  # fmt: skip
        return ("WEBVTT\n\n" if kind == "vtt" else "") + "\n".join(cues)

    return write


def deepgram(words: Timed) -> str:
    entries = [{"word": w, "start": s, "end": e, "confidence": 0.9} for w, s, e in words]
    best = {"transcript": " ".join(w for w, _, _ in words), "confidence": 0.9, "words": entries}
    return json.dumps({"metadata": {"channels": 1}, "results": {"channels": [{"alternatives": [best]}]}})


def google(words: Timed) -> str:
    results = [{"alternatives": [{"transcript": ("" if n == 0 else " ") + " ".join(w for w, _, _ in c),
                                  "words": [{"startTime": f"{s}s", "endTime": f"{e}s", "word": w} for w, s, e in c]}],
                "resultEndTime": f"{c[-1][2]}s", "languageCode": "en-us"}
               for n, c in enumerate(chunks(words, 12))]  # fmt: skip
    return json.dumps({"results": results})


def assemblyai(words: Timed) -> str:
    entries = [{"text": w, "start": round(s * 1000), "end": round(e * 1000), "confidence": 0.9} for w, s, e in words]
    return json.dumps(
        {"id": "long", "audio_url": "talk.mp3", "text": " ".join(w for w, _, _ in words), "words": entries}
    )


def amazon(words: Timed) -> str:
    items = [{"id": k, "type": "pronunciation", "alternatives": [{"confidence": "0.9", "content": w}],
              "start_time": f"{s:.2f}", "end_time": f"{e:.2f}"} for k, (w, s, e) in enumerate(words)]  # fmt: skip
    said = " ".join(w for w, _, _ in words)
    return json.dumps({"jobName": "long", "results": {"transcripts": [{"transcript": said}], "items": items}})


def speechmatics(words: Timed) -> str:
    results = [{"alternatives": [{"confidence": 0.9, "content": w, "language": "en"}], "start_time": s, "end_time": e,
                "type": "word"} for w, s, e in words]  # fmt: skip
    return json.dumps({"format": "2.9", "metadata": {"transcription_config": {"language": "en"}}, "results": results})


def rev(words: Timed) -> str:
    elements: List[Dict[str, object]] = []
    for w, s, e in words:
        elements += ([{"type": "punct", "value": " "}] if elements else []) + [
            {"type": "text", "value": w, "ts": s, "end_ts": e}
        ]
    return json.dumps({"id": "long", "monologues": [{"speaker": 0, "elements": elements}]})


def sbv(words: Timed) -> str:
    return "\n".join(f"{timestamp(c[0][1], '.')[1:]},{timestamp(c[-1][2], '.')[1:]}\n{' '.join(w for w, _, _ in c)}\n"
                     for c in chunks(words, 10))  # fmt: skip


def lrc(words: Timed) -> str:
    lines = [
        f"[{int(c[0][1] // 60):02d}:{c[0][1] % 60:05.2f}] {' '.join(w for w, _, _ in c)}" for c in chunks(words, 12)
    ]
    return "[by:whisper.cpp]\n" + "\n".join(lines) + "\n"


def azure(words: Timed) -> str:
    phrases = [{"recognitionStatus": "Success", "channel": 0, "offsetInTicks": round(c[0][1] * 1e7),
                "durationInTicks": round((c[-1][2] - c[0][1]) * 1e7),
                "nBest": [{"lexical": " ".join(w for w, _, _ in c), "display": " ".join(w for w, _, _ in c)}]}
               for c in chunks(words, 12)]  # fmt: skip
    said = " ".join(w for w, _, _ in words)
    return json.dumps({"combinedRecognizedPhrases": [{"channel": 0, "lexical": said, "display": said}],
                       "recognizedPhrases": phrases})  # fmt: skip


def transformers(words: Timed) -> str:
    chunks_ = [{"text": " " + w, "timestamp": [s, e]} for w, s, e in words]  # Whisper's word chunks
    return json.dumps({"text": "".join(" " + w for w, _, _ in words), "chunks": chunks_})


def vosk(words: Timed) -> str:
    return "".join(json.dumps({"result": [{"conf": 1.0, "end": e, "start": s, "word": w} for w, s, e in c],
                               "text": " ".join(w for w, _, _ in c)}) + "\n" for c in chunks(words, 12))  # fmt: skip


def ctm(words: Timed) -> str:
    return "".join(f"talk 1 {s:.2f} {e - s:.2f} {w} 0.90\n" for w, s, e in words)


def tsv(words: Timed) -> str:
    rows = [
        f"{round(c[0][1] * 1000)}\t{round(c[-1][2] * 1000)}\t{' '.join(w for w, _, _ in c)}" for c in chunks(words, 12)
    ]
    return "start\tend\ttext\n" + "\n".join(rows) + "\n"


def csv(words: Timed) -> str:
    rows = [
        f'{round(c[0][1] * 1000)},{round(c[-1][2] * 1000)}," {" ".join(w for w, _, _ in c)}"' for c in chunks(words, 12)
    ]
    return "start,end,text\n" + "\n".join(rows) + "\n"


def printed(words: Timed) -> str:
    return "".join(f"[{timestamp(c[0][1], '.')} --> {timestamp(c[-1][2], '.')}]  {' '.join(w for w, _, _ in c)}\n"
                   for c in chunks(words, 12))  # fmt: skip


def youtube(words: Timed) -> str:
    return json.dumps([{"text": " ".join(w for w, _, _ in c), "start": c[0][1], "duration": round(c[-1][2] - c[0][1], 2)}
                       for c in chunks(words, 8)])  # fmt: skip


def json3(words: Timed) -> str:
    events = [{"tStartMs": round(c[0][1] * 1000), "dDurationMs": round((c[-1][2] - c[0][1]) * 1000), "wWinId": 1,
               "segs": [{"utf8": ("" if k == 0 else " ") + w, "tOffsetMs": round((s - c[0][1]) * 1000)}
                        for k, (w, s, _) in enumerate(c)]} for c in chunks(words, 10)]  # fmt: skip
    return json.dumps({"wireMagic": "pb3", "events": events})


# each format: its file's name, what writes it, and its reader's name
FORMATS: Dict[str, Tuple[str, Callable[[Timed], str], str]] = {
    "whisper": ("talk.json", whisper, "whisper"),
    "whisper.cpp": ("talk.wav.json", whisper_cpp, "whisper-cpp"),
    "srt": ("talk.srt", captions("srt"), "srt"),
    "vtt": ("talk.vtt", captions("vtt"), "vtt"),
    "sbv": ("talk.sbv", sbv, "sbv"),
    "lrc": ("talk.lrc", lrc, "lrc"),
    "deepgram": ("deepgram.json", deepgram, "deepgram"),
    "google": ("google.json", google, "google"),
    "assemblyai": ("assemblyai.json", assemblyai, "assemblyai"),
    "amazon": ("amazon.json", amazon, "amazon"),
    "azure": ("azure.json", azure, "azure"),
    "speechmatics": ("speechmatics.json", speechmatics, "speechmatics"),
    "rev": ("rev.json", rev, "rev"),
    "transformers": ("transformers.json", transformers, "transformers"),
    "vosk": ("vosk.jsonl", vosk, "vosk"),
    "ctm": ("talk.ctm", ctm, "ctm"),
    "tsv": ("talk.tsv", tsv, "tsv"),
    "csv": ("talk.csv", csv, "csv"),
    "printed": ("printed.txt", printed, "timestamped"),
    "youtube": ("snippets.json", youtube, "youtube"),
    "json3": ("talk.json3", json3, "json3"),
}

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
    words = timed(words_of(args.test, args.words))
    results: Dict[str, Dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as folder:
        files = {"text": (Path(folder, "line.txt"), " ".join(w for w, _, _ in words) + "\n", "")}
        for name, (file_name, write, kind) in FORMATS.items():
            files[name] = (Path(folder, file_name), write(words), kind)
        reference: List[str] = []
        for name, (path, content, kind) in files.items():
            path.write_text(content, encoding="utf8")
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
            written = out.read_text(encoding="utf8")
            if not kind:
                reference = marked_words(written)
            else:  # the output read back by the format's own reader
                said = " ".join(word.text for word in make_format(kind).read(written, out.name).words)
                results[name]["equals_text"] = marked_words(said) == reference
            print(f"{name}: {results[name]['seconds']:.1f} s, peak {results[name]['peak_mb']:.0f} MB", file=sys.stderr)
            if name == "srt":
                results[name]["cues_in"] = content.count("-->")
                results[name]["cues_out"] = written.count("-->")
    result = {"test": str(args.test), "pipeline": args.pipeline, "words": len(words), "threads": args.threads,
              "runs": results}  # fmt: skip
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
