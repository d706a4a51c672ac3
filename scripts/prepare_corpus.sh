#!/usr/bin/env bash
# Convert one language's corpus to corpus/LANG/train/*.spacy (the training
# files), corpus/LANG/dev.spacy (held out) and corpus/LANG/eval/*.spacy.
# Usage: scripts/prepare_corpus.sh LANG ASSETS_DIR
set -euo pipefail
lang=$1
assets=$2
out=corpus/$lang
mkdir -p "$out/eval" "$out/train"
convert() { spacy-punct convert "$@"; echo; }

# train_and_dev LANG TRAIN_FILE DEV_FILE TRAIN_OUT: the training file when it
# was fetched, else the dev file with its last tenth held out for checkpoint
# selection (written to $out/dev.spacy)
train_and_dev() {
  if [ -f "$2" ]; then
    convert tokens "$2" "$4" --lang "$1"
    convert tokens "$3" "$out/dev.spacy" --lang "$1"
  else
    convert tokens "$3" "$out/all.spacy" --lang "$1"
    spacy-punct split "$out/all.spacy" "$4" "$out/dev.spacy" --dev-fraction 0.1 --lang "$1"
    rm "$out/all.spacy"
  fi
}

case $lang in
  en)
    # IWSLT TED, and UD English GUM (cased, spoken and written genres) when it
    # was fetched: its train part is extra training data, its dev part a test set
    src=$assets/iwslt2011
    gum=$assets/english_gum
    train_and_dev en "$src/train2012" "$src/dev2012" "$out/train/iwslt.spacy"
    convert tokens "$src/test2011" "$out/eval/test2011.spacy" --lang en
    # single utterances and tag questions, written for this project
    convert text benchmarks/data/short_utterances_en.txt "$out/eval/short_utterances.spacy" --lang en --blocks
    if [ -f "$src/test2011asr" ]; then
      convert tokens "$src/test2011asr" "$out/eval/test2011asr.spacy" --lang en
    fi
    if [ -d "$gum/train" ]; then
      convert conllu "$gum/train" "$out/train/gum.spacy" --lang en
      convert conllu "$gum/dev" "$out/eval/gum_dev.spacy" --lang en
    fi
    # TED transcripts (5.5M words) when fetched: every talk sharing over 5% of
    # its 8-grams with a test set, the dev split or the IWSLT training text
    # (the talks of dev2012 or train2012) is dropped, so none is read twice
    # and none reaches a dev split
    if [ -d "$assets/ted_talks" ]; then
      guards=()
      for f in "$out"/eval/*.spacy "$out/dev.spacy" "$out/train/iwslt.spacy"; do guards+=(--guard "$f"); done
      convert ted "$assets/ted_talks" "$out/train/ted.spacy" --lang en "${guards[@]}" | grep -v "^skipped file"
    fi
    # web text (UD English EWT, train and dev documents) and prepared speeches
    # (State of the Union, inaugural addresses) when fetched, guarded alike;
    # EWT pays on GUM dev and is trained on, the speeches do not and are kept
    # apart in corpus/en/extra (docs/experiments/ted-transcripts.md)
    guards=()
    for f in "$out"/eval/*.spacy "$out/dev.spacy"; do guards+=(--guard "$f"); done
    if [ -d "$assets/english_ewt/train" ]; then
      convert conllu "$assets/english_ewt" "$out/train/ewt.spacy" --lang en "${guards[@]}"
    fi
    if [ -f "$assets/english_speeches/state_union.zip" ]; then
      mkdir -p "$out/extra"
      speeches=$(mktemp -d)
      for z in "$assets"/english_speeches/*.zip; do python -m zipfile -e "$z" "$speeches"; done
      convert text "$speeches" "$out/extra/speeches.spacy" --lang en --glob "**/*.txt" "${guards[@]}"
      rm -r "$speeches"
    fi
    ;;
  bn)
    # Bangla news
    src=$assets/bangla
    train_and_dev bn "$src/train" "$src/dev" "$out/train/news.spacy"
    convert tokens "$src/test_news" "$out/eval/test_news.spacy" --lang bn
    for part in test_ref test_asr; do
      if [ -f "$src/$part" ]; then convert tokens "$src/$part" "$out/eval/$part.spacy" --lang bn; fi
    done
    # the Bangla side of small parallel corpora (one sentence a line) when
    # fetched, guarded against the test sets and the dev split
    if [ -d "$assets/bangla_extra/mt" ]; then
      guards=()
      for f in "$out"/eval/*.spacy "$out/dev.spacy"; do guards+=(--guard "$f"); done
      convert lines "$assets/bangla_extra/mt" "$out/train/extra.spacy" --lang bn --doc-length 200 "${guards[@]}"
    fi
    ;;
  hu)
    # UD Szeged: train with its last tenth held out for checkpoint selection;
    # the official dev and test sets are both kept for evaluation
    src=$assets/hungarian_szeged_ud
    convert conllu "$src/hu_szeged-ud-train.conllu" "$out/all.spacy" --lang hu --doc-length 500
    spacy-punct split "$out/all.spacy" "$out/train/szeged.spacy" "$out/dev.spacy" --dev-fraction 0.1 --lang hu
    rm "$out/all.spacy"
    convert conllu "$src/hu_szeged-ud-dev.conllu" "$out/eval/dev.spacy" --lang hu
    if [ -f "$src/hu_szeged-ud-test.conllu" ]; then
      convert conllu "$src/hu_szeged-ud-test.conllu" "$out/eval/test.spacy" --lang hu
    fi
    # NYTK-NerKor and HuSST when fetched, guarded against the UD Szeged test sets
    guards=()
    for f in "$out"/eval/*.spacy "$out/dev.spacy"; do guards+=(--guard "$f"); done
    if [ -d "$assets/hungarian_nerkor/data" ]; then
      convert conllup "$assets/hungarian_nerkor/data" "$out/train/nerkor.spacy" --lang hu "${guards[@]}" | grep -v "^skipped file"
    fi
    if [ -f "$assets/hungarian_husst/sst_train.json" ]; then
      convert json "$assets/hungarian_husst/sst_train.json" "$out/train/husst.spacy" --lang hu --field Sent "${guards[@]}" | grep -v "^skipped file"
    fi
    ;;
  demo)
    # the small corpus that ships with the project
    convert text demo/train.txt "$out/train/demo.spacy" --lang en --blocks
    convert text demo/dev.txt "$out/dev.spacy" --lang en --blocks
    convert text demo/test.txt "$out/eval/test.spacy" --lang en --blocks
    ;;
  *)
    echo "Unknown corpus '$lang' (en, bn, hu, demo)" >&2
    exit 1
    ;;
esac
