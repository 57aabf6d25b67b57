"""Tiny parser models built inside the tests, so the real parsers run offline in seconds.

- :func:`build_tiny_trankit`: random weights in trankit's cache layout — a 1-layer XLM-R with
  hidden size 768 (trankit hard-codes 768 for xlm-roberta-base) over a small sentencepiece
  vocabulary trained on the given lines, and every component checkpoint trankit loads
  (tokenizer, tagger, NER adapters + heads, lemmatizer, MWT expander), made by instantiating
  trankit's own classes and saving them the way trankit's trainer does. The labels it produces are
  noise; the structure (tokens, multiword tokens, one tree per sentence) is real trankit output.
- :func:`train_tiny_udpipe`: a UDPipe 1 model trained on a few CoNLL-U sentences.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

UPOS = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
        "PUNCT", "SCONJ", "SYM", "VERB", "X"]
DEPRELS = ["acl", "advcl", "advmod", "amod", "appos", "aux", "case", "cc", "ccomp", "compound",
           "compound:prt", "conj", "cop", "csubj", "dep", "det", "expl:pv", "fixed", "flat", "iobj", "mark",
           "nmod", "nsubj", "nummod", "obj", "obl", "parataxis", "punct", "root", "xcomp"]
FEATS = ["Case=Nom|Number=Sing", "Case=Acc|Number=Plur", "Reflex=Yes|PronType=Prs", "VerbForm=Fin",
         "Mood=Ind|Tense=Pres"]
NER_TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "E-LOC", "S-LOC"]
# German contractions the random MWT expander knows (it only expands tokens in its dictionary).
GERMAN_MWTS = {"zum": "zu dem", "zur": "zu der", "im": "in dem", "am": "an dem", "vom": "von dem",
               "beim": "bei dem", "ins": "in das", "ans": "an das"}
SNAPSHOT = "0123456789abcdef0123456789abcdef01234567"  # any 40-hex name stands for a Hub commit


def _sentencepiece_model(lines: Sequence[str], vocab_size: int) -> bytes:
    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, vocab_size=vocab_size, model_type="unigram",
        character_coverage=1.0, hard_vocab_limit=False, minloglevel=2, num_threads=1)
    return model.getvalue()


def _write_xlmr(cache: Path, lines: Sequence[str], vocab_size: int, seed: int) -> None:
    """A random 1-layer XLM-R in the Hub cache layout transformers reads offline."""
    import torch
    from transformers import XLMRobertaConfig, XLMRobertaModel

    repo = cache / "xlm-roberta-base" / "models--xlm-roberta-base"
    snapshot = repo / "snapshots" / SNAPSHOT
    snapshot.mkdir(parents=True, exist_ok=True)
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / "main").write_text(SNAPSHOT)
    sp_model = _sentencepiece_model(lines, vocab_size)
    (snapshot / "sentencepiece.bpe.model").write_bytes(sp_model)
    import sentencepiece as spm

    pieces = spm.SentencePieceProcessor(model_proto=sp_model).get_piece_size()
    torch.manual_seed(seed)
    config = XLMRobertaConfig(
        vocab_size=pieces + 2,  # fairseq offset 1 + <mask>
        hidden_size=768, num_hidden_layers=1, num_attention_heads=12, intermediate_size=256,
        max_position_embeddings=514, type_vocab_size=1, layer_norm_eps=1e-5,
        bos_token_id=0, pad_token_id=1, eos_token_id=2)
    XLMRobertaModel(config).save_pretrained(snapshot)


def _trankit_config(cache: Path):
    from auto_challenge_sets.backends.parsers.trankit_models import import_trankit

    import_trankit()
    from trankit.config import Config

    config = Config()
    config.embedding_name = "xlm-roberta-base"
    config._cache_dir = str(cache)
    config.training = True  # build the classes without loading checkpoints
    config.device = "cpu"
    return config


def _adapter_checkpoint(config, task: str, head) -> dict:
    """Adapter weights of a fresh task adapter + the task head, saved as trankit's trainer does."""
    from trankit.models.base_models import Base_Model

    base = Base_Model(config, task_name=task)
    trainable = {name for name, parameter in base.named_parameters() if parameter.requires_grad}
    weights = {name: value for name, value in base.state_dict().items() if name in trainable}
    weights.update(head.state_dict())
    return {"adapters": weights, "epoch": 0}


