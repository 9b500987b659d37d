"""The user's own note folders: registering, scanning, indexing and linking.

A folder registered with "Add notes folder…" is scanned for Markdown files; each is
decoded (UTF-8, UTF-8 with BOM, or GB18030 — what Chinese Windows editors save) and
indexed as a `Note` row with source='folder', so full-text search, wiki-links and
back-links cover it. Files that cannot be decoded (binary data with a .md name, other
encodings) are reported and skipped. The user's files are only ever read, never written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from sqlalchemy import or_, select

from studio.core.frontmatter import split_front_matter
from studio.core.models import Note, NoteFolder

NOTE_SUFFIXES = (".md", ".markdown")
_SKIP_DIRS = {".git", ".obsidian", ".trash", "node_modules", "__pycache__"}
# Text up to this size renders as Markdown; beyond it the note is shown in part, with a message.
MAX_RENDER_CHARS = 1_500_000


class NoteDecodeError(ValueError):
    """The file is not text in an encoding we read; the message says why."""


class NoteFolderError(ValueError):
    """A folder cannot be registered (missing, not a folder, already added)."""


@dataclass
class ScanReport:
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # path, reason


@dataclass
class NoteRef:
    """Enough about a note to list it and open it."""

    id: int
    path: str
    title: str
    node_id: str | None = None
    source: str = "folder"


@dataclass
class FolderListing:
    id: int
    path: str
    notes: list[NoteRef]
    missing: bool = False


def decode_note(data: bytes) -> str:
    """Decode a note's bytes: UTF-8 (with or without BOM), else the encoding detector's best
    reading (GB18030 Chinese, Latin-1...: studio.core.importers.text_files); else raise."""
    from studio.core.importers.text_files import UnreadableFile, detect

    if b"\x00" in data[:65536]:
        raise NoteDecodeError("binary data, not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = detect(data).text
    except UnreadableFile as exc:
        raise NoteDecodeError(str(exc)) from exc
    if any(ord(ch) < 32 and ch not in "\t\r\n\f" for ch in text[:65536]):
        raise NoteDecodeError("binary data, not a text file")
    return text


def read_note_file(path: Path) -> str:
    """Read and decode a note file (read-only); raise NoteDecodeError or OSError."""
    return decode_note(Path(path).read_bytes())


def note_title(front_title: str, body: str, path: Path) -> str:
    """The note's display title: front matter title, else its first H1, else the file name."""
    if front_title:
        return front_title
    return _first_h1(body[:20000]) or Path(path).stem


def _first_h1(text: str) -> str:
    """The text of the first "# Title" line, closing '#'s dropped; "" when there is none.

    Read line by line with str methods: the pattern this replaces ("^#\\s+(.+?)\\s*#*\\s*$")
    split a run of spaces three ways and took 28 s on a 2.5 KB heading while a notes folder
    was indexed (issue #16).
    """
    for line in text.splitlines():
        if line[:1] != "#" or not line[1:2].isspace():
            continue
        title = line[1:].strip()
        bare = title.rstrip("#").rstrip()
        if bare or title:
            return bare or title[:1]
    return ""


def _utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


# ----- folders -----------------------------------------------------------------------------
def register_folder(col, folder: Path | str) -> int:
    """Register a notes folder and return its id; it is indexed by `scan_folder`."""
    path = Path(folder).expanduser().resolve()
    if not path.is_dir():
        raise NoteFolderError(f"{path}: not a folder")
    with col.db.session() as s, s.begin():
        existing = s.scalar(select(NoteFolder).where(NoteFolder.path == str(path)))
        if existing is not None:
            return existing.id
        row = NoteFolder(path=str(path), added_at=_utcnow())
        s.add(row)
        s.flush()
        return row.id


def remove_folder(col, folder_id: int) -> None:
    """Forget a folder and its index rows; the files themselves are not touched."""
    with col.db.session() as s, s.begin():
        for note in s.scalars(select(Note).where(Note.folder_id == folder_id)):
            s.delete(note)
        row = s.get(NoteFolder, folder_id)
        if row is not None:
            s.delete(row)


