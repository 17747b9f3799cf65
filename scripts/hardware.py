#!/usr/bin/env python3
"""Make the box's files: python scripts/hardware.py parts|schematic|models|renders|all|check.

The code lives in hardware/boxmaker/ (beside the files it makes); ``--help`` says more.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hardware"))

from boxmaker.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
