"""The batched simalign backend gives stock simalign's links, pair by pair, on real sentences.

A tiny random BERT (tests/tiny_bert.py) stands in for mBERT: the claim under test is that the
batching changes nothing, which holds for any weights. 300 newstest2013 pairs, both token types,
all three methods. The max-weight matching ("match") runs networkx in pure Python (a third of a
second per pair with subwords), so by default it is compared on the first pairs only; set
ACS_FULL_ALIGN_TESTS=1 to compare it on all 300.

The second half needs no shared data: the wrapper itself (options, model checks and messages,
batching, vectors, the links per method) on a dozen hand-made sentence pairs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.backends.aligners import AlignerError, get_aligner
from auto_challenge_sets.backends.aligners import simalign as backend
from auto_challenge_sets.backends.aligners.simalign import SimalignAligner
from auto_challenge_sets.errors import AcsError

from conftest import shared_path
from tiny_bert import make_tiny_bert

pytest.importorskip("simalign")
N_PAIRS = 300
FULL = os.environ.get("ACS_FULL_ALIGN_TESTS") == "1"
N_MATCH = {"bpe": N_PAIRS if FULL else 20, "word": N_PAIRS if FULL else 40}


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """On a shared 2-core machine torch's spinning worker threads make these tests 10-30x slower;
    stock and batched run under the same setting, so the comparison is unaffected."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def news_pairs() -> list[tuple[list[str], list[str]]]:
    folder = shared_path("data", "newstest2013")
    de = (folder / "newstest2013.de").read_text(encoding="utf-8").splitlines()[:N_PAIRS]
    en = (folder / "newstest2013.en").read_text(encoding="utf-8").splitlines()[:N_PAIRS]
    return [(d.split(), e.split()) for d, e in zip(de, en)]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory, news_pairs) -> str:
    sentences = [" ".join(side) for pair in news_pairs for side in pair]
    return str(make_tiny_bert(tmp_path_factory.mktemp("tiny-bert"), sentences))


def _stock(model: str, token_type: str, methods: str, layer: int):
    from simalign import SentenceAligner

    logging.getLogger("simalign.simalign").setLevel(logging.WARNING)
    return SentenceAligner(model=model, token_type=token_type, matching_methods=methods, layer=layer)


def _as_links(found) -> list[tuple[int, int]]:
    return [tuple(map(int, link)) for link in found]


def _align_methods(aligner, pairs, methods) -> dict[str, list[list[tuple[int, int]]]]:
    """The links of several methods from one embedding pass: align()'s steps, once per method."""
    got = {method: [[] for _ in pairs] for method in methods}
    for k, vectors, subwords in aligner.pair_vectors(pairs):
        for method in methods:
            code = backend.METHODS[method]
            got[method][k] = backend.pair_links(vectors, subwords, code, aligner.token_type)
    return got


@pytest.mark.parametrize(("token_type", "layer"), [("bpe", 2), ("word", 1)])
def test_links_identical_to_stock_simalign(tiny_model, news_pairs, token_type, layer):
    ours = get_aligner("simalign", model=tiny_model, layer=layer, token_type=token_type, batch_size=32)
    got = _align_methods(ours, news_pairs, ["argmax", "itermax"])
    stock = _stock(tiny_model, token_type, "ai", layer)
    expected = [stock.get_word_aligns(src, tgt) for src, tgt in news_pairs]
    for name, key in (("argmax", "inter"), ("itermax", "itermax")):
        differ = [k for k in range(N_PAIRS) if got[name][k] != _as_links(expected[k][key])]
        assert not differ, f"{token_type}/{name}: pairs {differ[:10]} differ from stock simalign"
        assert sum(map(len, got[name])) > 5 * N_PAIRS  # not vacuous: real links on every pair

    # "match" from the methods string stock simalign is usually run with, "mai"
    subset = news_pairs[:N_MATCH[token_type]]
    stock_all = _stock(tiny_model, token_type, "mai", layer)
    expected = [stock_all.get_word_aligns(src, tgt) for src, tgt in subset]
    got = _align_methods(ours, subset, ["match", "argmax", "itermax"])
    for name, key in (("match", "mwmf"), ("argmax", "inter"), ("itermax", "itermax")):
        differ = [k for k in range(len(subset)) if got[name][k] != _as_links(expected[k][key])]
        assert not differ, f"{token_type}/{name}: pairs {differ[:10]} differ from stock simalign"


