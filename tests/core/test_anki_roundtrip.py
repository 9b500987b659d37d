"""The .apkg round trip through Anki's own library (the `anki` test extra; CI installs it).

Export from this app, import into a fresh Anki collection, check what Anki shows for a code
card and a cloze card, answer cards there through Anki's scheduler, export from Anki, and
bring the reviews back (studio.core.importers.anki_reviews).
"""

from __future__ import annotations

import time

import base64
import re
from datetime import timezone
from pathlib import Path

import pytest

anki_collection = pytest.importorskip("anki.collection")

from studio.core.cards import CardDraft, create_card  # noqa: E402
from studio.core.exporters import export_cards  # noqa: E402

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")

CODE_Q = "Why does a Triton kernel pass `mask=` to `tl.load`?"
CODE_A = ("Out-of-range lanes must not read:\n\n```python\nx = tl.load(x_ptr + offs, mask=offs < n, other=0.0)\n```\n\n"
          "| lanes | read |\n|---|---|\n| in range | yes |\n\n- one\n- two")
CLOZE = "An SM has {{c1::4}} warp schedulers; `{{c2::__syncthreads()::barrier}}` waits\n\n```cpp\nint r = {{c3::64}};\n```"


def _seed(col, tmp_path: Path) -> None:
    image = tmp_path / "warp.png"
    image.write_bytes(PNG)
    create_card(col, CardDraft(q_en=CODE_Q, a_en=CODE_A, q_zh="Triton 为何给 `tl.load` 传 `mask=`？",
                               a_zh="越界的 lane 不能读。", tags=["triton", "memory"], node_id="kernels.triton-model"))
    create_card(col, CardDraft(q_en=CLOZE, kind="cloze", tags=["cuda"], node_id="gpu.sm-architecture"))
    create_card(col, CardDraft(q_en="Draw a warp", a_en=f"![warp]({image})", tags=["cuda"]))


def _anki(path: Path):
    path.mkdir(parents=True, exist_ok=True)
    return anki_collection.Collection(str(path / "collection.anki2"))


def _import_into_anki(acol, apkg: Path) -> None:
    acol.import_anki_package(anki_collection.ImportAnkiPackageRequest(
        package_path=str(apkg), options=anki_collection.ImportAnkiPackageOptions(with_scheduling=True)))


def _card_by_text(acol, needle: str, ord_: int = 0):
    for cid in acol.find_cards(""):
        card = acol.get_card(cid)
        if needle in card.note().fields[0] and card.ord == ord_:
            return card
    raise AssertionError(f"no Anki card with {needle!r}, ord {ord_}")


def test_anki_shows_rendered_markdown_clozes_tags_decks_and_media(collection, tmp_path):
    _seed(collection, tmp_path)
    out = tmp_path / "deck.apkg"
    result = export_cards(collection, "apkg", out, language="both")
    assert (result.cards, result.notes, result.media, result.problems) == (5, 3, 1, [])
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, out)
        assert acol.card_count() == 5 and acol.note_count() == 3
        code = _card_by_text(acol, "mask=")
        question, answer = code.question(), code.answer().split("<hr id=answer>")[1]
        assert "<code>mask=</code>" in question and "```" not in question and "`" not in answer
        assert 'style="color: #' in answer  # Pygments colours inline: no add-on or stylesheet
        assert "<table" in answer and "<th>lanes</th>" in answer and "<li>one</li>" in answer
        assert 'class="lang-divider"' in answer and "越界的 lane 不能读。" in answer
        assert answer.index("Out-of-range") < answer.index("lang-divider") < answer.index("越界")
        assert acol.decks.name(code.did) == "ML Infra Studio::Kernels: Triton and CUDA"
        assert set(code.note().tags) == {"triton", "memory", "roadmap::kernels::triton-model"}
        assert code.note().guid == _key(collection, CODE_Q)

        second = _card_by_text(acol, "warp schedulers", ord_=1)
        q = second.question()
        assert re.search(r'<span class="cloze"[^>]*data-ordinal="2">\[barrier\]</span>', q)
        assert '<span class="cloze-inactive" data-ordinal="1">4</span>' in q
        third = _card_by_text(acol, "warp schedulers", ord_=2)
        assert '<span class="cloze" data-ordinal="3">64</span>' in third.answer()  # inside highlighted C++
        assert "{{c" not in third.answer()

        drawn = _card_by_text(acol, "Draw a warp")
        name = drawn.answer().split('<img src="')[1].split('"')[0]
        assert name.startswith("studio-") and (Path(acol.media.dir()) / name).read_bytes() == PNG
    finally:
        acol.close()