def _seq2seq_checkpoint(args: dict, vocab_state, extra: dict, eos_bias: bool):
    import torch
    from trankit.layers.seq2seq import Seq2SeqModel

    model = Seq2SeqModel(args)
    if eos_bias:
        # Decoding stops at once (fast): the MWT expander falls back on its dictionary (see
        # GERMAN_MWTS) and the lemmatizer on its "identity" edit below.
        with torch.no_grad():
            model.dec2vocab.weight.zero_()
            model.dec2vocab.bias.fill_(-10.0)
            model.dec2vocab.bias[3] = 10.0  # EOS_ID
    if args.get("edit"):
        with torch.no_grad():  # "identity" edit: the lemma is the word, not random characters
            last = model.edit_clf[-1]
            last.weight.zero_()
            last.bias.copy_(torch.tensor([0.0, 10.0, 0.0]))
    return {"model": model.state_dict(), "vocab": vocab_state, "config": args, **extra}


def _write_language(cache: Path, config, language: str, lines: Sequence[str], seed: int) -> None:
    import torch
    from trankit.iterators.mwt_iterators import MWTVocab
    from trankit.models.classifiers import NERClassifier, PosDepClassifier, TokenizerClassifier
    from trankit.models.lemma_model import get_args as lemma_args
    from trankit.models.mwt_model import get_args as mwt_args
    from trankit.utils.mwt_lemma_utils.seq2seq_vocabs import MultiVocab, Vocab
    from trankit.utils.tbinfo import lang2treebank, langwithner, tbname2training_id

    treebank = lang2treebank[language]
    directory = cache / "xlm-roberta-base" / language
    directory.mkdir(parents=True, exist_ok=True)
    vocabs = {
        "upos": {tag: i for i, tag in enumerate(["_", *UPOS])},
        "xpos": {tag: i for i, tag in enumerate(["_", *UPOS])},
        "feats": {tag: i for i, tag in enumerate(["_", *FEATS])},
        "deprel": {tag: i for i, tag in enumerate(["_", *DEPRELS])},
        "lemma": {"0": 0, "1": 1, "2": 2},
    }
    (directory / f"{language}.vocabs.json").write_text(json.dumps(vocabs))
    config.vocabs = {treebank: vocabs}
    config.ner_vocabs = {language: {tag: i for i, tag in enumerate(NER_TAGS)}}
    torch.manual_seed(seed)

    tokenizer = TokenizerClassifier(config, treebank)
    with torch.no_grad():
        # Mostly "token end", some "multiword token end", few "sentence end": varied structure.
        tokenizer.tokenizer_ffn.bias.copy_(torch.tensor([0.2, 1.6, -1.2, 0.4, -2.5]))
    torch.save(_adapter_checkpoint(config, "tokenizer", tokenizer), directory / f"{language}.tokenizer.mdl")

    tagger = PosDepClassifier(config, treebank)
    with torch.no_grad():  # trankit zero-initializes the biaffine scorers: random trees need noise
        tagger.unlabeled.pairwise_weight.normal_(0.0, 0.05)
        tagger.deprel.pairwise_weight.normal_(0.0, 0.05)
    torch.save(_adapter_checkpoint(config, "tagger", tagger), directory / f"{language}.tagger.mdl")

    if language in langwithner:
        ner = NERClassifier(config, language)
        torch.save(_adapter_checkpoint(config, "ner", ner), directory / f"{language}.ner.mdl")
        (directory / f"{language}.ner-vocab.json").write_text(json.dumps(config.ner_vocabs[language]))

    words = [word for line in lines for word in line.split()][:2000]
    chars = Vocab("".join(words) + "".join(w.lower() for w in words), language)
    pos = Vocab(["_", *UPOS], language)
    args = {**lemma_args(), "vocab_size": len(chars), "pos_vocab_size": len(pos), "lang": language,
            "hidden_dim": 32, "emb_dim": 16, "pos_dim": 16, "max_dec_len": 4}
    torch.save(_seq2seq_checkpoint(args, MultiVocab({"char": chars, "pos": pos}).state_dict(),
                                   {"dicts": ({}, {})}, eos_bias=True),
               directory / f"{language}_lemmatizer.pt")

    if tbname2training_id[treebank] % 2 == 1:
        pairs = list(GERMAN_MWTS.items()) + [(w, w) for w in words[:200]]
        mwt_vocab = MWTVocab(pairs, language)
        args = {**mwt_args(), "vocab_size": len(mwt_vocab), "lang": language, "shorthand": language,
                "hidden_dim": 32, "emb_dim": 16, "max_dec_len": 4}
        torch.save(_seq2seq_checkpoint(args, mwt_vocab.state_dict(), {"dict": dict(GERMAN_MWTS)}, eos_bias=True),
                   directory / f"{language}_mwt_expander.pt")
    (directory / f"{language}.downloaded").write_text("")


