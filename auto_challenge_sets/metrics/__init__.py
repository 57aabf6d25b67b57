"""The evaluate modules of the package (adapters floor): ``metrics/ldd_challenge`` is ``METRIC_PATH``."""
