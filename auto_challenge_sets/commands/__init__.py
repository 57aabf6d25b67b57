"""One module per ``acs`` subcommand; each defines ``register(subparsers)`` (see ``cli.py``)."""