def test_links_identical_to_stock_simalign_english_to_german(tiny_model, news_pairs):
    """The other direction (en→de) of the same 300 pairs."""
    reversed_pairs = [(tgt, src) for src, tgt in news_pairs]
    ours = get_aligner("simalign", model=tiny_model, layer=2, token_type="bpe", batch_size=16)
    got = _align_methods(ours, reversed_pairs, ["argmax", "itermax"])
    stock = _stock(tiny_model, "bpe", "ai", 2)
    expected = [stock.get_word_aligns(src, tgt) for src, tgt in reversed_pairs]
    for name, key in (("argmax", "inter"), ("itermax", "itermax")):
        differ = [k for k in range(N_PAIRS) if got[name][k] != _as_links(expected[k][key])]
        assert not differ, f"en-de/{name}: pairs {differ[:10]} differ from stock simalign"


def test_embeddings_bitwise_equal_to_stock(tiny_model, news_pairs):
    """Stronger than equal links: every subword vector is the very float stock simalign computes."""
    import torch

    ours = get_aligner("simalign", model=tiny_model, layer=2, batch_size=48)
    stock = _stock(tiny_model, "bpe", "a", 2)
    seen = 0
    for k, vectors, subwords in ours.pair_vectors(news_pairs):
        src, tgt = news_pairs[k]
        reference = stock.embed_loader.get_embed_list([src, tgt]).cpu().detach().numpy()
        for side in (0, 1):
            n_subwords = sum(map(len, subwords[side]))
            assert np.array_equal(vectors[side], reference[side, :n_subwords]), f"pair {k} side {side}"
        seen += 1
    assert seen == N_PAIRS
    # ...whereas padding to another length does move the last bits (why pairs are bucketed by
    # their stock padded length): the test above would notice a naive batching
    src, tgt = news_pairs[0]
    tokenizer, model = stock.embed_loader.tokenizer, stock.embed_loader.emb_model
    with torch.no_grad():
        padded = tokenizer([src, tgt], is_split_into_words=True, padding="max_length", max_length=200,
                           truncation=True, return_tensors="pt")
        naive = model(**padded)["hidden_states"][2][:, 1:-1].numpy()
    reference = stock.embed_loader.get_embed_list([src, tgt]).cpu().numpy()
    n = reference.shape[1]
    assert np.allclose(naive[:, :n], reference, atol=1e-5)
    assert not np.array_equal(naive[:, :n], reference)


def test_slow_tokenizer_as_for_named_mbert(tiny_model, news_pairs):
    """simalign loads 'bert-base-multilingual-cased' with the slow (Python) BertTokenizer, local
    folders with the fast one: the batched path must agree with stock under both."""
    from transformers import BertTokenizer

    slow = BertTokenizer(str(Path(tiny_model) / "vocab.txt"), do_lower_case=False, strip_accents=False,
                         model_max_length=512)
    pairs = news_pairs[:100]
    ours = get_aligner("simalign", model=tiny_model, layer=2, token_type="bpe", batch_size=16)
    ours.load().tokenizer = slow
    stock = _stock(tiny_model, "bpe", "ai", 2)
    stock.embed_loader.tokenizer = slow
    got = _align_methods(ours, pairs, ["argmax", "itermax"])
    for name, key in (("argmax", "inter"), ("itermax", "itermax")):
        assert got[name] == [_as_links(stock.get_word_aligns(s, t)[key]) for s, t in pairs]


def test_batch_size_does_not_change_links(tiny_model, news_pairs):
    pairs = news_pairs[:120]
    one = get_aligner("simalign", model=tiny_model, layer=2, batch_size=1).align(pairs)
    many = get_aligner("simalign", model=tiny_model, layer=2, batch_size=256).align(pairs)
    assert one == many


def test_edge_cases_degrade_instead_of_crashing(tiny_model):
    aligner = get_aligner("simalign", model=tiny_model, layer=2, token_type="word", method="itermax")
    zero_width = "\u200b"  # BERT's tokenizer drops it: a word with no subword at all
    pairs = [
        ([], ["Hello"]),
        (["Haus", zero_width, "Haus"], ["house", "house"]),
        ([zero_width], ["house"]),
    ]
    links = aligner.align(pairs)
    assert links[0] == [] and links[2] == []
    assert links[1] and all(i != 1 for i, _ in links[1])  # word 1 cannot be aligned, the others can
    bpe = get_aligner("simalign", model=tiny_model, layer=2, token_type="bpe")
    assert all(i != 1 for i, _ in bpe.align(pairs)[1])


