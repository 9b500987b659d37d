"""Cards from Anki-style CSV/TSV: header lines, separators, HTML, bad rows, re-import, fuzzing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.importers.csv_cards import plan_csv

ANKI_TSV = (
    "#separator:tab\n#html:true\n#tags column:3\n#deck column:4\n"
    "What is <b>NCCL</b>?\tNVIDIA's collective<br>communication library\tdist nccl\tInfra\n"
    "什么是 all-reduce？\t每个 rank 得到所有 rank 之和\tdist\tInfra\n"
    "\"Quoted\ttab, and \"\"quotes\"\"\"\tyes\t\tInfra\n"
)


def test_anki_header_lines_tags_deck_and_html(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text(ANKI_TSV, encoding="utf-8")
    plan = plan_cards(path)
    assert plan.problems == []
    first, zh, quoted = plan.cards
    assert (first.q_en, first.a_en, first.tags, first.deck) == (
        "What is NCCL?", "NVIDIA's collective\ncommunication library", "dist nccl", "Infra")
    assert zh.q_zh == "什么是 all-reduce？" and zh.q_en == ""
    assert quoted.q_en == 'Quoted\ttab, and "quotes"'


def test_guessed_separator_columns_guid_and_cloze(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("#columns:Guid;Text;Extra\n#guid column:1\n#tags:imported-anki\n"
                    "Xy1;The L2 is {{c1::shared}} by all {{c2::SMs}};\n"
                    "Xy2;HBM;High bandwidth memory\n", encoding="utf-8")
    plan = plan_csv(path)
    assert plan.problems == []
    assert [(c.key, c.kind, c.cloze_ord) for c in plan.cards] == [
        ("anki:Xy1#c1", "cloze", 1), ("anki:Xy1#c2", "cloze", 2), ("anki:Xy2", "qa", 0)]
    assert all(c.tags == "imported-anki" for c in plan.cards)


def test_mixed_separators_are_reported_by_line_and_skipped(collection, tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text("#separator:Comma\nq1,a1\nq2\ta2\nq3;a3\nq4,a4,extra\nq5,a5\n", encoding="utf-8")
    summary = apply_cards(collection, plan_cards(path))
    assert summary.cards == 2
    lines = "\n".join(summary.problems)
    assert f"{path}:3: 1 fields where 2 were expected (mixed separators?)" in lines
    assert f"{path}:4:" in lines and f"{path}:5:" in lines


def test_bad_files_give_a_clear_line(tmp_path):
    binary = tmp_path / "b.csv"
    binary.write_bytes(b"\x00\x01PK\x03\x04" * 100)
    latin = tmp_path / "l.csv"
    latin.write_bytes("q,caf\xe9\n".encode("latin-1") + b"\xff\xfe\x80\x81")
    huge = tmp_path / "h.csv"
    huge.write_bytes(b"q,a\n" * (6 * 1024 * 1024))  # 24 MB
    assert "binary file" in plan_cards(binary).problems[0]
    assert "not UTF-8 or GB18030" in plan_cards(latin).problems[0]
    assert "MB limit" in plan_cards(huge).problems[0]


def test_ten_megabyte_csv_imports(collection, tmp_path):
    path = tmp_path / "big.csv"
    rows = "".join(f"question number {i},answer {i} " + "x" * 150 + "\n" for i in range(60_000))
    path.write_text(rows, encoding="utf-8")
    assert path.stat().st_size > 10_000_000
    plan = plan_cards(path)
    assert len(plan.cards) == 60_000 and plan.problems == []


def test_reimport_updates_answers_without_duplicates(collection, tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("What is a CTA?,A thread block\nWhat is a grid?,All blocks\n", encoding="utf-8")
    assert apply_cards(collection, plan_cards(path)).cards == 2
    path.write_text("What is a CTA?,A cooperative thread array (block)\nWhat is a grid?,All blocks\n", encoding="utf-8")
    again = apply_cards(collection, plan_cards(path))
    assert (again.cards, again.cards_updated) == (0, 1)
    assert collection.counts()["cards"] == 2


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list(",;\t|\"\n#:abc 中") + ["#separator:", "#html:true", "#columns:",
                                                                   "#tags column:", "\r\n", "{{c1::", "}}", "<br>"]),
               max_size=300).map("".join))
def test_random_csv_never_crashes(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "x.csv"
    path.write_text(text, encoding="utf-8")
    plan = plan_csv(path)
    for card in plan.cards:
        assert (card.q_en or card.q_zh).strip()
