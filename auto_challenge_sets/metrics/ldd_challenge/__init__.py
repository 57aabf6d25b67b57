"""The ``ldd_challenge`` evaluate module: ``evaluate.load(auto_challenge_sets.METRIC_PATH)`` loads its script."""
