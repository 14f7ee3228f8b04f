"""`python -m protocol --write docs/protocol.schema.json` (or `--check`)."""

import sys

from protocol.schema import main

sys.exit(main())
