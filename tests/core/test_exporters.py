"""Card export: CSV and .apkg round trips through the importers, with and without history."""

from __future__ import annotations

import html
import json
import sqlite3
import zipfile
from datetime import datetime, timedelta

import pytest
from fsrs import Rating
from sqlalchemy import select

from studio.core.cards import CardDraft, create_card
from studio.core.collection import Collection
from studio.core.exporters import export_cards
from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.models import Card
from studio.core.review import ReviewQueue

T0 = datetime(2025, 2, 1, 8, 0)


def _seed(col: Collection) -> None:
    create_card(col, CardDraft(q_en="What is a warp?", a_en="32 threads\nin <lockstep> & SIMT", tags=["cuda", "gpu"]))
    create_card(col, CardDraft(q_zh="什么是 NVLink？", a_zh="GPU 间高速互联", q_en="What is NVLink?",
                               a_en="A GPU interconnect", tags=["dist"]))
    create_card(col, CardDraft(q_en="An SM has {{c1::4}} warp schedulers and {{c2::64K}} registers", kind="cloze"))
    create_card(col, CardDraft(q_en="Skip me", a_en="not exported", tags=["private"]))
    queue = ReviewQueue(col)
    with col.db.session() as s:
        ids = [c.id for c in s.scalars(select(Card).order_by(Card.id))]
    plan = [(ids[0], [(0, Rating.Good), (2, Rating.Good), (9, Rating.Again), (9.01, Rating.Good)]),
            (ids[1], [(0, Rating.Easy)]), (ids[2], [(0, Rating.Hard), (1, Rating.Good)])]
    for n, (card_id, answers) in enumerate(plan):
        for days, rating in answers:
            queue.answer(card_id, rating, now=T0 + timedelta(days=days, minutes=n))


def _cards(col: Collection) -> dict[str, Card]:
    with col.db.session() as s:
        return {(c.q_en or c.q_zh) + f"#{c.cloze_ord}": c for c in s.scalars(select(Card))}


@pytest.fixture
def fresh(tmp_path):
    col = Collection.open(tmp_path / "fresh.sqlite3")
    yield col
    col.close()


@pytest.mark.parametrize("fmt", ["csv", "apkg"])
def test_round_trip_gives_the_same_cards(collection, fresh, tmp_path, fmt):
    _seed(collection)
    out = tmp_path / f"cards.{fmt}"
    result = export_cards(collection, fmt, out, query="-tag:private")
    assert result.cards == 4 and result.notes == 3
    summary = apply_cards(fresh, plan_cards(out), history="new")
    assert summary.problems == [] and summary.cards == 4
    original, back = _cards(collection), _cards(fresh)
    assert set(back) == set(original) - {"Skip me#0"}
    for name, card in back.items():
        src = original[name]
        assert (card.q_en, card.a_en, card.q_zh, card.a_zh, card.tags, card.kind) == (
            src.q_en, src.a_en, src.q_zh, src.a_zh, src.tags, src.kind)
    again = apply_cards(fresh, plan_cards(out), history="new")
    assert (again.cards, again.cards_updated) == (0, 0)  # idempotent
    into_source = apply_cards(collection, plan_cards(out), history="new")
    assert (into_source.cards, into_source.cards_updated) == (0, 0)  # its own keys come back


def test_apkg_history_keep_restores_fsrs_state_and_due(collection, fresh, tmp_path):
    _seed(collection)
    out = tmp_path / "deck.apkg"
    result = export_cards(collection, "apkg", out)
    assert result.reviews == 7
    apply_cards(fresh, plan_cards(out), history="keep")
    original, back = _cards(collection), _cards(fresh)
    for name, src in original.items():
        card = back[name]
        assert card.fsrs_state == src.fsrs_state and (card.reps, card.lapses) == (src.reps, src.lapses)
        if src.last_review is None:
            assert card.last_review is None
            continue
        assert card.stability == pytest.approx(src.stability, rel=1e-6)
        assert card.difficulty == pytest.approx(src.difficulty, rel=1e-6)
        assert abs((card.due - src.due).total_seconds()) < 1


def test_apkg_is_a_schema_11_anki_collection(collection, tmp_path):
    _seed(collection)
    out = tmp_path / "deck.apkg"
    export_cards(collection, "apkg", out)
    with zipfile.ZipFile(out) as zf:
        assert set(zf.namelist()) == {"collection.anki2", "media"}
        (tmp_path / "c.db").write_bytes(zf.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "c.db")
    ver, models = db.execute("SELECT ver, models FROM col").fetchone()
    assert ver == 11
    kinds = {m["name"]: m["type"] for m in json.loads(models).values()}
    assert kinds == {"ML Infra Studio": 0, "ML Infra Studio Cloze": 1}
    assert db.execute("SELECT count(*) FROM notes").fetchone()[0] == 4
    front, back, source = db.execute("SELECT flds FROM notes WHERE sfld='What is a warp?'").fetchone()[0].split("\x1f")
    assert front == '<div class="lang-en" lang="en"><p>What is a warp?</p></div>'
    assert back.startswith('<div class="lang-en" lang="en"><p>32 threads<br />')  # Markdown rendered
    assert back.endswith("&amp; SIMT</p></div>")
    assert json.loads(html.unescape(source))["a_en"] == "32 threads\nin <lockstep> & SIMT"  # the Markdown, whole
    db.close()


def test_csv_has_anki_header_lines(collection, tmp_path):
    _seed(collection)
    out = tmp_path / "c.csv"
    export_cards(collection, "csv", out, query="tag:cuda")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[:5] == ["#separator:Comma", "#html:false", "#guid column:1", "#tags column:6",
                         "#columns:GUID,Front,Back,Front (zh),Back (zh),Tags"]
    assert len(lines) == 7 and lines[6].endswith("SIMT\",,,cuda gpu")  # one card, its answer on two lines