def test_layer_beyond_the_model_is_a_clear_error_before_any_work(tiny_model):
    with pytest.raises(AlignerError, match="layer 8 .* 3 hidden states"):
        get_aligner("simalign", model=tiny_model, layer=8)  # simalign's default; the model has 2


def test_cache_key_names_model_weights_and_options_not_batch_size(tiny_model):
    a = get_aligner("simalign", model=tiny_model, layer=2, batch_size=4).cache_key()
    b = get_aligner("simalign", model=tiny_model, layer=2, batch_size=64).cache_key()
    c = get_aligner("simalign", model=tiny_model, layer=1).cache_key()
    assert a == b and a != c
    assert a["model"] == tiny_model and a["weights"] and a["method"] == "argmax"


def test_missing_model_offline_fails_before_any_work(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    name = "acs-test/no-such-model"
    with pytest.raises(AlignerError, match="acs-test/no-such-model") as caught:
        get_aligner("simalign", model=name)  # fails when made, not when it first aligns
    message = str(caught.value)
    assert name in message and "HF_HUB_OFFLINE" in message and "--model PATH" in message
    assert "save_pretrained" in message and isinstance(caught.value, AcsError)


def test_default_model_offline_names_itself(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache("bert-base-multilingual-cased", "config.json"), str):
        pytest.skip("mBERT is in this machine's Hugging Face cache")
    with pytest.raises(AlignerError, match="'bert-base-multilingual-cased' is not in the local"):
        get_aligner("simalign")


def test_bad_local_folders(tmp_path):
    with pytest.raises(AlignerError, match="is not a folder"):
        get_aligner("simalign", model=str(tmp_path / "nothing-here"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(AlignerError, match="has no config.json"):
        get_aligner("simalign", model=str(tmp_path / "empty"))


def test_cuda_without_a_gpu_is_refused(tiny_model):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(AlignerError, match="no CUDA GPU"):
        get_aligner("simalign", model=tiny_model, layer=2, device="cuda")
    with pytest.raises(AlignerError, match="unknown device 'gpu0'"):
        get_aligner("simalign", model=tiny_model, layer=2, device="gpu0")


def test_tiny_model_folder_loads_offline(tiny_model):
    assert (Path(tiny_model) / "config.json").is_file()
    assert (Path(tiny_model) / "model.safetensors").is_file()


# -- the wrapper on hand-made sentences (no shared data) -----------------------------------------
#
# A tiny random BERT with 8 layers (so simalign's default layer exists) and a 200-piece WordPiece
# vocabulary trained on the sentences below (most words split into several pieces), stock
# simalign (the same weights, loaded by simalign itself) as the reference for the links and the
# vectors, and hand-made vectors for the parts that are pure arithmetic.


HAND = [
    ("Der Hund schläft im Garten .", "The dog sleeps in the garden ."),
    ("Gestern hat sie ihrem Bruder ein Buch geschenkt .", "Yesterday she gave her brother a book ."),
    ("Wir fahren morgen mit dem Zug nach Berlin .", "Tomorrow we take the train to Berlin ."),
    ("Das Wetter ist heute ungewöhnlich warm .", "The weather is unusually warm today ."),
    ("Er ruft sie morgen an .", "He calls her up tomorrow ."),
    ("Die Regierung hat die Steuern erhöht .", "The government has raised taxes ."),
    ("Ich weiß nicht , ob er kommt .", "I do not know whether he is coming ."),
    ("Kinder spielen Fußball .", "Children play football ."),
    ("Ja", "Yes"),
    ("Die Verhandlungen über den Haushalt wurden am Freitagabend ohne Ergebnis abgebrochen .",
     "The budget negotiations were broken off on Friday evening without a result ."),
    ("Sie liest gern Bücher über Geschichte .", "She likes reading books about history ."),
    ("Der Zug hatte zwanzig Minuten Verspätung .", "The train was twenty minutes late ."),
]
HAND_PAIRS = [(de.split(), en.split()) for de, en in HAND]
HOW = ("download it once where the Hugging Face Hub is reachable (`huggingface-cli download {0}`), or pass a "
       "local folder written by `save_pretrained` (model and tokenizer): `acs align --model PATH` / `acs build "
       "--align-model PATH`; or align with eflomal (`--aligner eflomal`, CPU, no model), or build without "
       "reordering configs (`--aligner none`)")


@pytest.fixture(scope="module")
def hand_model(tmp_path_factory) -> str:
    sentences = [sentence for pair in HAND for sentence in pair]
    return str(make_tiny_bert(tmp_path_factory.mktemp("hand-bert"), sentences, vocab_size=200, layers=8))


def _stock_links(model: str, pairs, token_type: str, layer: int):
    from simalign import SentenceAligner

    logging.getLogger("simalign.simalign").setLevel(logging.WARNING)
    stock = SentenceAligner(model=model, token_type=token_type, matching_methods="mai", layer=layer)
    found = [stock.get_word_aligns(src, tgt) for src, tgt in pairs]
    return {name: [sorted(_as_links(f[key])) for f in found]
            for name, key in (("argmax", "inter"), ("itermax", "itermax"), ("match", "mwmf"))}


def _n_ids(tokenizer, words) -> int:
    return len(tokenizer(list(words), is_split_into_words=True, truncation=True)["input_ids"])


@pytest.mark.parametrize("token_type", ["bpe", "word"])
def test_hand_pairs_links_equal_stock_simalign(hand_model, token_type):
    ours = SimalignAligner(model=hand_model, layer=3, token_type=token_type, batch_size=6)
    got = _align_methods(ours, HAND_PAIRS, ["argmax", "itermax", "match"])
    expected = _stock_links(hand_model, HAND_PAIRS, token_type, 3)
    assert got == expected
    assert len(set(map(str, got.values()))) == 3  # the three methods differ here
    assert all(got["argmax"])
    for method in ("itermax", "match"):
        assert SimalignAligner(model=hand_model, layer=3, token_type=token_type,
                               method=method).align(HAND_PAIRS) == expected[method]


def test_token_type_reaches_the_links(hand_model):
    plain = SimalignAligner(model=hand_model, layer=3).align(HAND_PAIRS)
    assert plain != SimalignAligner(model=hand_model, layer=3, token_type="word").align(HAND_PAIRS)
    assert plain == _stock_links(hand_model, HAND_PAIRS, "bpe", 3)["argmax"]


def test_defaults(hand_model):
    aligner = SimalignAligner(model=hand_model)
    assert (aligner.layer, aligner.token_type, aligner.method, aligner.device, aligner.batch_size) == \
        (8, "bpe", "argmax", "cpu", 64)
    assert aligner.align(HAND_PAIRS[:4]) == _stock_links(hand_model, HAND_PAIRS[:4], "bpe", 8)["argmax"]


def test_cache_key_in_full(hand_model):
    folder = Path(hand_model)
    digest = hashlib.sha256()
    for item in sorted(folder.iterdir()):
        if item.is_file():
            digest.update(f"{item.name}\0{item.stat().st_size}\0{item.stat().st_mtime_ns}\n".encode())
    key = SimalignAligner(model=hand_model, layer=2, token_type="word", method="match", device="cpu:0",
                          batch_size=3).cache_key()
    assert key == {"backend": "simalign", "simalign": version("simalign"), "model": hand_model,
                   "weights": digest.hexdigest()[:16], "layer": 2, "token_type": "word", "method": "match",
                   "device": "cpu"}


def test_model_fingerprint_of_a_folder_follows_its_files(tmp_path):
    (tmp_path / "b.bin").write_bytes(b"12345")
    (tmp_path / "a.json").write_text("{}", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c").write_text("x", encoding="utf-8")
    a, b = (tmp_path / "a.json").stat(), (tmp_path / "b.bin").stat()
    expected = hashlib.sha256(f"a.json\0{a.st_size}\0{a.st_mtime_ns}\nb.bin\0{b.st_size}\0{b.st_mtime_ns}\n"
                              .encode()).hexdigest()[:16]
    assert backend.model_fingerprint(str(tmp_path)) == expected
    os.utime(tmp_path / "b.bin", ns=(b.st_atime_ns, b.st_mtime_ns + 1000))
    assert backend.model_fingerprint(str(tmp_path)) != expected


def _hub_cache(tmp_path, monkeypatch, name="acs-test/tiny", revision="abc123"):
    cache = tmp_path / "hub-cache"
    cached = cache / f"models--{name.replace('/', '--')}"
    (cached / "refs").mkdir(parents=True)
    (cached / "refs" / "main").write_text(revision)
    (cached / "snapshots" / revision).mkdir(parents=True)
    (cached / "snapshots" / revision / "config.json").write_text("{}")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(cache))


def test_hub_models_in_the_cache(tmp_path, monkeypatch):
    _hub_cache(tmp_path, monkeypatch)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert backend.check_model_available("acs-test/tiny") is None  # cached: fine offline
    assert backend.model_fingerprint("acs-test/tiny") == "abc123"  # the snapshot's revision
    assert backend.model_fingerprint("acs-test/not-cached") == "hub"

    def broken(*args, **kwargs):
        raise RuntimeError("cache unreadable")

    monkeypatch.setattr("huggingface_hub.try_to_load_from_cache", broken)
    assert backend.model_fingerprint("acs-test/tiny") == "hub"


def test_the_weights_and_their_sha256_are_found_in_a_folder_or_the_hub_cache(tmp_path, monkeypatch):
    _hub_cache(tmp_path, monkeypatch)
    aligner = SimalignAligner(model="acs-test/tiny")
    assert aligner.provenance()["sha256"] is None  # cached without its weights (or in shards)
    weights = tmp_path / "hub-cache" / "models--acs-test--tiny" / "snapshots" / "abc123" / "pytorch_model.bin"
    weights.write_bytes(b"weights")
    assert backend.model_weights("acs-test/tiny") == weights and backend.model_weights("acs-test/not-cached") is None
    (tmp_path / "no-weights").mkdir()
    assert backend.model_weights(str(tmp_path / "no-weights")) is None
    record = aligner.provenance()  # a Hub name is kept whole
    assert (record["model"], record["sha256"]) == ("acs-test/tiny", hashlib.sha256(b"weights").hexdigest())


def test_env_flags(monkeypatch):
    from auto_challenge_sets.backends.hub import env_true

    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    assert env_true("ACS_TEST_FLAG") is False and backend.is_offline() is False
    for value, expected in (("1", True), (" on ", True), ("Yes", True), ("true", True), ("TRUE", True),
                            ("0", False), ("no", False), ("", False), ("2", False)):
        monkeypatch.setenv("ACS_TEST_FLAG", value)
        assert env_true("ACS_TEST_FLAG") is expected, value
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "1")
        assert backend.is_offline() is True, name
        monkeypatch.setenv(name, "0")
        assert backend.is_offline() is False, name


def test_what_looks_like_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "here").mkdir()
    for model in (".hidden", "/abs", "~someone", "a/b/c", "here"):
        assert backend._looks_like_path(model) is True, model
    for model in ("owner/name", "bert-base-multilingual-cased", "xlm-roberta-base"):
        assert backend._looks_like_path(model) is False, model


def test_unavailable_models_say_how_to_supply_one(tmp_path, monkeypatch):
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))
    (tmp_path / "empty").mkdir()
    cases = [
        (str(tmp_path / "empty"), f"the alignment model folder {tmp_path / 'empty'} has no config.json; "),
        (str(tmp_path / "nothing"), f"the alignment model {str(tmp_path / 'nothing')!r} is not a folder; "),
        ("a/b/c", "the alignment model 'a/b/c' is not a folder; "),
    ]
    for model, start in cases:
        with pytest.raises(AlignerError) as caught:
            backend.check_model_available(model)
        assert str(caught.value) == start + HOW.format(model)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(AlignerError) as caught:
        backend.check_model_available("acs-test/none")
    assert str(caught.value) == (
        "the alignment model 'acs-test/none' is not in the local Hugging Face cache and the Hub is off "
        f"(HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE); {HOW.format('acs-test/none')}")
    # short names are simalign's
    with pytest.raises(AlignerError, match="^the alignment model 'bert-base-multilingual-cased' is not"):
        SimalignAligner(model="bert")
    with pytest.raises(AlignerError, match="^the alignment model 'xlm-roberta-base' is not"):
        SimalignAligner(model="xlmr")


