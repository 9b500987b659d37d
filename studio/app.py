"""Entry point: `studio` (or `python main.py`) starts the app; subcommands script it.

    studio                      start the desktop app
    studio --version
    studio screenshot --out DIR [--lang en|zh_CN] [--theme light|dark]
    studio smoke                open every pane offscreen; print time to first paint
    studio stats --json         counts as one JSON object
    studio import notes PATH... [--copy] [--year Y] [--encoding NAME] [--duplicates keep-both|keep-newest|skip] [--json]
    studio import anki FILE [--history keep|new] [--encoding NAME] [--duplicates keep-both|keep-newest|skip] [--max-size MB] [--max-ratio N] [--time-limit S] [--json]
    studio import reviews FILE [--json]   reviews done in Anki on cards exported from here
    studio export interviews --format csv|md --out FILE
    studio export cards --format csv|apkg --out FILE [--query Q] [--language en|zh|both]
    studio db check | backups [--json] | backup | restore ID|newest | salvage

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
    imp = sub.add_parser("import", help="import notes (with their cards and interview tables)")
    imp_sub = imp.add_subparsers(dest="what", required=True)
    notes = imp_sub.add_parser("notes", help="Markdown files or folders")
    notes.add_argument("paths", nargs="+")
    notes.add_argument("--copy", action="store_true", help="copy the notes into the data folder (default: link in place)")
    notes.add_argument("--year", type=int, help="one year for every interview date written without one "
                       "(default: placed near the note's front matter date, else the file's time)")
    notes.add_argument("--encoding", help="encoding for files whose encoding is not clear, e.g. latin-1 "
                       "(UTF-8 files and clearly detected ones are read as they are)")
    notes.add_argument("--duplicates", choices=("keep-both", "keep-newest", "skip"), default="keep-both",
                       help="the same question twice: keep both (default), keep the newest, or skip the later")
    notes.add_argument("--json", action="store_true")
    anki = imp_sub.add_parser("anki", help="an Anki deck (.apkg) or Anki-style CSV/TSV")
    anki.add_argument("file")
    anki.add_argument("--history", choices=("keep", "new"), default="keep",
                      help="keep review history (replayed into FSRS) or import every card as new")
    anki.add_argument("--encoding", help="encoding for a CSV/TSV whose encoding is not clear, e.g. cp1252 "
                      "(UTF-8 files and clearly detected ones are read as they are)")
    anki.add_argument("--duplicates", choices=("keep-both", "keep-newest", "skip"), default="keep-both",
                      help="a question found twice (in the deck or already in the collection): keep both, "
                           "keep the newest text (the collection's card keeps its scheduling), or skip it")
    anki.add_argument("--max-size", type=int, metavar="MB",
                      help="largest collection a package may expand to (default 512)")
    anki.add_argument("--max-ratio", type=int, metavar="N",
                      help="most a package may expand past 16 MB, as a multiple of its size (default 200)")
    anki.add_argument("--time-limit", type=float, metavar="SECONDS",
                      help="longest reading one file may take (default 60)")
    anki.add_argument("--json", action="store_true")
    rev = imp_sub.add_parser("reviews", help="reviews done in Anki (e.g. on the phone) on cards exported from here: "
                             "an .apkg exported with scheduling, or a .colpkg backup")
    rev.add_argument("file")
    rev.add_argument("--json", action="store_true")
    exp = sub.add_parser("export", help="export data")
    exp_sub = exp.add_subparsers(dest="what", required=True)
    ivx = exp_sub.add_parser("interviews", help="the interview log")
    ivx.add_argument("--format", choices=("csv", "md"), default="csv")
    ivx.add_argument("--out", required=True)
    cx = exp_sub.add_parser("cards", help="cards, for Anki or a spreadsheet")
    cx.add_argument("--format", choices=("csv", "apkg"), default="csv")
    cx.add_argument("--out", required=True)
    cx.add_argument("--query", default="", help="the card browser's search, e.g. 'tag:cuda -is:suspended'")
    cx.add_argument("--language", choices=("en", "zh", "both"), default="both",
                    help="apkg: the language shown on the cards (both: English, a divider, Chinese; "
                         "a card without the chosen language shows the other)")
    dbp = sub.add_parser("db", help="check, back up, restore or salvage the database")
    db_sub = dbp.add_subparsers(dest="what", required=True)
    db_sub.add_parser("check", help="full integrity check (read-only); exit 1 if damaged")
    lb = db_sub.add_parser("backups", help="list the backups with their dates and counts")
    lb.add_argument("--json", action="store_true")
    db_sub.add_parser("backup", help="make a verified backup now")
    rs = db_sub.add_parser("restore", help="put a backup in place (the current file is kept aside)")
    rs.add_argument("id", help="a backup id from `studio db backups` (a unique prefix is enough), or 'newest'")
    db_sub.add_parser("salvage", help="copy every readable row of a damaged database into a fresh one")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command; a full disk, read-only folder or damaged file ends in one sentence, exit 2."""
    try:
        return _dispatch(argv)
    except Exception as exc:
        from studio.core.errors import describe

        message = describe(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return 2


def _dispatch(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "stats":
        return _stats(args.json)
    if args.command == "import":
        if args.what == "reviews":
            return _import_reviews(args)
        return _import_anki(args) if args.what == "anki" else _import_notes(args)
    if args.command == "export":
        return _export_cards(args) if args.what == "cards" else _export(args)
    if args.command == "db":
        from studio.dbcli import run_db_command

        return run_db_command(args)
    # The window is painted before the database modules (SQLAlchemy, the models, FSRS:
    # ~300 ms) are imported: `run_gui` and `run_smoke` open the collection after the first
    # paint. (Imported after PySide6 they cost more CPU: its __feature__ import hook reads
    # the source of each module imported after it; bench/results/startup_today.md.)
    from studio.ui.application import run_gui, run_screenshot, run_smoke

    if args.command == "screenshot":
        return run_screenshot(args.out, args.lang, args.theme)
    if args.command == "smoke":
        return run_smoke(T0_WALL)
    return run_gui()


def _open_collection():
    from studio.core.collection import Collection
    from studio.core.db import DatabaseProblem, DatabaseReadOnly

    problem: DatabaseProblem
    try:
        return Collection.open()
    except DatabaseReadOnly as read_only:
        print(f"note: {read_only.summary()} Opened read-only: nothing will be saved. ({read_only.detail})",
              file=sys.stderr)
        try:
            return Collection.open(read_only=True)
        except DatabaseProblem as again:
            problem = again
    except DatabaseProblem as other:
        problem = other
    from studio.dbcli import explain_problem

    print(explain_problem(problem), file=sys.stderr)
    return None


def _known_encoding(name: str) -> bool:
    """True for a codec Python knows; else a one-line error naming it."""
    from studio.core.importers.text_files import UnreadableFile, check_encoding

    try:
        check_encoding(name)
    except UnreadableFile as exc:
        print(f"error: --encoding: {exc}", file=sys.stderr)
        return False
    return True


def _import_notes(args) -> int:
    from pathlib import Path

    from studio.core.importers.notes_import import apply_import, plan_import

    if args.encoding and not _known_encoding(args.encoding):
        return 2
    col = _open_collection()
    if col is None:
        return 2
    try:
        plan = plan_import([Path(p) for p in args.paths], encoding=args.encoding)
        summary = apply_import(col, plan, copy=args.copy, year=args.year,
                               duplicates=args.duplicates.replace("-", "_"))
    finally:
        col.close()
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        print(f"notes: {summary.notes}  cards: {summary.cards} new, {summary.cards_updated} updated  "
              f"interviews: {summary.interviews}")
        for line in summary.lines():
            print(line)
    missing = [p for p in args.paths if not Path(p).exists()]
    return 2 if missing or not plan.files or plan.unclear else 0


def _import_anki(args) -> int:
    from dataclasses import replace
    from pathlib import Path

    from studio.core.importers.anki import Limits, apply_cards, plan_cards

    if args.encoding and not _known_encoding(args.encoding):
        return 2
    limits = Limits()
    for flag, name, value in (("--max-size", "max_entry_mb", args.max_size), ("--max-ratio", "max_ratio", args.max_ratio),
                              ("--time-limit", "time_limit_s", args.time_limit)):
        if value is not None and not value > 0:
            print(f"error: {flag} must be a positive number, not {value}", file=sys.stderr)
            return 2
        if value is not None:
            limits = replace(limits, **{name: value})
    duplicates = args.duplicates.replace("-", "_")
    plan = plan_cards(Path(args.file), limits, encoding=args.encoding)
    col = _open_collection()
    if col is None:
        return 2
    try:
        col.sync_shipped_cards()  # so an exported shipped card comes back to itself, not as a copy
        summary = apply_cards(col, plan, history=args.history, duplicates=duplicates)
    finally:
        col.close()
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        print(f"cards: {summary.cards} new, {summary.cards_updated} updated  "
              f"(history: {args.history}, duplicates: {args.duplicates})")
        for line in summary.lines():
            print(line)
    return 2 if not plan.cards else 0


def _import_reviews(args) -> int:
    from pathlib import Path

    from studio.core.importers.anki_reviews import import_reviews

    col = _open_collection()
    if col is None:
        return 2
    try:
        col.sync_shipped_cards()  # shipped cards exist under their keys before matching
        summary = import_reviews(col, Path(args.file))
    finally:
        col.close()
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False))
    else:
        for line in summary.lines():
            print(line)
    return 0 if summary.completed else 2


def _export_cards(args) -> int:
    from pathlib import Path

    from studio.core.cards import SearchSyntaxError
    from studio.core.exporters import export_cards

    col = _open_collection()
    if col is None:
        return 2
    try:
        col.sync_shipped_cards()
        result = export_cards(col, args.format, Path(args.out), args.query, args.language)
    except SearchSyntaxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {args.out}: {exc}", file=sys.stderr)
        return 2
    finally:
        col.close()
    print(f"exported {result.cards} cards ({result.notes} notes, {result.reviews} reviews"
          f"{f', {result.media} images' if result.media else ''}) to {args.out}")
    for problem in result.problems:
        print(f"  {problem}")
    return 0


def _export(args) -> int:
    from pathlib import Path

    from studio.core.interviews import export_csv, export_markdown, list_interviews

    col = _open_collection()
    if col is None:
        return 2
    try:
        rows = list_interviews(col)
    finally:
        col.close()
    text = export_csv(rows) if args.format == "csv" else export_markdown(rows)
    Path(args.out).write_text(text, encoding="utf-8", newline="")
    print(f"exported {len(rows)} interviews to {args.out}")
    return 0


def _stats(as_json: bool) -> int:
    col = _open_collection()
    if col is None:
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
