"""``python -m spielleiter.device.cli``: the same as the ``spielleiter`` command."""

import sys

from . import main

sys.exit(main())
