"""simalign, batched: many sentence pairs per forward pass, the same links as stock simalign.

Stock ``SentenceAligner.get_word_aligns`` embeds one pair per forward pass, padded to its longer
side. Here the embedding is batched and the rest is simalign's own code (its ``EmbeddingLoader``
and the static methods that turn similarities into links). A transformer's output at a real
position does not depend on the batch size but does, in float32's last bits, on the padded length
(enough to flip a near-tie argmax). So each pair is embedded at exactly stock's padded length:
pairs are bucketed by it, a batch holds one bucket, and on CPU the vectors are bit-identical to
stock's for any batch size (a GPU may pick other kernels for other batch shapes).

Where stock simalign crashes this backend degrades: a pair with an empty side, or whose words all
vanish in the tokenizer, gets no links; with ``token_type="word"`` a word with no subword (or cut
off at the model's maximum length) gets no links.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from auto_challenge_sets.backends import ALIGNER, Option, register_backend
from auto_challenge_sets.backends.aligners import Aligner, AlignerError, Pair
from auto_challenge_sets.backends.file_provenance import file_checksum
from auto_challenge_sets.backends.hub import env_true, hub_reachable
from auto_challenge_sets.formats.pharaoh import Link

DEFAULT_MODEL = "bert-base-multilingual-cased"
DEFAULT_LAYER = 8  # simalign's default; the layer its paper found best for mBERT
# our method names -> simalign's method letters ("a", "argmax": the intersection of both directions' argmax)
METHODS = {"argmax": "a", "itermax": "i", "match": "m"}
TOKEN_TYPES = ("bpe", "word")
# SentenceAligner's shorthands
_SHORT_NAMES = {"bert": "bert-base-multilingual-cased", "xlmr": "xlm-roberta-base"}
# the weights files transformers loads, in the order it looks for them
_WEIGHTS = ("model.safetensors", "pytorch_model.bin")


def is_offline() -> bool:
    return env_true("HF_HUB_OFFLINE") or env_true("TRANSFORMERS_OFFLINE")


def _looks_like_path(model: str) -> bool:
    # Hub names are "name" or "owner/name"; anything else that could be a path is taken as one
    return (model.startswith((".", "/", "~")) or model.count("/") > 1 or (os.sep != "/" and os.sep in model)
            or Path(model).expanduser().exists())


def model_weights(model: str) -> Path | None:
    """The weights file behind ``model`` on this machine: in a local folder, or in the Hugging Face
    cache for a Hub name; None when it is not here (or is split into shards)."""
    path = Path(model).expanduser()
    if path.is_dir():
        return next((path / name for name in _WEIGHTS if (path / name).is_file()), None)
    from huggingface_hub import try_to_load_from_cache  # a dependency of datasets: always here

    for name in _WEIGHTS:
        try:
            cached = try_to_load_from_cache(model, name)
        except Exception:  # noqa: BLE001 - a bad name or an odd cache: the record says None
            return None
        if isinstance(cached, str):
            return Path(cached)
    return None


def model_fingerprint(model: str) -> str:
    """Identifies the weights behind ``model`` for the stage cache: a local folder's files (name,
    size, mtime), or the cached Hub snapshot's revision."""
    path = Path(model).expanduser()
    digest = hashlib.sha256()
    if path.is_dir():
        for item in sorted(path.iterdir()):
            if item.is_file():
                stat = item.stat()
                digest.update(f"{item.name}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
        return digest.hexdigest()[:16]
    try:
        from huggingface_hub import try_to_load_from_cache

        cached = try_to_load_from_cache(model, "config.json")
    except Exception:  # noqa: BLE001 - a fingerprint is best effort; the name still keys the cache
        cached = None
    return Path(cached).parent.name if isinstance(cached, str) else "hub"


def _how_to_supply(model: str) -> str:
    return (f"download it once where the Hugging Face Hub is reachable (`huggingface-cli download {model}`), "
            "or pass a local folder written by `save_pretrained` (model and tokenizer): "
            "`acs align --model PATH` / `acs build --align-model PATH`; or align with eflomal "
            "(`--aligner eflomal`, CPU, no model), or build without reordering configs (`--aligner none`)")


def check_model_available(model: str) -> None:
    """Raise :class:`AlignerError` now if loading ``model`` is bound to fail: a local folder
    needs a ``config.json``; a Hub name must be cached when the Hub is off, else its config.json is
    fetched now, so a wrong name fails before the stages before alignment run."""
    path = Path(model).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise AlignerError(
                f"the alignment model folder {model} has no config.json; {_how_to_supply(model)}")
        return
    if _looks_like_path(model):
        raise AlignerError(f"the alignment model {model!r} is not a folder; {_how_to_supply(model)}")
    from huggingface_hub import hf_hub_download, try_to_load_from_cache

    if isinstance(try_to_load_from_cache(model, "config.json"), str):
        return
    absent = f"the alignment model {model!r} is not in the local Hugging Face cache and"
    if is_offline():
        raise AlignerError(f"{absent} the Hub is off (HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE); "
                                    f"{_how_to_supply(model)}")
    if not hub_reachable():
        raise AlignerError(f"{absent} the Hub cannot be reached; {_how_to_supply(model)}")
    try:
        hf_hub_download(model, "config.json")
    except Exception as error:  # noqa: BLE001 - any failure means the model cannot be had
        raise AlignerError(f"{absent} could not be fetched from the Hub ({type(error).__name__}); "
                                    f"{_how_to_supply(model)}") from None


@register_backend(ALIGNER, "simalign")
class SimalignAligner(Aligner):
    """simalign over pre-tokenized pairs, ``batch_size`` sentences per forward pass. The default
    method, ``argmax``, is the most precise: long spurious links would inflate the reorder sets."""

    requires = ("torch", "transformers", "simalign")

    options = (
        Option("model", str, DEFAULT_MODEL, "simalign: a Hugging Face model name or a local folder (save_pretrained)",
               metavar="NAME_OR_PATH", build_flag="--align-model"),
        Option("layer", int, DEFAULT_LAYER, "simalign: hidden layer to embed with, 0 = embeddings",
               metavar="N", minimum=0),
        Option("token_type", str, "bpe", "simalign: align subwords and map to words (bpe), or average subwords "
               "into words first (word)", choices=TOKEN_TYPES),
        Option("method", str, "argmax", "simalign: argmax (intersection of both argmax directions; precise), "
               "itermax (more links), match (max-weight matching; slow on long sentences)", choices=tuple(METHODS)),
        Option("device", str, "cpu", "simalign: cpu, cuda, cuda:1 ...", metavar="DEVICE", build_flag="--align-device"),
        Option("batch_size", int, 64, "simalign: sentences per forward pass", metavar="N",
               build_flag="--align-batch-size", minimum=1),
    )

    def __init__(self, model: str = DEFAULT_MODEL, layer: int = DEFAULT_LAYER, token_type: str = "bpe",
                 method: str = "argmax", device: str = "cpu", batch_size: int = 64) -> None:
        self.model = _SHORT_NAMES.get(model, model)
        self.layer = layer
        self.token_type = token_type
        self.method = method
        self.device = device
        self.batch_size = batch_size
        self._loader: Any = None
        self.check()  # before any work: a missing model must not surface after an hour of parsing

    def check(self) -> None:
        check_model_available(self.model)
        config = Path(self.model).expanduser() / "config.json"
        if config.is_file():  # a local folder: the layer can be checked without loading the model
            layers = json.loads(config.read_text(encoding="utf-8")).get("num_hidden_layers")
            if isinstance(layers, int):
                self._check_layer(layers + 1)
        if self.device != "cpu":
            import torch

            try:
                device = torch.device(self.device)
            except RuntimeError:
                raise AlignerError(f"simalign: unknown device {self.device!r} (cpu, cuda, cuda:1 ...)") from None
            if device.type == "cuda" and not torch.cuda.is_available():
                raise AlignerError(f"simalign: device {self.device!r} asked for, but torch sees no CUDA GPU")

    def _check_layer(self, states: int) -> None:
        if self.layer >= states:
            raise AlignerError(f"simalign: layer {self.layer} asked for, but {self.model} has {states} "
                               f"hidden states (0 = embeddings ... {states - 1})")

    def _options(self) -> dict[str, Any]:
        # no batch size: on CPU the links do not depend on it (tested)
        return {"weights": model_fingerprint(self.model), "layer": self.layer, "token_type": self.token_type,
                "device": self.device.split(":")[0]}

    def cache_key(self) -> dict[str, Any]:
        from importlib.metadata import version

        return {"backend": "simalign", "simalign": version("simalign"), "model": self.model, "method": self.method,
                **self._options()}

    def provenance(self) -> dict[str, Any]:
        """The model by name (a local folder by base name), its weights' sha256 where they are on disk,
        and the method as ``symmetrization``."""
        weights = model_weights(self.model)
        return {**super().provenance(), "model": Path(self.model).name if _looks_like_path(self.model) else self.model,
                "sha256": None if weights is None else file_checksum(weights), "symmetrization": self.method,
                "options": self._options()}

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        links: list[list[Link]] = [[] for _ in pairs]
        for k, vectors, subwords in self.pair_vectors(pairs):
            links[k] = pair_links(vectors, subwords, METHODS[self.method], self.token_type)
        return links

    def load(self) -> Any:
        """simalign's own ``EmbeddingLoader`` (same model and tokenizer classes as stock)."""
        if self._loader is None:
            import torch
            from simalign.simalign import EmbeddingLoader

            logging.getLogger("simalign.simalign").setLevel(logging.WARNING)
            try:
                loader = EmbeddingLoader(model=self.model, device=torch.device(self.device), layer=self.layer)
            except OSError as error:
                raise AlignerError(
                    f"cannot load the alignment model {self.model!r} ({error}); {_how_to_supply(self.model)}"
                ) from None
            self._check_layer(loader.emb_model.config.num_hidden_layers + 1)
            self._loader = loader
        return self._loader

    def _embed(self, sentences: list[list[str]], padded_length: int) -> Any:
        """``hidden[layer][:, 1:-1]`` of a batch padded to exactly ``padded_length``, as numpy."""
        import torch

        loader = self._loader
        with torch.no_grad():
            inputs = loader.tokenizer(sentences, is_split_into_words=True, padding="max_length",
                                      max_length=padded_length, truncation=True, return_tensors="pt")
            hidden = loader.emb_model(**inputs.to(loader.device))["hidden_states"]
            return hidden[self.layer][:, 1:-1, :].cpu().numpy()

    def pair_vectors(self, pairs: Sequence[Pair]) -> Iterator[tuple[int, list[Any], tuple[list[list[str]], ...]]]:
        """``(index, [source rows, target rows], (source subwords, target subwords))`` per pair, the
        rows exactly stock's ``get_embed_list([src, tgt])[i, :n_subwords_i]``, in padded-length
        order; pairs with an empty side, or no subword on a side, are left out."""
        todo = [k for k, (src, tgt) in enumerate(pairs) if len(src) and len(tgt)]
        if not todo:
            return
        tokenizer = self.load().tokenizer
        # as get_word_aligns does: the tokenizer applied to each word alone
        subwords = {k: ([tokenizer.tokenize(w) for w in pairs[k][0]], [tokenizer.tokenize(w) for w in pairs[k][1]])
                    for k in todo}
        # stock pads each pair to its longer side (its input ids as its tokenizer call makes them):
        # bucket the pairs by that length
        buckets: dict[int, list[int]] = defaultdict(list)
        for k in todo:
            if any(subwords[k][0]) and any(subwords[k][1]):
                ids = tokenizer([list(side) for side in pairs[k]], is_split_into_words=True, truncation=True)["input_ids"]
                buckets[max(map(len, ids))].append(k)
        per_batch = max(1, self.batch_size // 2)
        for padded_length in sorted(buckets):
            bucket = buckets[padded_length]
            for start in range(0, len(bucket), per_batch):
                chunk = bucket[start:start + per_batch]
                vectors = self._embed([list(pairs[k][side]) for k in chunk for side in (0, 1)], padded_length)
                for n, k in enumerate(chunk):
                    src_sub, tgt_sub = subwords[k]
                    # stock: get_embed_list(...)[i, :len(bpe_list_i)]
                    yield k, [vectors[2 * n, :sum(map(len, src_sub))],
                              vectors[2 * n + 1, :sum(map(len, tgt_sub))]], subwords[k]


def _word_vectors(vectors: Sequence[Any], subwords: Sequence[list[list[str]]]) -> tuple[list[Any], list[list[int]]]:
    """simalign's ``average_embeds_over_words`` over the words that have a subword among the rows
    (all of them in stock's only working case), and per side the word index of each vector."""
    from simalign import SentenceAligner

    keep: list[list[int]] = []
    for side in (0, 1):
        offset, kept = 0, []
        for index, pieces in enumerate(subwords[side]):
            offset += len(pieces)
            if pieces and offset <= len(vectors[side]):
                kept.append(index)
        keep.append(kept)
    if all(len(keep[side]) == len(subwords[side]) for side in (0, 1)):
        return SentenceAligner.average_embeds_over_words(vectors, list(subwords)), keep
    # Dropping words with no subword does not move the others' subword offsets; truncation cuts
    # words from the end only. So the kept words' offsets are those stock simalign would compute.
    kept_subwords = [[subwords[side][index] for index in keep[side]] for side in (0, 1)]
    kept_vectors = [vectors[side][:sum(map(len, kept_subwords[side]))] for side in (0, 1)]
    if not keep[0] or not keep[1]:
        return [v[:0] for v in kept_vectors], keep
    return SentenceAligner.average_embeds_over_words(kept_vectors, kept_subwords), keep


def pair_links(vectors: Sequence[Any], subwords: Sequence[list[list[str]]], code: str,
               token_type: str) -> list[Link]:
    """The second half of ``get_word_aligns``: one pair's subword rows → its links by the simalign
    method letter ``code``."""
    import numpy as np
    from simalign import SentenceAligner

    if token_type == "bpe":
        rows = [[index for index, pieces in enumerate(side) for _ in pieces] for side in subwords]
    else:
        vectors, rows = _word_vectors(vectors, subwords)
    if len(vectors[0]) == 0 or len(vectors[1]) == 0:
        return []
    sim = SentenceAligner.get_similarity(vectors[0], vectors[1])  # stock's default distortion (0): none
    if code == "m":
        matrix = SentenceAligner.get_max_weight_match(sim)
    elif code == "i":
        matrix = SentenceAligner.iter_max(sim)
    else:
        forward, backward = SentenceAligner.get_alignment_matrix(sim)
        matrix = forward * backward
    sources, targets = np.nonzero(matrix > 0)
    return sorted({(rows[0][i], rows[1][j]) for i, j in zip(sources.tolist(), targets.tolist())})
