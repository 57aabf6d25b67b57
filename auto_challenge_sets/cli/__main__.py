"""``python -m auto_challenge_sets.cli``: the ``acs`` command line."""

import sys

from auto_challenge_sets.cli import main

sys.exit(main())
