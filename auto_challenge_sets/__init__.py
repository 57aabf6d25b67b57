"""auto_challenge_sets: challenge sets of long-distance dependencies for machine translation."""

__version__ = "0.1.0"
