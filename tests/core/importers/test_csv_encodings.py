"""Encodings of Anki CSV/TSV files: decided as for notes, asked about when unclear, named in the summary."""

from __future__ import annotations

import json

from studio import app
from studio.core.importers.anki import apply_cards, plan_cards
from studio.core.models import Card

# German cards saved by a Windows spreadsheet: cp1252, whose encoding charset-normalizer
# cannot tell from cp1250 or cp1257 (the same bytes score the same).
GERMAN = ("Was bedeutet naïve Speicherzugriff für Müllers Kernel?\tJeder Thread lädt einzeln; "
          "die Größe der Transaktionen wächst.\n"
          "Was ist ein Warp?\t32 Threads, die gemeinsam ausgeführt werden.\n")
RUSSIAN = ("Что такое варп?\tЭто группа из 32 потоков, которые выполняются вместе на одном мультипроцессоре.\n"
           "Зачем нужна общая память?\tОна быстрая и находится на кристалле, поэтому потоки блока обмениваются "
           "данными без обращения к глобальной памяти.\n"
           "Что такое объединение доступа?\tКогда соседние потоки читают соседние адреса, запросы сливаются "
           "в несколько транзакций.\n")
CHINESE = "什么是 all-reduce？\t每个 rank 得到所有 rank 之和。\n什么是显存带宽？\t每秒能从显存读写的字节数。\n"


def test_unclear_tsv_is_refused_with_a_way_to_import_it(tmp_path):
    path = tmp_path / "karten.tsv"
    path.write_bytes(GERMAN.encode("cp1252"))
    plan = plan_cards(path)
    assert plan.cards == [] and plan.unclear[path][0] == "cp1252"
    (problem,) = plan.problems
    assert problem.startswith(f"{path}: skipped: not UTF-8 or GB18030 text, and its encoding is not clear")
    assert "--encoding NAME, e.g. --encoding cp1252" in problem


def test_encoding_option_reads_an_unclear_tsv_and_the_summary_names_it(collection, tmp_path):
    path = tmp_path / "karten.tsv"
    path.write_bytes(GERMAN.encode("cp1252"))
    plan = plan_cards(path, encoding="cp1252")
    assert plan.problems == []
    assert plan.cards[0].q_en == "Was bedeutet naïve Speicherzugriff für Müllers Kernel?"
    assert (plan.encodings[path].name, plan.encodings[path].how) == ("cp1252", "option")
    summary = apply_cards(collection, plan)
    assert summary.cards == 2
    assert summary.to_json()["encodings"] == {str(path): "cp1252"}
    assert f"encoding: {path}: read as cp1252 (--encoding)" in summary.lines()


def test_detected_encodings_are_named_and_utf8_is_not(collection, tmp_path):
    russian = tmp_path / "ru.tsv"
    russian.write_bytes(RUSSIAN.encode("cp1251"))
    chinese = tmp_path / "zh.tsv"
    chinese.write_bytes(CHINESE.encode("gb18030"))
    utf8 = tmp_path / "utf8.tsv"
    utf8.write_text(CHINESE, encoding="utf-8")
    for path, name in ((russian, "cp1251"), (chinese, "gb18030")):
        plan = plan_cards(path, encoding="latin-1")  # never used for a clearly detected file
        assert (plan.encodings[path].name, plan.encodings[path].how) == (name, "detected")
        summary = apply_cards(collection, plan)
        assert summary.to_json()["encodings"] == {str(path): name}
        assert f"encoding: {path}: read as {name} (detected)" in summary.lines()
    assert plan.cards[0].q_zh == "什么是 all-reduce？"
    assert apply_cards(collection, plan_cards(utf8)).to_json()["encodings"] == {}


def test_preview_guess_and_a_chosen_encoding(tmp_path):
    path = tmp_path / "karten.tsv"
    path.write_bytes(GERMAN.encode("cp1252"))
    guessed = plan_cards(path, guess=True)
    reading = guessed.encodings[path]
    assert (reading.name, reading.how) == ("cp1252", "guessed") and len(reading.candidates) > 1
    assert reading.sample.startswith("Was bedeutet naïve")
    chosen = plan_cards(path, encodings={path: "cp1250"})
    assert (chosen.encodings[path].name, chosen.encodings[path].how) == ("cp1250", "chosen")
    assert chosen.cards[0].q_en.startswith("Was bedeutet naďve")
    wrong = plan_cards(path, encodings={path: "ascii"})
    assert wrong.cards == [] and wrong.unclear[path][0] == "ascii"
    assert wrong.problems[0].endswith("; choose another encoding")


def test_cli_anki_encoding(tmp_path, capsys, studio_home):
    path = tmp_path / "karten.tsv"
    path.write_bytes(GERMAN.encode("cp1252"))
    assert app.main(["import", "anki", str(path)]) == 2
    assert "--encoding NAME, e.g. --encoding cp1252" in capsys.readouterr().out
    assert app.main(["import", "anki", str(path), "--encoding", "cp1252", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["cards"], result["encodings"]) == (2, {str(path): "cp1252"})
    from studio.core.collection import Collection

    col = Collection.open()
    try:
        with col.db.session() as s:
            questions = sorted(c.q_en for c in s.query(Card).filter(Card.source == "imported"))
    finally:
        col.close()
    assert questions[0] == "Was bedeutet naïve Speicherzugriff für Müllers Kernel?"
    assert app.main(["import", "anki", str(path), "--encoding", "no-such-codec"]) == 2
    assert "unknown encoding 'no-such-codec'" in capsys.readouterr().err