def folder_paths(col) -> list[tuple[int, str]]:
    with col.db.session() as s:
        return [(f.id, f.path) for f in s.scalars(select(NoteFolder).order_by(NoteFolder.path))]


def note_files(root: Path) -> list[Path]:
    """Markdown files under a folder, hidden and tool folders skipped, sorted."""
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.lower().endswith(NOTE_SUFFIXES) and not name.startswith("."):
                found.append(Path(dirpath) / name)
    return found


def _fill(note: Note, path: Path, text: str, st: os.stat_result) -> None:
    fm, body = split_front_matter(text)
    note.title = note_title(fm.title, body, path)
    note.node_id = fm.node or None
    note.lang = None
    note.tags = " ".join(fm.tags + fm.categories)
    note.body = body
    note.mtime = st.st_mtime
    note.size = st.st_size


def scan_folder(col, folder_id: int, progress: Callable[[int, int], None] | None = None) -> ScanReport:
    """Index a registered folder: new and changed files are read, vanished ones dropped.

    `progress(done, total)` is called as files are processed (for a progress bar).
    """
    report = ScanReport()
    with col.db.session() as s, s.begin():
        folder = s.get(NoteFolder, folder_id)
        if folder is None:
            raise NoteFolderError(f"no notes folder with id {folder_id}")
        root = Path(folder.path)
        files = note_files(root) if root.is_dir() else []
        known = {n.path: n for n in s.scalars(select(Note).where(Note.folder_id == folder_id))}
        total = len(files)
        for n, path in enumerate(files, start=1):
            note = known.pop(str(path), None)
            try:
                st = path.stat()
                if note is not None and note.mtime == st.st_mtime and note.size == st.st_size:
                    report.unchanged += 1
                    continue
                text = read_note_file(path)
            except (OSError, NoteDecodeError) as exc:
                report.skipped.append((str(path), str(exc)))
                if note is not None:
                    s.delete(note)
                continue
            finally:
                if progress is not None and (n % 25 == 0 or n == total):
                    progress(n, total)
            if note is None:
                note = Note(path=str(path), source="folder", folder_id=folder_id)
                s.add(note)
            _fill(note, path, text, st)
            report.indexed += 1
        for gone in known.values():
            s.delete(gone)
            report.removed += 1
    return report


def scan_all_folders(col, progress: Callable[[int, int], None] | None = None) -> ScanReport:
    total = ScanReport()
    for folder_id, _ in folder_paths(col):
        part = scan_folder(col, folder_id, progress)
        total.indexed += part.indexed
        total.unchanged += part.unchanged
        total.removed += part.removed
        total.skipped.extend(part.skipped)
    return total


def reindex_file(col, path: Path | str) -> str:
    """Re-read one file after a change on disk; returns '' or the reason it was skipped."""
    path = Path(path)
    with col.db.session() as s, s.begin():
        note = s.scalar(select(Note).where(Note.path == str(path)))
        if note is None or note.source != "folder":
            return ""
        try:
            st = path.stat()
            text = read_note_file(path)
        except FileNotFoundError:
            s.delete(note)
            return "file removed"
        except (OSError, NoteDecodeError) as exc:
            return str(exc)
        _fill(note, path, text, st)
    return ""


def list_folders(col) -> list[FolderListing]:
    """Registered folders with their indexed notes, for the "My notes" tree."""
    out: list[FolderListing] = []
    with col.db.session() as s:
        for folder in s.scalars(select(NoteFolder).order_by(NoteFolder.path)):
            rows = s.execute(select(Note.id, Note.path, Note.title, Note.node_id)
                             .where(Note.folder_id == folder.id).order_by(Note.path))
            notes = [NoteRef(r[0], r[1], r[2], r[3]) for r in rows]
            out.append(FolderListing(folder.id, folder.path, notes, missing=not Path(folder.path).is_dir()))
    return out


# ----- links -------------------------------------------------------------------------------
def _ref(note: Note) -> NoteRef:
    return NoteRef(note.id, note.path, note.title, note.node_id, note.source)


