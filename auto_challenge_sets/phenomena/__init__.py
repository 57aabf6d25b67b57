"""The phenomena a config can name, registered in a fixed order: the paper's and the generic rules
(:mod:`.rules`), each language's own (:mod:`.language_rules`), then the alignment measures
(:mod:`.reordering`), then the rules installed packages declare. Names are imported from the modules themselves; importing any of them runs
this first, so every built-in is registered before a name is looked up.

To add a built-in phenomenon: register its rule in :mod:`.rules` (or :mod:`.language_rules` for one
language's), then add it to the profile of every source language it applies to
(:data:`.profiles.PROFILES`, with a line saying why): tests/test_language_profiles.py fails for a
built-in that no profile names.
"""

from auto_challenge_sets.phenomena import (
    language_rules,  # noqa: F401, I001  (registered after the generic rules)
    rules,  # noqa: F401  (registered first)
)
from auto_challenge_sets.phenomena.registry import (
    BUILTIN,
    PHENOMENA,
    load_entry_point_phenomena,
    register_alignment_phenomenon,
)
from auto_challenge_sets.phenomena.reordering import crossing_measure, normalised_measure

register_alignment_phenomenon(
    "reorder", "an aligned source/target word pair far apart: |i - j| >= D on token indices (the paper's)")
register_alignment_phenomenon(
    "reorder_norm", "an aligned pair of word tokens far apart once the target is scaled to the source's "
    "length: floor(|i - j*n/m|) >= D", normalised_measure, (5, 10, 15, 20))
register_alignment_phenomenon(
    "crossing", "crossing alignment links: at least D% of the pairs of word links cross (Kendall-style)",
    crossing_measure, (5, 10, 20, 30))

BUILTIN.update(PHENOMENA)
load_entry_point_phenomena()  # the installed packages' rules, after the built-ins
