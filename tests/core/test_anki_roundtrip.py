"""The .apkg round trip through Anki's own library (the `anki` test extra; CI installs it).

Export from this app, import into a fresh Anki collection, check what Anki shows for a code
card and a cloze card, answer cards there through Anki's scheduler, export from Anki, and
bring the reviews back (studio.core.importers.anki_reviews).
"""

from __future__ import annotations

import base64
import re
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