def _piece_label(text: str, end: int, language: str) -> int:
    """What a real tokenizer would say about the subword ending at character ``end`` of a line.

    0: inside a token, 1: token end, 2: sentence end, 3: end of a multiword token.
    """
    if end + 1 >= len(text):
        return 2
    here, after = text[end], text[end + 1]
    if after.isspace():
        start = text.rfind(" ", 0, end) + 1
        word = text[start:end + 1]
        if language == "german" and word.lower() in GERMAN_MWTS:
            return 3
        if here in ".!?" and end + 2 < len(text) and text[end + 2].isupper():
            return 2
        return 1
    if here.isalnum() != after.isalnum():
        return 1  # punctuation next to a word
    return 0


def _fit_tokenizer_head(cache: Path, language: str, lines: Sequence[str], seed: int) -> None:
    """Fit the tokenizer head on the random encoder's features (seconds), so that tokens look
    like words, contractions come out as multiword tokens and ". X" splits a line — the parts of
    trankit the backend has to handle. Everything else stays random."""
    import torch
    from torch.utils.data import DataLoader

    from auto_challenge_sets.backends.parsers.trankit_models import import_trankit

    trankit = import_trankit()
    import contextlib
    import sys

    from trankit.iterators.tokenizer_iterators import TokenizeDatasetLive

    with contextlib.redirect_stdout(sys.stderr):
        pipeline = trankit.Pipeline(language, cache_dir=str(cache), gpu=False)
    config = pipeline._config
    paragraphs = [" ".join(line.split()) for line in lines if line.strip()][:300]
    dataset = TokenizeDatasetLive(config, "\n\n".join(paragraphs), max_input_length=200)
    dataset.numberize(config.wordpiece_splitter)
    pipeline._load_adapter_weights("tokenizer")
    features, labels = [], []
    with torch.no_grad():
        for batch in DataLoader(dataset, batch_size=16, collate_fn=dataset.collate_fn):
            reprs = pipeline._embedding_layers.get_tokenizer_inputs(batch)
            for row, (ends, index) in enumerate(zip(batch.wordpiece_ends, batch.paragraph_index)):
                features.append(reprs[row, : len(ends)])
                labels += [_piece_label(paragraphs[index], end, language) for end in ends]
    x, y = torch.cat(features), torch.tensor(labels)
    torch.manual_seed(seed)
    head = torch.nn.Linear(x.shape[1], 5)
    optimizer = torch.optim.Adam(head.parameters(), lr=0.01)
    weights = 1.0 / torch.bincount(y, minlength=5).clamp(min=1).float()  # rare labels count too
    for _ in range(300):
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(head(x), y, weight=weights).backward()
        optimizer.step()
    path = cache / "xlm-roberta-base" / language / f"{language}.tokenizer.mdl"
    checkpoint = torch.load(path)
    checkpoint["adapters"]["tokenizer_ffn.weight"] = head.weight.detach().clone()
    checkpoint["adapters"]["tokenizer_ffn.bias"] = head.bias.detach().clone()
    torch.save(checkpoint, path)