@pytest.fixture
def fresh_hub_probe():
    from auto_challenge_sets.backends.hub import hub_reachable

    hub_reachable.cache_clear()  # the probe's answer is cached per endpoint
    yield hub_reachable
    hub_reachable.cache_clear()


def test_online_without_the_hub_or_the_model(tmp_path, monkeypatch, fresh_hub_probe):
    from huggingface_hub import hf_hub_download

    from fake_hub import FakeHub, start

    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "empty-hub-cache"))
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")  # nothing listens
    with pytest.raises(AlignerError) as caught:
        backend.check_model_available("acs-test/none")
    assert str(caught.value) == (
        "the alignment model 'acs-test/none' is not in the local Hugging Face cache and the Hub cannot be "
        f"reached; {HOW.format('acs-test/none')}")
    hub = start(FakeHub())
    try:
        monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", hub.endpoint)
        fresh_hub_probe.cache_clear()
        assert fresh_hub_probe() is True
        with pytest.raises(Exception) as reference:  # noqa: B017 - what the Hub client raises here
            hf_hub_download("acs-test/none", "config.json")
        with pytest.raises(AlignerError) as caught:
            backend.check_model_available("acs-test/none")
    finally:
        hub.server.shutdown()
    assert str(caught.value) == (
        "the alignment model 'acs-test/none' is not in the local Hugging Face cache and could not be fetched "
        f"from the Hub ({type(reference.value).__name__}); {HOW.format('acs-test/none')}")


