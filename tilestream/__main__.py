"""``python -m tilestream``: the ``tilestream`` command."""

from server.cli.main import main

raise SystemExit(main())
