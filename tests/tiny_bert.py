"""A tiny random BERT that real simalign can load from a local folder, offline.

No pretrained model can be downloaded here, so tests make their own: a WordPiece vocabulary
trained on the test's own sentences (small, so that many words split into several subwords and
the bpe/word code paths differ), and a randomly initialised BertModel with hidden size 32. Saved
with ``save_pretrained``, the folder loads through simalign's AutoConfig/AutoModel/AutoTokenizer
branch (used for any model name outside simalign's own table), so stock simalign and our
batched backend read exactly the same weights and tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def make_tiny_bert(
    directory: str | Path,
    sentences: Iterable[str],
    *,
    vocab_size: int = 1500,
    hidden_size: int = 32,
    layers: int = 2,
    seed: int = 0,
) -> Path:
    """Write a tiny random BERT (model + tokenizer) into ``directory`` and return it."""
    import torch
    from tokenizers import BertWordPieceTokenizer
    from transformers import BertConfig, BertModel, BertTokenizerFast

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    wordpiece = BertWordPieceTokenizer(lowercase=False, strip_accents=False)
    wordpiece.train_from_iterator(list(sentences), vocab_size=vocab_size, min_frequency=1,
                                  show_progress=False)
    vocab_dir = directory / "_vocab"
    vocab_dir.mkdir(exist_ok=True)
    vocab_file = wordpiece.save_model(str(vocab_dir))[0]
    # model_max_length makes truncation=True (as simalign calls the tokenizer) cut at the
    # position-embedding size instead of warning about an unbounded length.
    tokenizer = BertTokenizerFast(vocab_file=vocab_file, do_lower_case=False, strip_accents=False,
                                  model_max_length=512)
    tokenizer.save_pretrained(directory)

    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=hidden_size,
        num_hidden_layers=layers,
        num_attention_heads=2,
        intermediate_size=2 * hidden_size,
        max_position_embeddings=512,
    )
    with torch.random.fork_rng(devices=[]):  # seeded weights, without touching the caller's RNG
        torch.manual_seed(seed)
        model = BertModel(config).eval()
    model.save_pretrained(directory)
    return directory