def test_option_errors_in_full(hand_model):
    prefix = "aligner 'simalign': option "
    cases = [
        (dict(token_type="char"), f"{prefix}token_type must be one of bpe, word, got 'char'"),
        (dict(method="fancy"), f"{prefix}method must be one of argmax, itermax, match, got 'fancy'"),
        (dict(layer=-1), f"{prefix}layer must be an integer >= 0 in ASCII digits, got -1"),
        (dict(batch_size=0), f"{prefix}batch_size must be an integer >= 1 in ASCII digits, got 0"),
        (dict(layer=9), f"simalign: layer 9 asked for, but {hand_model} has 9 hidden states (0 = embeddings ... 8)"),
        (dict(device="gpu0"), "simalign: unknown device 'gpu0' (cpu, cuda, cuda:1 ...)"),
    ]
    for options, message in cases:
        with pytest.raises(AlignerError) as caught:
            get_aligner("simalign", model=hand_model, **options)
        assert str(caught.value) == message
    aligner = SimalignAligner(model=hand_model, layer=0, batch_size=1, device="cpu:0")  # the lower bounds
    assert (aligner.layer, aligner.batch_size, aligner.device) == (0, 1, "cpu:0")
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(AlignerError) as caught:
            SimalignAligner(model=hand_model, device="cuda:1")
        assert str(caught.value) == "simalign: device 'cuda:1' asked for, but torch sees no CUDA GPU"


