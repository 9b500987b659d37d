"""App settings kept in a JSON file in the data directory.

UI preferences (language, theme, window geometry, last pane) and the drill Python
path live here rather than in the database so the app can read them before the
database is open. Unknown or damaged files fall back to defaults without losing the
file: a damaged file is kept beside the new one.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from studio import paths

log = logging.getLogger(__name__)

DEFAULTS: dict = {
    "language": "system",  # system | en | zh_CN
    "theme": "system",  # system | light | dark
    "geometry": "",
    "last_pane": "notes",
    "drill_python": "",  # empty: this interpreter
    "drill_target": "local",  # local | ssh (where drills and benches run; studio/drills/targets)
    "drill_ssh_host": "",  # an alias from ~/.ssh/config or user@host[:port]
    "drill_remote_python": "",  # the Python on the SSH host; empty: python3
    "card_language": "both",  # en | zh | both
    "drills_compile_baseline": False,  # Drills pane: Benchmark also times torch.compile of the baseline
}


class Settings:
    def __init__(self, path: Path | None = None):
        self.path = path or paths.data_dir() / "settings.json"
        self.values = dict(DEFAULTS)
        self.load_problem = ""
        self.save_problem = ""
        if self.path.exists():
            try:
                loaded = json.loads(self.path.read_text(encoding="utf-8"))
                if not isinstance(loaded, dict):
                    raise ValueError("not a JSON object")
                self.values.update(loaded)
            except (OSError, ValueError) as exc:
                self.load_problem = f"settings file unreadable ({exc}); defaults used"
                log.warning("%s: %s", self.path, self.load_problem)
                try:
                    self.path.replace(self.path.with_suffix(".json.damaged"))
                except OSError as move_exc:
                    log.warning("cannot keep the damaged settings file aside: %s", move_exc)

    def get(self, key: str):
        return self.values.get(key, DEFAULTS.get(key))

    def set(self, key: str, value) -> None:
        self.values[key] = value
        self.save()

    def save(self) -> bool:
        """Write the file atomically; on a full disk or read-only folder keep the old file and say so."""
        tmp = self.path.with_suffix(".json.tmp")
        try:
            tmp.write_text(json.dumps(self.values, indent=1, ensure_ascii=False), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            self.save_problem = f"settings not saved ({exc.strerror or exc})"
            log.warning("%s: %s", self.path, self.save_problem)
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
            return False
        self.save_problem = ""
        return True


def resolve_language(setting: str, system_locale: str) -> str:
    """'en' or 'zh_CN' from the setting, following the system locale for 'system'."""
    if setting in ("en", "zh_CN"):
        return setting
    return "zh_CN" if system_locale.lower().startswith("zh") else "en"
