"""Entry point of the drill child process: `python -m studio.drills.harness`."""

from studio.drills.harness.judge import main

raise SystemExit(main())