def test_a_config_is_read_as_utf8_whatever_the_locale(tmp_path, c_locale):
    folder = tmp_path / "umlaut"
    folder.mkdir()
    config = {"model_type": "bert", "num_hidden_layers": 2, "note": "für die Tests"}
    (folder / "config.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(AlignerError) as caught:
        SimalignAligner(model=str(folder), layer=3)
    assert str(caught.value) == f"simalign: layer 3 asked for, but {folder} has 3 hidden states (0 = embeddings ... 2)"


def test_a_folder_whose_config_names_no_layer_count_is_checked_when_loaded(hand_model, tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"model_type": "bert"}), encoding="utf-8")
    assert SimalignAligner(model=str(folder), layer=40).layer == 40  # nothing to check it against yet


def test_load_checks_the_layer_and_sets_up_stock_simalign(hand_model):
    import torch

    logging.getLogger("simalign.simalign").setLevel(logging.DEBUG)
    aligner = SimalignAligner(model=hand_model, layer=5, device="cpu:0")
    loader = aligner.load()
    assert logging.getLogger("simalign.simalign").level == logging.WARNING
    assert (loader.model, loader.layer, loader.device) == (hand_model, 5, torch.device("cpu:0"))
    assert aligner.load() is loader  # loaded once
    late = SimalignAligner(model=hand_model, layer=2)
    late.layer = 9  # set after the check at construction: loading checks again
    with pytest.raises(AlignerError) as caught:
        late.load()
    assert str(caught.value) == f"simalign: layer 9 asked for, but {hand_model} has 9 hidden states (0 = embeddings ... 8)"


