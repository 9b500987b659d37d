"""Cards from CSV/TSV files in Anki's text format, header lines included.

Anki writes (and reads) optional header lines before the rows:
    #separator:Tab | Comma | Semicolon | Space | Pipe | Colon | a single character
    #html:true|false        fields hold HTML (stripped to text) or plain text
    #columns:Front,Back,Tags    column names, in the file's separator
    #tags column:N  #guid column:N  #deck column:N  #notetype column:N   (1-based)
    #tags:a b   #deck:NAME  tags / deck for every row
Without a separator line the first row decides (tab, then semicolon, comma, pipe). The
remaining columns are the card's fields: the first is the question, the rest the answer,
unless the columns are named as this app's export names them (Front, Back, Front (zh),
Back (zh)). A row whose field count does not match (a mixed separator, usually) is skipped
and reported with its line; a row with a guid gets the key "anki:<guid>", other rows a key
from the question's text ("-2", "-3"... for the same question again further down), so
importing the same file again updates in place, and no row is merged into another.

The file's encoding is decided as for notes (text_files.read_for_import): UTF-8 as is, a
clear detection as detected, an unclear one refused (the CLI's --encoding reads it) or, in
the preview, read in the best guess and flagged; the plan says how each file was read.

Every step is linear in the file's size (cloze numbers are found by one scan, not a
backtracking pattern), and reading stops with a clear line past `Limits.time_limit_s`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from pathlib import Path

from studio.core.importers.anki import CardPlan, ImportedCard, OWN_FIELDS, guid_key, split_language
from studio.core.importers.anki_limits import Deadline, Limits
from studio.core.importers.field_text import html_to_text
from studio.core.importers.text_files import EncodingUnclear, UnreadableFile, read_for_import, refusal

SEPARATORS = {"tab": "\t", "comma": ",", "semicolon": ";", "space": " ", "pipe": "|", "colon": ":"}
_HEADER = re.compile(r"^#([a-zA-Z ]+):(.*)$")
_SPECIAL = ("tags", "guid", "deck", "notetype")


def _separator(value: str) -> str | None:
    value = value.strip()
    if value.lower() in SEPARATORS:
        return SEPARATORS[value.lower()]
    if value == "\\t":
        return "\t"
    return value if len(value) == 1 else None


def _guess_separator(line: str, suffix: str) -> str:
    if suffix == ".tsv" or "\t" in line:
        return "\t"
    counts = {sep: line.count(sep) for sep in (";", ",", "|")}
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else ","


def _text_key(question: str) -> str:
    norm = re.sub(r"\s+", " ", question).strip().lower()
    return "csv:" + hashlib.sha1(norm.encode()).hexdigest()[:16]


def plan_csv(path: Path, limits: Limits | None = None, *, encoding: str | None = None,
             chosen: str | None = None, guess: bool = False) -> CardPlan:
    """The cards of one Anki-style CSV/TSV file, with a problem line for every bad row.

    `chosen` is the user's encoding for this file, `encoding` the one for a file whose
    encoding is unclear, `guess` reads such a file in the best guess (text_files.read_for_import).
    """
    plan = CardPlan(path)
    deadline = Deadline(limits or Limits())
    try:
        reading, read_as = read_for_import(path, chosen, encoding, guess)
    except UnreadableFile as exc:
        if isinstance(exc, EncodingUnclear):
            plan.unclear[path] = exc.candidates
        plan.problems.append(refusal(path, exc))
        return plan
    except OSError as exc:
        plan.problems.append(f"{path}: cannot read: {exc}")
        return plan
    if read_as is not None:
        plan.encodings[path] = read_as
    lines = reading.text.splitlines(keepends=True)
    headers: dict[str, str] = {}
    first = 0
    while first < len(lines) and _HEADER.match(lines[first].rstrip("\r\n")):
        m = _HEADER.match(lines[first].rstrip("\r\n"))
        headers[m.group(1).strip().lower()] = m.group(2)
        first += 1
    sep = None
    if "separator" in headers:
        sep = _separator(headers["separator"])
        if sep is None:
            plan.problems.append(f"{path}:1: unknown separator {headers['separator']!r}; guessing from the first row")
    body = "".join(lines[first:])
    if sep is None:
        sep = _guess_separator(next((l for l in lines[first:] if l.strip()), ""), path.suffix.lower())
    is_html = headers.get("html", "false").strip().lower() == "true"
    special = {}
    for name in _SPECIAL:
        raw = headers.get(f"{name} column", "").strip()
        if raw:
            if raw.isdigit() and int(raw) >= 1:
                special[name] = int(raw) - 1
            else:
                plan.problems.append(f"{path}: cannot read '#{name} column:{raw}'; ignored")
    names = [c.strip() for c in headers["columns"].split(sep)] if headers.get("columns") else []
    all_tags = headers.get("tags", "").split()
    deck_all = headers.get("deck", "").strip()
    expected = len(names) or None
    reader = csv.reader(io.StringIO(body), delimiter=sep, quotechar='"', strict=False)
    start_line = first + 1
    used: set[str] = set()
    try:
        for row in reader:
            line = start_line + reader.line_num - 1
            if deadline.expired():
                plan.refuse(deadline.problem(f"stopped at line {line}"))
                return plan
            if not any(cell.strip() for cell in row):
                continue
            if expected is None:
                expected = len(row)
            if len(row) != expected:
                hint = " (mixed separators?)" if any(o in "".join(row) for o in "\t;,|" if o != sep) else ""
                plan.problems.append(f"{path}:{line}: {len(row)} fields where {expected} were expected{hint}; "
                                     f"the separator is {sep!r}; row skipped")
                continue
            card = _row_card(row, names, special, is_html, all_tags, deck_all)
            if card is None:
                plan.problems.append(f"{path}:{line}: the question field is empty; row skipped")
                continue
            base, n = card.key, 2
            while card.key in used:  # the same question again: its own key, by its place in the file
                card.key, n = f"{base}-{n}", n + 1
            used.add(card.key)
            card.origin = json.dumps({"file": str(path), "line": line})
            card.where = f"line {line}"
            plan.cards.extend(_expand_cloze(card))
    except csv.Error as exc:
        plan.problems.append(f"{path}:{start_line + reader.line_num - 1}: {exc}; the rest of the file is skipped")
    if not plan.cards and not plan.problems:
        plan.problems.append(f"{path}: no cards found")
    return plan


def _row_card(row, names, special, is_html, all_tags, deck_all) -> ImportedCard | None:
    clean = (html_to_text if is_html else str.strip)
    skip = set(special.values())
    fields = [(names[i] if i < len(names) else "", clean(v)) for i, v in enumerate(row) if i not in skip]
    if not fields or not fields[0][1]:
        return None
    tags = all_tags + (row[special["tags"]].split() if "tags" in special and special["tags"] < len(row) else [])
    guid = row[special["guid"]].strip() if "guid" in special and special["guid"] < len(row) else ""
    deck = row[special["deck"]].strip() if "deck" in special and special["deck"] < len(row) else deck_all
    by_name = dict(fields)
    if all(n in by_name for n in OWN_FIELDS[:2]) and any(n in by_name for n in OWN_FIELDS[2:]):
        texts = dict(q_en=by_name.get("Front", ""), a_en=by_name.get("Back", ""),
                     q_zh=by_name.get("Front (zh)", ""), a_zh=by_name.get("Back (zh)", ""))
        if not (texts["q_en"] or texts["q_zh"]):
            return None
    else:
        question = fields[0][1]
        answer = "\n\n".join(v for _, v in fields[1:] if v)
        texts = split_language(question, answer)
    key = guid_key(guid) if guid else _text_key(texts["q_en"] or texts["q_zh"])
    return ImportedCard(key=key, alt_key=guid, tags=" ".join(dict.fromkeys(t.lower() for t in tags)),
                        deck=deck[:100], **texts)


_CLOZE_OPEN = re.compile(r"\{\{c(\d{1,4})::")


def cloze_numbers(text: str) -> set[int]:
    """The deletion numbers of "{{cN::...}}" in text, each closed by a later "}}".

    What decks.CLOZE_RE finds, in one pass: that pattern backtracks (cubic on "{{c1::" repeated
    with no "}}"), this one reads each character a bounded number of times.
    """
    found: set[int] = set()
    pos = 0
    while m := _CLOZE_OPEN.search(text, pos):
        close = text.find("}}", m.end())
        if close < 0:
            break  # no later deletion can close either
        found.add(int(m.group(1)))
        pos = close + 2
    return found


def _expand_cloze(card: ImportedCard) -> list[ImportedCard]:
    """A cloze note becomes one card per deletion number, as the app's own cloze cards do."""
    ords = sorted(cloze_numbers(card.q_en + "\n" + card.q_zh))
    if not ords:
        return [card]
    out = []
    for n in ords:
        out.append(ImportedCard(**{**card.__dict__, "key": f"{card.key}#c{n}",
                                   "alt_key": f"{card.alt_key}#c{n}" if card.alt_key else "",
                                   "kind": "cloze", "cloze_ord": n, "reviews": []}))
    return out


__all__ = ["plan_csv", "cloze_numbers", "SEPARATORS"]