def test_export_language_choice(collection, tmp_path):
    _seed(collection, tmp_path)
    for language, has_en, has_zh in (("en", True, False), ("zh", False, True)):
        out = tmp_path / f"{language}.apkg"
        export_cards(collection, "apkg", out, language=language)
        acol = _anki(tmp_path / f"anki-{language}")
        try:
            _import_into_anki(acol, out)
            answer = _card_by_text(acol, "mask=" if has_en else "Triton 为何").answer().split("<hr id=answer>")[1]
            assert ("Out-of-range" in answer) == has_en and ("越界" in answer) == has_zh
            assert "lang-divider" not in answer
            cloze = _card_by_text(acol, "warp schedulers")  # English only: shown under zh too
            assert "warp schedulers" in cloze.question()
        finally:
            acol.close()


def test_exporting_again_updates_notes_in_anki(collection, tmp_path):
    _seed(collection, tmp_path)
    first, second = tmp_path / "1.apkg", tmp_path / "2.apkg"
    export_cards(collection, "apkg", first)
    from studio.core.cards import update_card

    card_id = _card_id(collection, CODE_Q)
    update_card(collection, card_id, CardDraft(q_en=CODE_Q, a_en="Edited **answer**", q_zh="", a_zh="",
                                               tags=["triton"], node_id="kernels.triton-model"))
    # Anki replaces a note only with a newer one, by its modification time in whole seconds
    # (the export's time): two exports inside one second would look equally old.
    time.sleep(1.1)
    export_cards(collection, "apkg", second)
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, first)
        _import_into_anki(acol, second)
        assert acol.note_count() == 3 and acol.card_count() == 5  # updated, not duplicated
        assert "<strong>answer</strong>" in _card_by_text(acol, "mask=").answer()
    finally:
        acol.close()


def _card_id(col, question: str) -> int:
    from sqlalchemy import select

    from studio.core.models import Card

    with col.db.session() as s:
        return s.scalar(select(Card.id).where(Card.q_en == question))


def _key(col, question: str) -> str:
    from sqlalchemy import select

    from studio.core.models import Card

    with col.db.session() as s:
        return s.scalar(select(Card.key).where(Card.q_en == question))


# --- reviews made in Anki, brought back -------------------------------------------------
def _answer_in_anki(acol, count: int, ease: int = 3) -> int:
    """Answer up to `count` cards through Anki's scheduler; returns how many were answered."""
    top = acol.decks.id_for_name("ML Infra Studio") or acol.get_card(acol.find_cards("")[0]).did
    acol.decks.select(top)
    done = 0
    for _ in range(count):
        card = acol.sched.getCard()
        if card is None:
            break
        acol.sched.answerCard(card, ease)
        done += 1
    return done


def _export_from_anki(acol, out: Path, scheduling: bool = True) -> Path:
    acol.export_anki_package(out_path=str(out), limit=None, options=anki_collection.ExportAnkiPackageOptions(
        with_scheduling=scheduling, with_deck_configs=scheduling, with_media=False, legacy=False))
    return out


