"""The command line: ``tilestream serve``, ``score``, ``top``, ``compile`` and the rest."""
