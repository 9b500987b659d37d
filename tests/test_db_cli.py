"""`studio db ...` and what every command says when the database is damaged."""

from __future__ import annotations

import json
import subprocess
import sys

from studio import paths
from studio.app import main
from studio.core.cards import CardDraft, create_card
from studio.core.collection import Collection
from tests.core.test_data_safety import damage, first_leaf, next_day


def _collection(cards: int) -> None:
    col = Collection.open()
    for i in range(cards):
        create_card(col, CardDraft(q_en=f"Q{i}?", a_en="A" * 300))
    col.close()


def test_backup_list_damage_advice_restore_and_check(studio_home, capsys):
    _collection(200)
    assert main(["db", "backup"]) == 0
    assert "200 cards" in capsys.readouterr().out
    assert main(["db", "backups", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["verified"] and listed["cards"] == 200 and listed["reason"] == "manual"
    db = paths.database_path()
    damage(db, first_leaf(db, "cards"))
    next_day(db)
    assert main(["stats"]) == 2
    err = capsys.readouterr().err
    assert "damaged" in err and f"studio db restore {listed['id']}" in err and "studio db salvage" in err
    # best first: restore the newest good backup, then salvage, then read-only
    assert err.index("1. restore") < err.index("2. salvage") < err.index("3. open it read-only")
    assert main(["db", "check"]) == 1
    assert "damaged:" in capsys.readouterr().out
    assert main(["db", "restore", "newest"]) == 0
    out = capsys.readouterr().out
    assert f"restored {listed['id']}" in out and "kept as" in out
    assert main(["db", "check"]) == 0
    assert "ok:" in capsys.readouterr().out
    assert main(["stats", "--json"]) == 0


def test_salvage_command_reports_what_it_could_not_read(studio_home, capsys):
    _collection(300)
    db = paths.database_path()
    damage(db, first_leaf(db, "cards"))
    assert main(["db", "salvage"]) == 0
    out = capsys.readouterr().out
    assert "Could not read:" in out and "cards: rows 1–" in out
    assert main(["db", "check"]) == 0


def test_restore_and_salvage_refuse_while_the_app_has_the_database_open(studio_home, capsys):
    _collection(3)
    assert main(["db", "backup"]) == 0
    app = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        marker = paths.database_path().with_name(f"studio.sqlite3.open-{app.pid}")
        marker.write_text("")
        before = paths.database_path().read_bytes()
        assert main(["db", "restore", "newest"]) == 2
        assert "has the database open" in capsys.readouterr().err
        assert main(["db", "salvage"]) == 2
        assert paths.database_path().read_bytes() == before
    finally:
        app.kill()
        app.wait()


def test_unknown_backup_id_is_a_message(studio_home, capsys):
    _collection(1)
    assert main(["db", "restore", "20990101"]) == 2
    assert "no backup with id" in capsys.readouterr().err