def _log(col) -> dict[int, list[tuple]]:
    from sqlalchemy import select

    from studio.core.models import ReviewLog

    out: dict[int, list[tuple]] = {}
    with col.db.session() as s:
        for row in s.scalars(select(ReviewLog).order_by(ReviewLog.reviewed_at)):
            out.setdefault(row.card_id, []).append((row.reviewed_at, row.rating))
    return out


def _state(col):
    from sqlalchemy import select

    from studio.core.models import Card

    with col.db.session() as s:
        return {c.id: (c.fsrs_state, c.stability, c.difficulty, c.due, c.last_review, c.reps, c.lapses)
                for c in s.scalars(select(Card))}


def _reviewed_here(col) -> None:
    from datetime import datetime, timedelta

    from fsrs import Rating

    from studio.core.review import ReviewQueue

    queue = ReviewQueue(col)
    t0 = datetime(2025, 3, 1, 9, 0)
    queue.answer(_card_id(col, CODE_Q), Rating.Good, now=t0)
    queue.answer(_card_id(col, CODE_Q), Rating.Good, now=t0 + timedelta(days=3))


def test_reviews_done_in_anki_come_back_merged_and_replayed(collection, tmp_path):
    from studio.core.importers.anki_reviews import import_reviews
    from studio.core.review import ReviewQueue, make_scheduler

    _seed(collection, tmp_path)
    _reviewed_here(collection)
    out = tmp_path / "deck.apkg"
    assert export_cards(collection, "apkg", out).reviews == 2
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, out)
        answered = _answer_in_anki(acol, 20)
        assert answered >= 5  # every card at least once (learning steps bring some back)
        back = _export_from_anki(acol, tmp_path / "phone.apkg")
        colpkg = tmp_path / "phone.colpkg"
        acol.export_collection_package(str(colpkg), include_media=False, legacy=False)
    finally:
        acol.close()
    before = _log(collection)
    summary = import_reviews(collection, back)
    assert summary.completed and summary.problems == [], summary.lines()
    assert summary.reviews_added == answered and summary.already_here == 2  # the two exported ones
    assert summary.unmatched_notes == 0 and summary.matched_notes == 3 and len(summary.cards) == 5
    after = _log(collection)
    code_id = _card_id(collection, CODE_Q)
    assert after[code_id][:2] == before[code_id]  # ours first, then the phone's, in time order
    for card_id, rows in after.items():
        assert rows == sorted(rows)
    # The state is what FSRS gives for the merged log, answer by answer.
    from fsrs import Card as FsrsCard
    from fsrs import Rating

    scheduler = make_scheduler(collection)
    state = _state(collection)
    for card_id, rows in after.items():
        fc = FsrsCard(card_id=card_id, due=rows[0][0].replace(tzinfo=timezone.utc))
        for at, rating in rows:
            fc, _ = scheduler.review_card(fc, Rating(rating), at.replace(tzinfo=timezone.utc))
        got = state[card_id]
        assert got[0] == fc.state.value and got[1] == pytest.approx(fc.stability)
        assert got[5] == len(rows) and got[4] == fc.last_review.replace(tzinfo=None)
    # Due counts see the new state; a second import, of either file, adds nothing.
    counts = ReviewQueue(collection).counts()
    assert counts["new"] == 0
    assert import_reviews(collection, back).reviews_added == 0
    again = import_reviews(collection, colpkg)
    assert again.completed and (again.reviews_added, again.already_here) == (0, answered + 2)
    assert _state(collection) == state and _log(collection) == after


