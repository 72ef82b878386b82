"""The ``tilestream`` command."""
