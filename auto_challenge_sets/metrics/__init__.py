"""The metrics above the core (adapters floor): the evaluate module (``metrics/ldd_challenge`` is
``METRIC_PATH``) and the model-based metrics, which may import torch lazily (``comet``)."""
