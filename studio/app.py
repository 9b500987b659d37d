"""Entry point: `studio` (or `python main.py`) starts the app; subcommands script it.

    studio                      start the desktop app
    studio --version
    studio screenshot --out DIR [--lang en|zh_CN] [--theme light|dark]
    studio smoke                open every pane offscreen; print time to first paint
    studio stats --json         counts as one JSON object

Qt is imported only for the commands that need it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from studio import __version__

# Start of this process's clock for "time to first paint": the spawn time when a
# benchmark passes it (wall clock), else the moment this module was imported.
T0_WALL = float(os.environ.get("STUDIO_SPAWN_T0", "0")) or time.time()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="studio", description="ML Infra Studio")
    parser.add_argument("--version", action="version", version=f"ML Infra Studio {__version__}")
    sub = parser.add_subparsers(dest="command")
    shot = sub.add_parser("screenshot", help="render every pane offscreen to DIR/<pane>.png")
    shot.add_argument("--out", required=True)
    shot.add_argument("--lang", choices=("en", "zh_CN"), default="en")
    shot.add_argument("--theme", choices=("light", "dark"), default="light")
    sub.add_parser("smoke", help="open the window and every pane offscreen; print time to first paint")
    stats = sub.add_parser("stats", help="print collection counts")
    stats.add_argument("--json", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "stats":
        return _stats(args.json)
    from studio.ui.application import run_gui, run_screenshot, run_smoke

    if args.command == "screenshot":
        return run_screenshot(args.out, args.lang, args.theme)
    if args.command == "smoke":
        return run_smoke(T0_WALL)
    return run_gui()


def _stats(as_json: bool) -> int:
    from studio.core.collection import Collection
    from studio.core.db import DatabaseProblem

    try:
        col = Collection.open()
    except DatabaseProblem as exc:
        print(f"error: {exc.summary()} ({exc.path}): {exc.detail}", file=sys.stderr)
        return 2
    try:
        col.sync_shipped_cards()
        col.index_shipped_notes()
        counts = col.counts()
    finally:
        col.close()
    if as_json:
        print(json.dumps(counts))
    else:
        for key, value in counts.items():
            print(f"{key:>15}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