def build_tiny_trankit(cache: str | Path, lines: Sequence[str], languages: Sequence[str] = ("german", "english"),
                       vocab_size: int = 8000, seed: int = 13, fit_tokenizer: bool = True) -> Path:
    """Write a random trankit model for ``languages`` into ``cache`` (trankit's layout); return it."""
    cache = Path(cache)
    _write_xlmr(cache, lines, vocab_size, seed)
    config = _trankit_config(cache)
    for number, language in enumerate(languages):
        _write_language(cache, config, language, lines, seed + number)
        if fit_tokenizer:
            _fit_tokenizer_head(cache, language, lines, seed + number)
    return cache


# -- UDPipe ---------------------------------------------------------------------------------------

def train_tiny_udpipe(conllu_text: str, path: str | Path) -> Path:
    """Train a small UDPipe 1 model (tokenizer, tagger, parser) on CoNLL-U text; write it to ``path``."""
    from ufal.udpipe import InputFormat, ProcessingError, Sentence, Trainer

    reader = InputFormat.newConlluInputFormat()
    reader.setText(conllu_text)
    error = ProcessingError()
    sentences = []
    sentence = Sentence()
    while reader.nextSentence(sentence, error):
        sentences.append(sentence)
        sentence = Sentence()
    if error.occurred():
        raise RuntimeError(error.message)
    # Few iterations and small dimensions: seconds, not minutes; accuracy is beside the point.
    tokenizer = "epochs=5;dimension=16;segment_size=20;early_stopping=0"
    tagger = "iterations=2;guesser_suffix_rules=2;guesser_enrich_dictionary=1"
    parser = "iterations=2;embedding_upostag=4;embedding_feats=4;embedding_xpostag=0;embedding_form=8;" \
             "embedding_lemma=0;embedding_deprel=4;hidden_layer=16;structured_interval=0"
    model = Trainer.train("morphodita_parsito", _sentences(sentences), _sentences([]), tokenizer, tagger, parser,
                          error)
    if error.occurred():
        raise RuntimeError(error.message)
    Path(path).write_bytes(model.encode("latin-1") if isinstance(model, str) else model)
    return Path(path)


def _sentences(items):
    from ufal.udpipe import Sentences

    out = Sentences()
    for item in items:
        out.append(item)
    return out


# -- built once, reused by every test module (and run) --------------------------------------------

CACHE_ROOT = Path(tempfile.gettempdir()) / "acs-tiny-models"
DEMO = Path(__file__).resolve().parent.parent / "auto_challenge_sets" / "demo_data"


def _cached(name: str, fingerprint: str, build) -> Path:
    """``build(path)`` once per fingerprint (which includes this file's source); atomic, race-safe."""
    digest = hashlib.sha256((fingerprint + Path(__file__).read_text(encoding="utf-8")).encode()).hexdigest()[:16]
    target = CACHE_ROOT / f"{name}-{digest}"
    if target.exists():
        return target
    CACHE_ROOT.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=CACHE_ROOT))
    try:
        build(scratch / "model")
        os.replace(scratch / "model", target)
    except OSError:
        if not target.exists():
            raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def tiny_udpipe_model() -> Path:
    """A UDPipe model trained on the German demo CoNLL-U (no shared data needed)."""
    text = (DEMO / "sample.de.conllu").read_text(encoding="utf-8")

    def build(path: Path) -> None:
        path.mkdir()
        train_tiny_udpipe(text, path / "tiny-de.udpipe")

    return _cached("udpipe", text, build) / "tiny-de.udpipe"


def tiny_trankit_cache(lines: Sequence[str]) -> Path:
    """The random trankit model (german, english) over a vocabulary trained on ``lines``."""

    def build(path: Path) -> None:
        # transformers must not look for the Hub while the model classes load the random XLM-R
        old = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
        os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
        try:
            build_tiny_trankit(path, lines)
        finally:
            for key, value in old.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    return _cached("trankit", "\n".join(lines), build)
