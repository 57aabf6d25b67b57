"""eflomal (Östling & Tiedemann 2016): a fast Bayesian aligner for CPU-only users.

Both directions run as two processes of eflomal's own binary and are symmetrized here
(:mod:`.symmetrize`); input files are written by eflomal's ``Aligner.prepare_files`` (which
lowercases) and iteration counts follow its Python wrapper. eflomal is corpus-level: the links of
a pair depend on the rest of the corpus.

Determinism. eflomal 2.0.0 has no seed option: its binary seeds itself from 8 bytes of
``/dev/urandom``, and its threads draw sub-seeds in arrival order. For a ``seed``, a copy of the
binary reads the same-length relative path ``acs_seed.bin`` instead, written with a seed derived
from ``seed`` and the direction, and runs with ``OMP_NUM_THREADS=1``: same input, options and
seed give identical links. ``seed=None`` runs the stock binary, unseeded and multi-threaded.

Long sentences. The binary reads at most :data:`MAX_TOKENS` tokens a sentence and silently gives
a longer pair no links, so such a pair is aligned on its first MAX_TOKENS tokens per side (the
links keep their indices; the build warns of each such pair).
"""

from __future__ import annotations

import contextlib
import os
import struct
import subprocess
import tempfile
from collections.abc import Sequence
from math import sqrt
from pathlib import Path
from typing import Any

from auto_challenge_sets.backends import ALIGNER, Option, register_backend
from auto_challenge_sets.backends.aligners import Aligner, AlignerError, Pair
from auto_challenge_sets.backends.aligners.eflomal_priors import check_priors
from auto_challenge_sets.backends.aligners.symmetrize import SYMMETRIZATIONS, symmetrize
from auto_challenge_sets.backends.file_provenance import file_checksum, file_entry
from auto_challenge_sets.formats.pharaoh import Link, format_pharaoh, parse_pharaoh

_URANDOM = b"/dev/urandom\x00"
_SEED_FILE = "acs_seed.bin"  # exactly as long as "/dev/urandom", so the patched string fits
assert len(_SEED_FILE) + 1 == len(_URANDOM)
MAX_TOKENS = 0x3FF  # eflomal reads longer sentences as empty (MAX_SENT_LEN 0x400): no links


def eflomal_binary() -> Path:
    try:
        import eflomal
    except ImportError:
        raise AlignerError("the eflomal aligner needs the eflomal package: pip install eflomal==2.0.0") from None
    return Path(eflomal.__file__).parent / "bin" / "eflomal"


def make_priors(pairs: Sequence[Pair], out: str | os.PathLike[str], seed: int | None = 1) -> int:
    """Learn eflomal priors from ``pairs`` (all the parallel text at hand) with eflomal's own
    ``calculate_priors``, write them to ``out``, and return the number of pairs."""
    import eflomal

    forward, reverse = EflomalAligner(seed=seed).align_directions(pairs)
    counts = eflomal.calculate_priors([_line(src) for src, _ in pairs], [_line(tgt) for _, tgt in pairs],
                                      [format_pharaoh(links) for links in forward],
                                      [format_pharaoh(links) for links in reverse])
    with open(out, "w", encoding="utf-8") as handle:
        eflomal.write_priors(handle, *counts)
    return len(pairs)


