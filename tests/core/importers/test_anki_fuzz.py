"""Fuzzing the Anki/CSV importer: generated field HTML, CSV text and small packages (odd values
in every column, odd note types, damaged bytes) never raise, never take long, and never reach
the importer's last-resort "unexpected" line: every failure is one it names."""

from __future__ import annotations

import io
import json
import time
import zipfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.importers.csv_cards import plan_csv
from studio.core.importers.field_text import field_refs, html_to_text
from tests.core.importers.test_anki import CARDS, NOTES, REVIEWS, _legacy_db

PER_INPUT_S = 2.0  # CPU seconds; each input here is small and takes milliseconds
FUZZ = settings(deadline=5000, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

MARKUP = st.sampled_from(["<", ">", "</", "<!--", "-->", "<!", "<![", "<![CDATA[", "]]>", "<?", "/>", "=", '"', "'",
                          "&", "&#", "&#x", ";", "&amp;", "&lt", "<pre>", "</pre>", "<br>", "<li>", "<img src=",
                          "<script>", "</script", "<style>", "<b", "</b>", "<div ", "a", " ", "\n", "\t", "中", "{{",
                          "}}", "{{c1::", "::", ":"])
FIELDS = st.one_of(st.lists(MARKUP, max_size=80).map("".join), st.text(max_size=200))


def _timed(fn, *args):
    start = time.process_time()
    result = fn(*args)
    assert time.process_time() - start < PER_INPUT_S
    return result


@FUZZ
@given(FIELDS)
def test_field_html_and_templates(value):
    text = _timed(html_to_text, value)
    assert isinstance(text, str) and "\n\n\n" not in text
    assert all(name and name[0] not in "#^/" for name in _timed(field_refs, value))


@FUZZ
@given(st.lists(st.one_of(MARKUP, st.sampled_from(["#separator:", "#html:true", "#columns:", "#tags column:",
                                                    "#guid column:", "#deck:", "tab", "Pipe", "\r\n", ",", "|",
                                                    "1", "2"])), max_size=120).map("".join))
def test_csv_text(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "x.csv"
    path.write_text(text, encoding="utf-8")
    plan = _timed(plan_csv, path)
    assert all((c.q_en or c.q_zh).strip() for c in plan.cards)
    assert len({c.key for c in plan.cards}) == len(plan.cards)  # no two rows merged into one key


ODD = st.one_of(st.none(), st.integers(min_value=-2**63, max_value=2**63 - 1), st.integers(-5, 100_000),
                st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8), st.binary(max_size=8))
ODD_JSON = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**63, max_value=2**63 - 1),
                     st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8))
JSONISH = st.recursive(ODD_JSON, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.text(max_size=6), inner, max_size=3), max_leaves=12)
MODEL = st.fixed_dictionaries({
    "name": ODD_JSON, "type": st.one_of(st.sampled_from([0, 1]), ODD_JSON),
    "flds": st.lists(st.fixed_dictionaries({"name": st.one_of(st.sampled_from(["Front", "Back", "Text"]), ODD_JSON),
                                            "ord": st.one_of(st.integers(0, 3), ODD_JSON)}), max_size=3),
    "tmpls": st.lists(st.fixed_dictionaries({"ord": st.one_of(st.integers(0, 2), ODD_JSON),
                                             "qfmt": st.one_of(st.sampled_from(["{{Front}}", "{{cloze:Text}}"]), FIELDS),
                                             "afmt": FIELDS}), max_size=2)})


def _mostly(sane, odd=ODD):
    """Three times in four a value a real deck holds, else anything SQLite can store."""
    return st.tuples(st.integers(0, 3), sane, odd).map(lambda t: t[2] if t[0] == 0 else t[1])