def resolve_link(col, target: str, from_path: str | None = None, lang: str = "en") -> NoteRef | None:
    """Find the note a wiki-link or relative link names.

    Tried in order: a path relative to the linking note, a note title, a file name
    (without extension), a shipped note's stem or roadmap node id (in `lang` first).
    """
    target = target.strip()
    if not target:
        return None
    with col.db.session() as s:
        if from_path:
            candidate = (Path(from_path).parent / target).resolve()
            for path in (candidate, candidate.with_name(candidate.name + ".md")):
                note = s.scalar(select(Note).where(Note.path == str(path)))
                if note is not None:
                    return _ref(note)
        notes = list(s.scalars(select(Note).where(or_(
            Note.title == target, Note.node_id == target,
            Note.path.like("%" + _like_escape(Path(target).stem) + "%", escape="\\")))))
    stem = Path(target).name
    stem = stem[:-3] if stem.lower().endswith(".md") else stem

    def rank(note: Note) -> tuple[int, int]:
        p = Path(note.path)
        if note.title == target:
            order = 0
        elif p.stem == stem:
            order = 1
        elif note.source == "shipped" and (p.stem == f"{stem}.{lang}" or note.node_id == target):
            order = 2 if note.lang == lang else 3
        else:
            order = 9
        return order, 0 if note.source == "folder" else 1

    ranked = sorted((rank(n), n.path, n) for n in notes)
    if ranked and ranked[0][0][0] < 9:
        return _ref(ranked[0][2])
    return None


def _like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def backlinks(col, path: str) -> list[NoteRef]:
    """Notes that link to the note at `path` by wiki-link (title or file name) or by file link."""
    with col.db.session() as s:
        note = s.scalar(select(Note).where(Note.path == path))
        if note is None:
            return []
        stem = Path(path).stem
        names = {note.title, stem}
        if note.source == "shipped":
            names.add(stem.rpartition(".")[0] or stem)
            if note.node_id:
                names.add(note.node_id)
        names.discard("")
        patterns = []
        for name in names:
            esc = _like_escape(name)
            patterns += [f"%[[{esc}]]%", f"%[[{esc}|%", f"%[[{esc}#%"]
        patterns.append(f"%]({_like_escape(Path(path).name)})%")
        patterns.append(f"%/{_like_escape(Path(path).name)})%")
        clause = or_(*[Note.body.like(p, escape="\\") for p in patterns])
        rows = s.scalars(select(Note).where(clause, Note.id != note.id).order_by(Note.title))
        return [_ref(r) for r in rows]


@dataclass
class LoadedNote:
    """A note read from disk and rendered, with what links to it."""

    path: str
    title: str
    rendered: object | None  # RenderedNote
    backlinks: list[NoteRef] = field(default_factory=list)
    error: str = ""


def load_note_file(col, path: str, dark: bool = False, copy_label: str = "") -> LoadedNote:
    """Read, decode and render a note file; problems come back in `error`, never raised."""
    from studio.core.markdown_render import render_markdown

    p = Path(path)
    try:
        text = read_note_file(p)
    except FileNotFoundError:
        return LoadedNote(path, p.stem, None, error="file not found")
    except (OSError, NoteDecodeError) as exc:
        return LoadedNote(path, p.stem, None, error=str(exc))
    problems: list[str] = []
    if len(text) > MAX_RENDER_CHARS:
        text = text[:MAX_RENDER_CHARS]
        problems.append(f"the note is very large; showing its first {MAX_RENDER_CHARS:,} characters")
    lang = "zh" if p.stem.endswith(".zh") else "en"
    titles = {n.id: n.title(lang) for n in col.roadmap.walk()} if col.roadmap is not None else None
    rendered = render_markdown(text, dark=dark, base_dir=p.parent, copy_label=copy_label, titles=titles)
    rendered.problems[:0] = problems
    title = note_title(rendered.front.title, "", p) if rendered.front.title else _first_heading(rendered, p)
    return LoadedNote(path, title, rendered, backlinks(col, str(p)))


def _first_heading(rendered, path: Path) -> str:
    for level, text, _anchor in rendered.headings:
        if level == 1:
            return text
    return path.stem