def _mix64(value: int) -> int:
    """splitmix64's finalizer: spreads small seeds over 64 bits (and xorshift must not start at 0)."""
    value = (value + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (value ^ (value >> 31)) or 1


def seeded_binary(directory: Path) -> Path:
    """A copy of eflomal's binary, in ``directory``, that reads its seed from ./acs_seed.bin."""
    data = eflomal_binary().read_bytes()
    if data.count(_URANDOM) != 1:
        raise AlignerError(
            f"cannot seed this build of eflomal ({eflomal_binary()}): it does not read /dev/urandom as "
            "eflomal 2.0.0 does. Install eflomal==2.0.0, or run without a seed (not reproducible)")
    path = directory / "eflomal-seeded"
    path.write_bytes(data.replace(_URANDOM, _SEED_FILE.encode() + b"\x00"))
    path.chmod(0o755)
    return path


def iterations(n_sentences: int, model: int, rel_iterations: float) -> tuple[int, int, int]:
    """eflomal's default iteration counts (as its Python wrapper computes them)."""
    iters = max(2, int(round(rel_iterations * 5000 / sqrt(max(1, n_sentences)))))
    iters4 = max(1, iters // 4)
    if model == 1:
        return iters, 0, 0
    if model == 2:
        return max(2, iters4), iters, 0
    return max(2, iters4), iters4, iters


def _line(tokens: Sequence[str]) -> str:
    """The first MAX_TOKENS tokens as eflomal reads them: split on white space, so none may hold any."""
    return " ".join("".join("_" if ch.isspace() else ch for ch in token) or "_" for token in tokens[:MAX_TOKENS])


@register_backend(ALIGNER, "eflomal")
class EflomalAligner(Aligner):
    """eflomal in both directions, symmetrized; ``seed`` makes reruns identical."""

    requires = ("eflomal",)
    corpus_level = True
    max_tokens = MAX_TOKENS  # longer pairs are aligned on their first MAX_TOKENS tokens per side
    options = (
        Option("symmetrization", str, "grow-diag-final-and", "eflomal: how to combine its two directions",
               choices=SYMMETRIZATIONS),
        Option("seed", int, 1, "eflomal: random seed; the same seed gives the same links", metavar="N"),
        Option("priors", Path, None, "eflomal: a priors file learned from more parallel text (`acs align "
               "--make-priors`); test-set-sized corpora align far better with one", metavar="FILE",
               build_flag="--eflomal-priors"),
        Option("model", int, 3, "eflomal: 1 (IBM1), 2 (HMM) or 3 (HMM+fertility)", choices=(1, 2, 3),
               cli=False),
        Option("n_samplers", int, 3, "eflomal: independent samplers", cli=False, minimum=1),
        Option("rel_iterations", float, 1.0, "eflomal: iterations relative to its default", cli=False),
        Option("null_prior", float, 0.2, "eflomal: prior of the NULL alignment", cli=False),
    )

    def __init__(self, symmetrization: str = "grow-diag-final-and", seed: int | None = 1,
                 priors: str | os.PathLike[str] | None = None, model: int = 3, n_samplers: int = 3,
                 rel_iterations: float = 1.0, null_prior: float = 0.2) -> None:
        self.symmetrization = symmetrization
        self.seed = seed
        self.priors = None if priors is None else Path(priors)
        if self.priors is not None:
            if not self.priors.is_file():
                raise AlignerError(f"eflomal: no priors file {self.priors} (make one with `acs align --make-priors`)")
            check_priors(self.priors)
        self.model = model
        self.n_samplers = n_samplers
        self.rel_iterations = rel_iterations
        self.null_prior = null_prior
        if not eflomal_binary().is_file():
            raise AlignerError(f"eflomal's binary is missing: {eflomal_binary()}")

    def _options(self) -> dict[str, Any]:
        return {"seed": self.seed, "model": self.model, "n_samplers": self.n_samplers,
                "rel_iterations": self.rel_iterations, "null_prior": self.null_prior, "max_tokens": MAX_TOKENS}

    def cache_key(self) -> dict[str, Any]:
        from importlib.metadata import version

        return {"backend": "eflomal", "eflomal": version("eflomal"), "symmetrization": self.symmetrization,
                **self._options(), **({} if self.priors is None else {"priors": file_checksum(self.priors)})}

    def provenance(self) -> dict[str, Any]:
        return {**super().provenance(), "symmetrization": self.symmetrization, "options": self._options(),
                "priors": None if self.priors is None else file_entry(self.priors), "priors_used": self.priors is not None}

    def align(self, pairs: Sequence[Pair]) -> list[list[Link]]:
        forward, reverse = self.align_directions(pairs)
        return [symmetrize(f, r, self.symmetrization) for f, r in zip(forward, reverse)]

    def align_directions(self, pairs: Sequence[Pair]) -> tuple[list[list[Link]], list[list[Link]]]:
        """The two directional alignments, both as (source, target) links."""
        forward: list[list[Link]] = [[] for _ in pairs]
        reverse: list[list[Link]] = [[] for _ in pairs]
        todo = [k for k, (src, tgt) in enumerate(pairs) if len(src) and len(tgt)]
        if not todo:
            return forward, reverse
        import eflomal

        with tempfile.TemporaryDirectory(prefix="acs-eflomal-") as work:
            folder = Path(work)
            source_file, target_file = folder / "source.bin", folder / "target.bin"
            priors_file = folder / "priors.bin" if self.priors is not None else None
            with contextlib.ExitStack() as files:
                src_out = files.enter_context(open(source_file, "wb"))
                tgt_out = files.enter_context(open(target_file, "wb"))
                priors_in = None if self.priors is None else files.enter_context(open(self.priors, encoding="utf-8"))
                priors_out = None if priors_file is None else files.enter_context(open(priors_file, "w", encoding="utf-8"))
                eflomal.Aligner(model=self.model).prepare_files(
                    (_line(pairs[k][0]) + "\n" for k in todo), src_out,
                    (_line(pairs[k][1]) + "\n" for k in todo), tgt_out, priors_in, priors_out)
            outputs = self._run(folder, source_file, target_file, len(todo), priors_file)
            for direction, store in ((0, forward), (1, reverse)):
                lines = outputs[direction]
                for n, k in enumerate(todo):
                    # both files are written in (source, target) orientation by eflomal
                    store[k] = parse_pharaoh(lines[n], n_source=min(len(pairs[k][0]), MAX_TOKENS),
                                             n_target=min(len(pairs[k][1]), MAX_TOKENS),
                                             path=f"eflomal {'reverse' if direction else 'forward'} output",
                                             line=n + 1)
        return forward, reverse

    def _run(self, folder: Path, source_file: Path, target_file: Path, n_sentences: int,
             priors_file: Path | None = None) -> list[list[str]]:
        n1, n2, n3 = iterations(n_sentences, self.model, self.rel_iterations)
        binary = eflomal_binary() if self.seed is None else seeded_binary(folder)
        env = dict(os.environ)
        if self.seed is not None:
            env["OMP_NUM_THREADS"] = "1"
        processes = []
        for direction, flag in ((0, "-f"), (1, "-r")):
            cwd = folder / f"direction-{direction}"
            cwd.mkdir()
            if self.seed is not None:
                (cwd / _SEED_FILE).write_bytes(struct.pack("<Q", _mix64(2 * self.seed + direction)))
            args = [str(binary), "-m", str(self.model), "-s", str(source_file), "-t", str(target_file),
                    "-n", str(self.n_samplers), "-N", str(self.null_prior), "-1", str(n1), "-q"]
            if self.model >= 2:
                args += ["-2", str(n2)]
            if self.model >= 3:
                args += ["-3", str(n3)]
            if priors_file is not None:
                args += ["-p", str(priors_file)]
            args += [flag, str(cwd / "links")]
            try:
                processes.append((cwd, subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                                                        stderr=subprocess.PIPE)))
            except OSError as error:  # e.g. a temporary folder mounted noexec
                raise AlignerError(f"cannot run eflomal ({binary}): {error}") from None
        outputs = []
        for cwd, process in processes:
            _, stderr = process.communicate()
            if process.returncode != 0:
                raise AlignerError(f"eflomal failed (exit {process.returncode}): "
                                   f"{stderr.decode(errors='replace').strip()[-500:]}")
            lines = (cwd / "links").read_text(encoding="utf-8").splitlines()  # digits, "-" and spaces only
            if len(lines) != n_sentences:
                raise AlignerError(f"eflomal wrote {len(lines)} alignment lines for {n_sentences} sentence pairs")
            outputs.append(lines)
        return outputs