@st.composite
def packages(draw):
    """A small schema-11 deck whose values, note types and data come from the strategies above."""
    n_notes = draw(st.integers(1, 4))
    notes = [(i, draw(_mostly(st.just(f"g{i}"))), draw(st.sampled_from([10, 20, 99])),
              draw(_mostly(st.text(max_size=10))),
              [draw(_mostly(st.just(f"Q{i} "), FIELDS)) + draw(FIELDS) for _ in range(draw(st.integers(1, 3)))],
              draw(_mostly(st.integers(1_500_000_000, 1_800_000_000)))) for i in range(1, n_notes + 1)]
    cards = []  # _legacy_db's card row: id nid did ord type queue due ivl factor reps lapses data
    for i in range(1, n_notes + 1):
        for j in range(draw(st.integers(1, 2))):
            kind = draw(_mostly(st.sampled_from([0, 1, 2, 3])))
            cards.append((10 * i + j, draw(_mostly(st.just(i))), draw(_mostly(st.just(1))), draw(_mostly(st.just(j))),
                          kind, kind, draw(_mostly(st.integers(-100, 1000))), draw(_mostly(st.integers(0, 99))),
                          draw(_mostly(st.integers(1300, 3000))), draw(_mostly(st.integers(0, 20))),
                          draw(_mostly(st.integers(0, 5))),
                          draw(_mostly(st.builds(json.dumps, st.fixed_dictionaries({"s": ODD_JSON, "d": ODD_JSON}))
                                       | st.builds(json.dumps, JSONISH) | st.just("")))))
    revlog = [(1_600_000_000_000 + k * 1000 + draw(st.integers(0, 999)) if draw(st.booleans())
               else draw(st.integers(-2**63, 2**63 - 1)),
               draw(st.sampled_from([c[0] for c in cards])), draw(_mostly(st.integers(0, 4))),
               draw(_mostly(st.integers(0, 60_000))), draw(_mostly(st.integers(0, 3))))
              for k in range(draw(st.integers(0, 6)))]
    revlog = list({r[0]: r for r in revlog}.values())  # the revlog id is its primary key
    models = draw(st.one_of(st.none(), st.dictionaries(st.sampled_from(["10", "20", "x"]), MODEL, max_size=2),
                            JSONISH))
    return notes, cards, revlog, models


def _zip(db_bytes: bytes, member: str = "collection.anki2") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr(member, db_bytes)
    return out.getvalue()


def _plan_and_apply(collection, path):
    plan = _timed(plan_cards, path)
    assert not any("unexpected" in p for p in plan.problems), plan.problems
    for history in ("keep", "new"):
        summary = apply_cards(collection, plan, history=history, duplicates="keep_newest")
        assert summary.cards + summary.cards_updated <= len(plan.cards)


@settings(FUZZ, max_examples=40)
@given(packages())
def test_packages_with_odd_values_everywhere(collection, tmp_path_factory, deck):
    notes, cards, revlog, models = deck
    folder = tmp_path_factory.mktemp("deck")
    db_path = folder / "c.sqlite"
    _legacy_db(db_path, notes, cards, revlog, models if models else None)
    path = folder / "x.apkg"
    path.write_bytes(_zip(db_path.read_bytes()))
    _plan_and_apply(collection, path)


@settings(FUZZ, max_examples=40)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=12),
       st.booleans(), st.floats(0.05, 1))
def test_damaged_bytes_in_the_database_or_the_zip(collection, tmp_path_factory, flips, in_zip, keep):
    folder = tmp_path_factory.mktemp("bytes")
    db_path = folder / "c.sqlite"
    _legacy_db(db_path, NOTES, CARDS, REVIEWS)
    data = bytearray(db_path.read_bytes() if not in_zip else _zip(db_path.read_bytes()))
    for where, value in flips:
        data[int(where * (len(data) - 1))] = value
    data = bytes(data[: max(1, int(len(data) * keep))]) if keep < 0.9 else bytes(data)
    path = folder / "x.apkg"
    path.write_bytes(data if in_zip else _zip(data))
    _plan_and_apply(collection, path)