def test_the_same_card_reviewed_on_both_sides_keeps_both(collection, tmp_path):
    from datetime import datetime, timedelta

    from fsrs import Rating

    from studio.core.importers.anki_reviews import import_reviews
    from studio.core.review import ReviewQueue

    _seed(collection, tmp_path)
    out = tmp_path / "deck.apkg"
    export_cards(collection, "apkg", out)
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, out)
        _answer_in_anki(acol, 1, ease=1)
        phone_card = acol.get_card(acol.db.scalar("SELECT cid FROM revlog"))
        guid = phone_card.note().guid
        back = _export_from_anki(acol, tmp_path / "phone.apkg")
    finally:
        acol.close()
    from sqlalchemy import select

    from studio.core.models import Card

    with collection.db.session() as s:
        ours = s.scalar(select(Card.id).where(Card.key.in_([guid, guid + "#c1"])))
    ReviewQueue(collection).answer(ours, Rating.Good, now=datetime.utcnow() - timedelta(minutes=5))
    summary = import_reviews(collection, back)
    assert summary.reviews_added == 1 and summary.already_here == 0
    assert [r for _, r in _log(collection)[ours]] == [3, 1]  # both, in time order


def test_bad_input_changes_nothing_and_says_why(collection, tmp_path):
    from studio.core.importers.anki_reviews import import_reviews

    _seed(collection, tmp_path)
    out = tmp_path / "deck.apkg"
    export_cards(collection, "apkg", out)
    state, log = _state(collection), _log(collection)

    acol = _anki(tmp_path / "other")  # a deck from another tool: Anki's own notes, reviewed
    try:
        note = acol.new_note(acol.models.by_name("Basic"))
        note["Front"], note["Back"] = "capital of France", "Paris"
        acol.add_note(note, acol.decks.id("Geography"))
        _answer_in_anki(acol, 2)
        other = _export_from_anki(acol, tmp_path / "other.apkg")
    finally:
        acol.close()
    summary = import_reviews(collection, other)
    assert not summary.completed and "none of its 1 notes came from this app" in summary.problems[0]

    acol = _anki(tmp_path / "anki")  # our deck, reviewed, exported without scheduling
    try:
        _import_into_anki(acol, out)
        _answer_in_anki(acol, 3)
        bare = _export_from_anki(acol, tmp_path / "bare.apkg", scheduling=False)
        full = _export_from_anki(acol, tmp_path / "full.apkg")
    finally:
        acol.close()
    summary = import_reviews(collection, bare)
    assert not summary.completed and "holds no review log" in summary.problems[0]

    truncated = tmp_path / "truncated.apkg"
    truncated.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    not_zip = tmp_path / "notes.apkg"
    not_zip.write_text("just text", encoding="utf-8")
    for bad in (truncated, not_zip, tmp_path / "missing.apkg"):
        summary = import_reviews(collection, bad)
        assert not summary.completed and "nothing imported" in summary.problems[0] or "no such file" in \
            summary.problems[0], summary.problems
    assert _state(collection) == state and _log(collection) == log
    assert import_reviews(collection, full).reviews_added == 3  # the good file still imports


def test_cli_imports_reviews_and_says_what_came_back(tmp_path, capsys):
    import json

    from studio.app import main
    from studio.core.collection import Collection

    col = Collection.open()
    try:
        _seed(col, tmp_path)
    finally:
        col.close()
    out = tmp_path / "deck.apkg"
    assert main(["export", "cards", "--format", "apkg", "--out", str(out), "--query", '"Out-of-range lanes must not read"',
                 "--language", "en"]) == 0
    assert "exported 1 cards (1 notes, 0 reviews) to" in capsys.readouterr().out
    acol = _anki(tmp_path / "anki")
    try:
        _import_into_anki(acol, out)
        answered = _answer_in_anki(acol, 2)
        back = _export_from_anki(acol, tmp_path / "phone.apkg")
    finally:
        acol.close()
    assert main(["import", "reviews", str(back), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reviews_added"] == answered and report["cards"][0]["question"] == CODE_Q
    assert main(["import", "reviews", str(back)]) == 0
    assert capsys.readouterr().out.startswith(f"0 reviews came back for 0 cards ({answered} already here)")
    assert main(["import", "reviews", str(tmp_path / "nothing.apkg")]) == 2
    assert "no such file" in capsys.readouterr().out