def test_a_folder_without_weights_cannot_be_loaded(hand_model, tmp_path):
    folder = tmp_path / "no-weights"
    folder.mkdir()
    for item in Path(hand_model).iterdir():
        if item.is_file() and item.suffix != ".safetensors":
            (folder / item.name).write_bytes(item.read_bytes())
    aligner = SimalignAligner(model=str(folder), layer=2)
    with pytest.raises(AlignerError) as caught:
        aligner.align(HAND_PAIRS[:1])
    message = str(caught.value)
    assert message.startswith(f"cannot load the alignment model {str(folder)!r} (")
    assert message.endswith(f"); {HOW.format(folder)}")


def test_nothing_to_align_loads_nothing(hand_model):
    aligner = SimalignAligner(model=hand_model, layer=2)
    assert aligner.align([([], ["a"]), (["b"], []), ([], [])]) == [[], [], []]
    assert aligner.align([]) == []
    assert aligner._loader is None


def test_vectors_are_stock_simalign_s_batched_by_padded_length(hand_model):
    """Each pair's rows are bit for bit stock's; pairs go through the model in batches of
    batch_size // 2 pairs that share their stock padded length, shortest first."""
    from simalign import SentenceAligner

    zero_width = "\u200b"  # no subword at all
    pairs = HAND_PAIRS + [([], ["x"]), ([zero_width], ["Hund"]), (["Hund"], [zero_width, zero_width])]
    aligner = SimalignAligner(model=hand_model, layer=3, batch_size=5)  # 2 pairs a batch
    loader = aligner.load()
    shapes = []
    forward = loader.emb_model.forward

    def recording(*args, **kwargs):
        shapes.append(tuple(kwargs["input_ids"].shape))
        return forward(*args, **kwargs)

    loader.emb_model.forward = recording
    try:
        seen = list(aligner.pair_vectors(pairs))
    finally:
        del loader.emb_model.forward
    stock = SentenceAligner(model=hand_model, token_type="bpe", matching_methods="a", layer=3)
    tokenizer = stock.embed_loader.tokenizer
    padded = {k: max(_n_ids(tokenizer, src), _n_ids(tokenizer, tgt)) for k, (src, tgt) in enumerate(HAND_PAIRS)}
    order = sorted(padded, key=lambda k: (padded[k], k))
    assert [k for k, _, _ in seen] == order
    expected_shapes = []
    for length in sorted(set(padded.values())):
        bucket = [k for k in order if padded[k] == length]
        expected_shapes += [(2 * len(bucket[start:start + 2]), length) for start in range(0, len(bucket), 2)]
    assert shapes == expected_shapes
    for k, vectors, subwords in seen:
        src, tgt = pairs[k]
        assert subwords == ([tokenizer.tokenize(w) for w in src], [tokenizer.tokenize(w) for w in tgt])
        reference = stock.embed_loader.get_embed_list([src, tgt]).cpu().detach().numpy()
        for side in (0, 1):
            n_subwords = sum(map(len, subwords[side]))
            assert vectors[side].shape == (n_subwords, 32)
            assert np.array_equal(vectors[side], reference[side, :n_subwords]), (k, side)


def test_one_pair_a_batch_and_many(hand_model):
    one = SimalignAligner(model=hand_model, layer=3, batch_size=1)
    loader = one.load()
    calls = []
    forward = loader.emb_model.forward

    def recording(*args, **kwargs):
        calls.append(tuple(kwargs["input_ids"].shape)[0])
        return forward(*args, **kwargs)

    loader.emb_model.forward = recording
    try:
        links = one.align(HAND_PAIRS)
    finally:
        del loader.emb_model.forward
    assert calls == [2] * len(HAND_PAIRS)  # batch_size 1 still embeds a whole pair
    assert links == _stock_links(hand_model, HAND_PAIRS, "bpe", 3)["argmax"]


def test_words_cut_off_by_truncation_get_no_links(hand_model):
    aligner = SimalignAligner(model=hand_model, layer=3, token_type="word", method="itermax")
    tokenizer = aligner.load().tokenizer
    source = ["Verhandlungen", "Hund", "Garten"] * 80
    pieces = [len(tokenizer.tokenize(word)) for word in source]
    kept = max(n for n in range(len(source) + 1) if sum(pieces[:n]) <= 510)  # 512 less [CLS] and [SEP]
    assert kept < len(source)
    (links,) = aligner.align([(source, ["The", "dog", "sleeps", "."])])
    assert links and max(i for i, _ in links) < kept


