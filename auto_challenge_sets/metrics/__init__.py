"""The metrics above the core (adapters floor): the evaluate module (``metrics/ldd_challenge`` is
``METRIC_PATH``) and its ``compute()`` (:mod:`.compute`, the evaluation engine on rows held in
memory), and the model-based metrics, which may import torch lazily (``comet``)."""
