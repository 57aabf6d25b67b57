"""The batched simalign backend gives stock simalign's links, pair by pair, on real sentences.

A tiny random BERT (tests/tiny_bert.py) stands in for mBERT: the claim under test is that the
batching changes nothing, which holds for any weights. 300 newstest2013 pairs, both token types,
all three methods. The max-weight matching ("match") runs networkx in pure Python (a third of a
second per pair with subwords), so by default it is compared on the first pairs only; set
ACS_FULL_ALIGN_TESTS=1 to compare it on all 300.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
import pytest

from auto_challenge_sets.builder.backends.aligners import AlignerError, get_aligner
from auto_challenge_sets.builder.backends.aligners.simalign import ModelUnavailableError
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


@pytest.mark.parametrize(("token_type", "layer"), [("bpe", 2), ("word", 1)])
def test_links_identical_to_stock_simalign(tiny_model, news_pairs, token_type, layer):
    ours = get_aligner("simalign", model=tiny_model, layer=layer, token_type=token_type, batch_size=32)
    got = ours.align_methods(news_pairs, ["argmax", "itermax"])
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
    got = ours.align_methods(subset, ["match", "argmax", "itermax"])
    for name, key in (("match", "mwmf"), ("argmax", "inter"), ("itermax", "itermax")):
        differ = [k for k in range(len(subset)) if got[name][k] != _as_links(expected[k][key])]
        assert not differ, f"{token_type}/{name}: pairs {differ[:10]} differ from stock simalign"


def test_links_identical_to_stock_simalign_english_to_german(tiny_model, news_pairs):
    """The other direction (en→de) of the same 300 pairs."""
    reversed_pairs = [(tgt, src) for src, tgt in news_pairs]
    ours = get_aligner("simalign", model=tiny_model, layer=2, token_type="bpe", batch_size=16)
    got = ours.align_methods(reversed_pairs, ["argmax", "itermax"])
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
    got = ours.align_methods(pairs, ["argmax", "itermax"])
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
    with pytest.raises(ModelUnavailableError, match="acs-test/no-such-model") as caught:
        get_aligner("simalign", model=name)  # fails when made, not when it first aligns
    message = str(caught.value)
    assert name in message and "HF_HUB_OFFLINE" in message and "--model PATH" in message
    assert "save_pretrained" in message and isinstance(caught.value, AcsError)


def test_default_model_offline_names_itself(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    from huggingface_hub import try_to_load_from_cache

    if isinstance(try_to_load_from_cache("bert-base-multilingual-cased", "config.json"), str):
        pytest.skip("mBERT is in this machine's Hugging Face cache")
    with pytest.raises(ModelUnavailableError, match="'bert-base-multilingual-cased' is not in the local"):
        get_aligner("simalign")


def test_bad_local_folders(tmp_path):
    with pytest.raises(ModelUnavailableError, match="is not a folder"):
        get_aligner("simalign", model=str(tmp_path / "nothing-here"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match="has no config.json"):
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