def test_word_vectors_average_the_words_that_have_rows():
    source_rows = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    target_rows = np.array([[2.0, 0.0], [0.0, 2.0]])
    # every word has its rows: stock simalign's averaging
    vectors, keep = backend._word_vectors([source_rows, target_rows], ([["a"], ["b", "c"]], [["x"], ["y"]]))
    assert keep == [[0, 1], [0, 1]]
    assert np.array_equal(vectors[0], [[1.0, 0.0], [0.5, 1.0]]) and np.array_equal(vectors[1], target_rows)
    # a word without pieces, and a word cut off after the last row (2 rows for 3 pieces)
    vectors, keep = backend._word_vectors([source_rows, target_rows], ([["a"], [], ["b", "c"]], [["x"], ["y", "z"]]))
    assert keep == [[0, 2], [0]]
    assert np.array_equal(vectors[0], [[1.0, 0.0], [0.5, 1.0]]) and np.array_equal(vectors[1], [[2.0, 0.0]])
    # no word left on one side: no rows on either
    vectors, keep = backend._word_vectors([source_rows[:0], target_rows], ([[], []], [["x"], ["y"]]))
    assert keep == [[], [0, 1]]
    assert vectors[0].shape == (0, 2) and vectors[1].shape == (0, 2)


def test_pair_links_by_hand():
    source = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    target = np.array([[0.0, 0.0, 1.0], [1.0, 0.1, 0.0], [0.0, 1.0, 0.1]])
    subwords = ([["a"], ["b", "c"]], [["x"], ["y"], ["z"]])
    # rows: source 0->0, 1->1, 2->1; the most similar rows are (0,1), (1,2), (2,0) both ways
    for code in ("a", "i", "m"):
        assert backend.pair_links([source, target], subwords, code, "bpe") == [(0, 1), (1, 0), (1, 2)]
    # words: "bc" is the mean of rows 1 and 2, nearest to "z" (and "x" nearest to it, but not mutually)
    assert backend.pair_links([source, target], subwords, "a", "word") == [(0, 1), (1, 2)]
    crossing = [np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])]
    assert backend.pair_links(crossing, ([["a"], ["b"]], [["x"], ["y"]]), "a", "bpe") == [(0, 1), (1, 0)]
    # one word on a side still aligns; no rows on a side gives no links for any method
    for code in ("a", "i"):
        assert backend.pair_links([source[:1], target[1:]], ([["a"]], [["y"], ["z"]]), code, "bpe") == [(0, 0)]
    for code in ("a", "m", "i"):
        assert backend.pair_links([source[:1], target[1:]], ([[]], [["y"], ["z"]]), code, "word") == []
    assert backend.pair_links([source, target[:0]], (subwords[0], [[]]), "a", "bpe") == []


def test_edge_pairs_degrade_in_both_token_types(hand_model):
    zero_width = "\u200b"
    pairs = [([], ["Hund"]), (["Hund", zero_width, "Garten"], ["dog", "garden"]), ([zero_width], ["dog"]),
             (["Ja"], ["Yes"])]
    for token_type in ("bpe", "word"):
        links = SimalignAligner(model=hand_model, layer=3, token_type=token_type).align(pairs)
        assert links[0] == [] and links[2] == [] and links[3] == [(0, 0)]
        assert links[1] and all(i != 1 for i, _ in links[1])


def test_batches_go_to_the_device_without_a_transformers_warning(hand_model):
    """Each batch is moved to the aligner's device: ``BatchEncoding.to(None)`` would leave it where
    it is on a CPU, but log "Attempting to cast a BatchEncoding to type None" once per batch."""
    import logging

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    library = logging.getLogger("transformers")
    handler, level = Keep(logging.WARNING), library.level
    library.addHandler(handler)
    library.setLevel(logging.WARNING)
    try:
        links = get_aligner("simalign", model=hand_model, layer=2, batch_size=2).align(HAND_PAIRS)
    finally:
        library.removeHandler(handler)
        library.setLevel(level)
    assert any(links)
    assert [r.getMessage() for r in records if "BatchEncoding" in r.getMessage()] == []
