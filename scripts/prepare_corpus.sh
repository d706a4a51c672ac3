#!/usr/bin/env bash
# Convert one language's corpus to corpus/LANG/{train,dev}.spacy and corpus/LANG/eval/*.spacy.
# Usage: scripts/prepare_corpus.sh LANG ASSETS_DIR
set -euo pipefail
lang=$1
assets=$2
out=corpus/$lang
mkdir -p "$out/eval"
convert() { spacy-punct convert "$@"; echo; }

case $lang in
  en)
    # IWSLT TED: train2012 when present, else dev2012 with the last tenth held out
    src=$assets/iwslt2011
    if [ -f "$src/train2012" ]; then
      convert tokens "$src/train2012" "$out/train.spacy" --lang en
      convert tokens "$src/dev2012" "$out/dev.spacy" --lang en
    else
      convert tokens "$src/dev2012" "$out/all.spacy" --lang en
      spacy-punct split "$out/all.spacy" "$out/train.spacy" "$out/dev.spacy" --dev-fraction 0.1
      rm "$out/all.spacy"
    fi
    convert tokens "$src/test2011" "$out/eval/test2011.spacy" --lang en
    ;;
  bn)
    # Bangla news: train when present, else dev with the last tenth held out
    src=$assets/bangla
    if [ -f "$src/train" ]; then
      convert tokens "$src/train" "$out/train.spacy" --lang bn
      convert tokens "$src/dev" "$out/dev.spacy" --lang bn
    else
      convert tokens "$src/dev" "$out/all.spacy" --lang bn
      spacy-punct split "$out/all.spacy" "$out/train.spacy" "$out/dev.spacy" --dev-fraction 0.1 --lang bn
      rm "$out/all.spacy"
    fi
    convert tokens "$src/test_news" "$out/eval/test_news.spacy" --lang bn
    ;;
  hu)
    # UD Szeged: train with its last tenth held out for checkpoint selection;
    # the official dev and test sets are both kept for evaluation
    src=$assets/hungarian_szeged_ud
    convert conllu "$src/hu_szeged-ud-train.conllu" "$out/all.spacy" --lang hu --doc-length 500
    spacy-punct split "$out/all.spacy" "$out/train.spacy" "$out/dev.spacy" --dev-fraction 0.1 --lang hu
    rm "$out/all.spacy"
    convert conllu "$src/hu_szeged-ud-dev.conllu" "$out/eval/dev.spacy" --lang hu
    if [ -f "$src/hu_szeged-ud-test.conllu" ]; then
      convert conllu "$src/hu_szeged-ud-test.conllu" "$out/eval/test.spacy" --lang hu
    fi
    ;;
  gum)
    # UD English GUM (cased, spoken and written genres): extra English data
    src=$assets/english_gum
    convert conllu "$src/train" "corpus/gum/train.spacy" --lang en
    convert conllu "$src/dev" "corpus/gum/eval/dev.spacy" --lang en
    ;;
  demo)
    # the small corpus that ships with the project
    convert text demo/train.txt "$out/train.spacy" --lang en --blocks
    convert text demo/dev.txt "$out/dev.spacy" --lang en --blocks
    convert text demo/test.txt "$out/eval/test.spacy" --lang en --blocks
    ;;
  *)
    echo "Unknown corpus '$lang' (en, bn, hu, gum, demo)" >&2
    exit 1
    ;;
esac
