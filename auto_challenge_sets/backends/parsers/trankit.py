"""trankit (XLM-R + adapters), the default parser: the real ``trankit.Pipeline`` on CPU or CUDA.

A batch of lines is one document, a paragraph per line, so each of trankit's steps runs over the
batch in its own mini-batches; sentences are mapped back to lines by character offset and a line
cut into several is merged into one tree. Pre-tokenized lines are split on white space and tagged
as given. Multiword tokens become CoNLL-U range lines (an expansion into fewer than two words stays
a plain token). NER is not run.

Long lines. XLM-R takes 512 subwords and trankit cuts longer sentences into pieces whose heads
point into the wrong piece, so a sentence over :data:`MAX_PIECES` subwords is parsed here in
chunks of whole tokens joined like split sentences (``# acs_chunks = N``). A word over
:data:`MAX_WORD_PIECES` subwords is tagged from its first characters and keeps its full form. A
line trankit yields no token for gets a flat tree (``# acs_fallback = flat``). Nothing stops a run.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import os
import sys
from pathlib import Path

from auto_challenge_sets.backends import PARSER, Option, register_backend
from auto_challenge_sets.backends.file_provenance import file_checksum
from auto_challenge_sets.backends.parsers import (
    CHUNKED_KEY,
    FALLBACK_KEY,
    MERGED_KEY,
    PRETOKENIZED,
    Parser,
    ParserError,
    flat_sentence,
    merge_sentences,
)
from auto_challenge_sets.backends.parsers.trankit_conllu import to_sentence
from auto_challenge_sets.backends.parsers.trankit_models import (
    EMBEDDINGS,
    default_trankit_cache,
    ensure_trankit_models,
    hub_offline,
    import_trankit,
    trankit_language,
    xlmr_weights,
)
from auto_challenge_sets.formats.ud import Sentence

MAX_PIECES = 500  # subwords per parsed unit: 512 minus <s>, </s> and a margin
MAX_WORD_PIECES = 64  # subwords of one word as the tagger sees it
TOKENIZE_GROUP = 256  # lines per tokenizer call (memory, not results: each line is its own paragraph)


@register_backend(PARSER, "trankit")
class TrankitParser(Parser):
    requires = ("torch", "transformers", "adapters", "trankit")
    # trankit 1.1.2 pins torch<=2.0.1, so it goes in alone; the extra brings what it really needs
    install = 'pip install "auto-challenge-sets[build]" && pip install --no-deps trankit==1.1.2'
    options = (
        Option("trankit_cache", Path, None, "trankit's model folder (its own layout; fetched from the Hub repo "
               "uonlp/trankit when missing and the network is there). Default: $ACS_TRANKIT_CACHE, else "
               "CACHE-DIR/trankit", metavar="DIR"),
        Option("embedding", str, "xlm-roberta-base", "trankit's encoder (large: better, ~3x slower)",
               choices=EMBEDDINGS, flag="--trankit-embedding"),
        Option("device", str, "cpu", "where trankit runs", choices=("cpu", "cuda")),
        Option("batch_size", int, 32, "sentences per trankit tagger batch (tokenizer: N/2 windows)",
               metavar="N", minimum=1),
        PRETOKENIZED,
    )

    def __init__(self, lang: str = "en", cache_dir: str | os.PathLike[str] | None = None,
                 trankit_cache: str | os.PathLike[str] | None = None, embedding: str = "xlm-roberta-base",
                 device: str = "cpu", batch_size: int = 32, pretokenized: bool = False):
        self.language = trankit_language(lang)
        if trankit_cache is not None:
            self.cache_dir = Path(trankit_cache)
        else:  # a stage cache folder given to the build holds trankit's models too
            self.cache_dir = Path(cache_dir) / "trankit" if cache_dir is not None else default_trankit_cache()
        self.embedding = embedding
        self.device = device
        self.batch_size = batch_size
        self.pretokenized = pretokenized
        self._pipeline = None
        self._signature: dict | None = None

    @classmethod
    def label(cls, options: dict) -> str:
        return f"trankit ({options.get('embedding') or 'xlm-roberta-base'})"

    def check_ready(self) -> None:
        ensure_trankit_models(self.cache_dir, self.language, self.embedding)
        if self.device == "cuda":
            import torch

            if not torch.cuda.is_available():
                raise ParserError("device cuda but torch sees no CUDA GPU (use device cpu)", field="device")

    def signature(self) -> dict:
        if self._signature is None:
            self.check_ready()
            lang_dir = self.cache_dir / self.embedding / self.language
            digest = hashlib.sha256()
            for path in sorted(lang_dir.iterdir()):
                if path.is_file() and not path.name.endswith(".downloaded"):
                    digest.update(path.name.encode() + b"\0" + file_checksum(path).encode())
            weights = xlmr_weights(self.cache_dir, self.embedding)  # its folder is named by the Hub commit
            self._signature = {
                "language": self.language, "embedding": self.embedding, "models": digest.hexdigest(),
                "xlmr": f"{weights.parent.name}:{weights.stat().st_size}", "device": self.device,
                "batch_size": self.batch_size, "pretokenized": self.pretokenized,
            }
        return self._signature

    def provenance(self) -> dict:
        """The model is trankit's folder of the language, its sha256 over each file's name and sha256;
        XLM-R is named by its Hub snapshot and weights size."""
        signature = self.signature()
        return {**super().provenance(), "model": f"{self.embedding}/{self.language}", "sha256": signature["models"],
                "options": {"xlmr": signature["xlmr"], "pretokenized": self.pretokenized}}

    def _load(self):
        if self._pipeline is None:
            self.check_ready()
            trankit = import_trankit()
            # trankit prints progress to stdout; keep stdout for data (``acs parse --output -``).
            with contextlib.redirect_stdout(sys.stderr), hub_offline():
                pipeline = trankit.Pipeline(self.language, cache_dir=str(self.cache_dir),
                                            gpu=self.device == "cuda", embedding=self.embedding)
            # trankit divides these for xlm-roberta-large (by 2 and 3): keep them >= 1 after it.
            pipeline._tagbatchsize = max(self.batch_size, 3)
            pipeline._tokbatchsize = max(self.batch_size // 2, 2)
            self._pipeline = pipeline
        return self._pipeline

    def close(self) -> None:
        self._pipeline = None

    def parse(self, lines: list[str]) -> list[Sentence]:
        if not lines:
            return []
        self._load()
        from trankit.utils.conll import ID, TEXT

        if self.pretokenized:
            per_line = [[[{ID: k + 1, TEXT: w} for k, w in enumerate(line.split())]] for line in lines]
        else:
            per_line = self._tokenize([line.strip() for line in lines])
        # (line, which of its tokenizer sentences, tokens of the sentence or of one chunk of it)
        units = [(line, index, chunk) for line, sentences in enumerate(per_line)
                 for index, tokens in enumerate(sentences) if tokens for chunk in self._chunks(tokens)]
        by_line: dict[int, list[tuple[int, Sentence]]] = {}
        for (line, index, _), sentence in zip(units, self._tag([tokens for _, _, tokens in units])):
            by_line.setdefault(line, []).append((index, sentence))
        out = []
        for index, line in enumerate(lines):
            parts = by_line.get(index)
            if not parts:
                sentence = flat_sentence(line.split() or [line.strip() or "_"])
                sentence.set_metadata(FALLBACK_KEY, "flat")
                out.append(sentence)
                continue
            sentence = merge_sentences([part for _, part in parts], key=None)
            sentences = len({index for index, _ in parts})
            if sentences > 1:
                sentence.set_metadata(MERGED_KEY, str(sentences))
            if len(parts) > sentences:
                sentence.set_metadata(CHUNKED_KEY, str(len(parts) - sentences + 1))
            out.append(sentence)
        return out

    def _tokenize(self, texts: list[str]) -> list[list[list[dict]]]:
        """trankit's tokenizer (and MWT expander) → for each text, its sentences' tokens.

        trankit pads every paragraph to a window of 400 subwords, so texts are tokenized in groups
        of similar length with the window cut to the group's longest text; the groups depend only
        on the texts, so a shard always gives the same result.
        """
        from trankit.utils import tbinfo
        from trankit.utils.conll import DSPAN, TOKENS

        pipeline = self._pipeline
        treebank = tbinfo.lang2treebank[pipeline.active_lang]
        windows = tbinfo.tbname2max_input_length
        full = windows.get(treebank, 400)
        pieces = [self._pieces(text) for text in texts]
        order = sorted(range(len(texts)), key=lambda i: (pieces[i], i))
        result: list[list[list[dict]]] = [[] for _ in texts]
        for start in range(0, len(order), TOKENIZE_GROUP):
            group = order[start:start + TOKENIZE_GROUP]
            window = min(full, -(-(max(pieces[i] for i in group) + 12) // 8) * 8)
            starts = list(itertools.accumulate((len(texts[i]) + 2 for i in group[:-1]), initial=0))
            windows[treebank] = window  # read by trankit's _tokenize_doc for this call only
            try:
                with contextlib.redirect_stdout(sys.stderr):
                    doc = pipeline._tokenize_doc("\n\n".join(texts[i] for i in group))
            finally:  # trankit reads it as .get(treebank, 400): an absent entry and 400 are the same
                windows[treebank] = full
            for sentence in doc:
                if sentence[TOKENS]:
                    line = group[bisect.bisect_right(starts, sentence[TOKENS][0][DSPAN][0]) - 1]
                    result[line].append(_normalize_mwts(sentence[TOKENS]))
        return result

    def _pieces(self, text: str) -> int:
        splitter = self._load()._config.wordpiece_splitter  # loaded already when parsing; not when asked first
        return max(1, len([p for p in splitter.tokenize(text) if p != "▁"]))

    def _chunks(self, tokens: list[dict]) -> list[list[dict]]:
        """Split a tokenized sentence into units of at most MAX_PIECES subwords (whole tokens)."""
        from trankit.utils.conll import EXPANDED, ID, TEXT

        sized = []
        for token in tokens:
            words = token[EXPANDED] if isinstance(token[ID], tuple) else [token]
            for word in words:
                if self._pieces(word[TEXT]) > MAX_WORD_PIECES:
                    word["acs_form"] = word[TEXT]
                    word[TEXT] = _shorten(word[TEXT], self._pieces)
            sized.append((token, sum(self._pieces(word[TEXT]) for word in words)))
        if sum(size for _, size in sized) <= MAX_PIECES:
            return [tokens]
        chunks: list[list[dict]] = [[]]
        used = 0
        for token, size in sized:
            if chunks[-1] and used + size > MAX_PIECES:
                chunks.append([])
                used = 0
            chunks[-1].append(token)
            used += size
        return [_renumber(chunk) for chunk in chunks]

    def _tag(self, units: list[list[dict]]) -> list[Sentence]:
        if not units:
            return []
        from trankit.utils.conll import ID, TOKENS

        pipeline = self._pipeline
        # Similar lengths share a batch (trankit pads a batch to its longest sentence).
        order = sorted(range(len(units)), key=lambda i: (len(units[i]), i))
        doc = [{ID: number + 1, TOKENS: units[i]} for number, i in enumerate(order)]
        with contextlib.redirect_stdout(sys.stderr):
            tagged = pipeline._lemmatize_doc(pipeline._posdep_doc(doc))
        out: list[Sentence] = [Sentence()] * len(units)
        for position, i in enumerate(order):
            out[i] = to_sentence(tagged[position][TOKENS])
        return out


def _shorten(text: str, pieces) -> str:
    """The longest prefix of ``text`` within MAX_WORD_PIECES subwords."""
    low, high = 1, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if pieces(text[:middle]) <= MAX_WORD_PIECES:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def _normalize_mwts(tokens: list[dict]) -> list[dict]:
    """trankit's tokens with consistent IDs; a multiword token of < 2 non-empty words → plain token."""
    from trankit.utils.conll import EXPANDED, ID, TEXT

    out = []
    for token in tokens:
        if isinstance(token[ID], tuple):
            words = [w for w in token.get(EXPANDED, []) if str(w.get(TEXT, "")).strip()]
            if len(words) >= 2:
                out.append({**token, EXPANDED: [dict(w) for w in words]})
                continue
            token = {k: v for k, v in token.items() if k != EXPANDED}
        if not str(token.get(TEXT, "")).strip():
            continue
        out.append(dict(token))
    return _renumber(out)


def _renumber(tokens: list[dict]) -> list[dict]:
    from trankit.utils.conll import EXPANDED, ID

    number = 1
    out = []
    for token in tokens:
        token = dict(token)
        if EXPANDED in token and isinstance(token[ID], tuple):
            words = [{**w, ID: number + k} for k, w in enumerate(token[EXPANDED])]
            token[ID] = (number, number + len(words) - 1)
            token[EXPANDED] = words
            number += len(words)
        else:
            token[ID] = number
            number += 1
        out.append(token)
    return out
