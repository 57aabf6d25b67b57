"""Which parser and aligner a build uses when none is named: one policy for ``acs build``,
``BuildSpec(aligner="auto")`` and the published recipes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

DEFAULT_PARSER = "trankit"
DEFAULT_ALIGNER = "simalign"  # contextual embeddings: the better alignments to measure reordering with
FALLBACK_ALIGNER = "eflomal"  # statistical, learnt on the corpus itself: needs no model
AUTO_ALIGNER = "auto"  # "decide with default_aligner"
NO_ALIGNER = "none"  # no alignment: the reorder configs are not built


class AlignerChoice(NamedTuple):
    """What :func:`default_aligner` chose, and the note to show where it is not the default."""

    name: str
    note: str | None = None


def default_aligner(options: Mapping[str, Any] | None = None) -> AlignerChoice:
    """simalign when its model can be had (simalign ``options`` set, the model in the Hugging Face
    cache, or a reachable Hub); else eflomal, which needs no model, with a note saying so."""
    from auto_challenge_sets.backends.aligners.simalign import DEFAULT_MODEL, is_offline
    from auto_challenge_sets.backends.hub import hub_reachable
    from auto_challenge_sets.backends.inventory import simalign_check

    if options or simalign_check(DEFAULT_MODEL).ok:
        return AlignerChoice(DEFAULT_ALIGNER)  # simalign's options were set, or its model is here
    if not is_offline() and hub_reachable():
        return AlignerChoice(DEFAULT_ALIGNER)  # fetched on first use
    return AlignerChoice(FALLBACK_ALIGNER, (
        f"simalign's model {DEFAULT_MODEL} is not here and the Hub cannot be reached: aligned with "
        f"{FALLBACK_ALIGNER} instead (name {DEFAULT_ALIGNER} as the aligner to insist, or a local copy with "
        "--align-model DIR; `acs doctor` says how to get the model)"))
