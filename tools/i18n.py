"""Maintaining the UI translations (Qt Linguist .ts files, compiled to .qm).

Each module under studio/ui/ has its own file resources/i18n/<module>_zh_CN.ts, so
people working on different panes never edit the same file.

    python tools/i18n.py update [FILE.py ...]   extract tr() strings into the .ts files
    python tools/i18n.py missing [FILE.py ...]  print untranslated strings as JSON
    python tools/i18n.py apply TRANSLATIONS.json {"Context": {"source": "译文"}}
    python tools/i18n.py release                compile every .ts to .qm
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANG = "zh_CN"


def ui_modules() -> list[Path]:
    return sorted(p for p in (ROOT / "studio" / "ui").rglob("*.py") if p.name != "__init__.py")


def ts_path(module: Path) -> Path:
    rel = module.relative_to(ROOT / "studio" / "ui").with_suffix("")
    return I18N / f"{'_'.join(rel.parts)}_{LANG}.ts"


def lupdate(module: Path, ts: Path) -> None:
    ts.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pyside6-lupdate", str(module), "-no-obsolete", "-ts", str(ts)],
                   check=True, capture_output=True, text=True)


def unfinished(ts: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            tr = message.find("translation")
            if tr is None or tr.get("type") == "unfinished" or not (tr.text or "").strip():
                out.setdefault(name, []).append(message.findtext("source"))
    return out


def apply(translations: dict[str, dict[str, str]]) -> int:
    applied = 0
    for ts in sorted(I18N.glob(f"*_{LANG}.ts")):
        tree = ET.parse(ts)
        changed = False
        for context in tree.getroot().iter("context"):
            table = translations.get(context.findtext("name"), {})
            for message in context.iter("message"):
                source = message.findtext("source")
                if source in table:
                    tr = message.find("translation")
                    tr.text = table[source]
                    tr.attrib.pop("type", None)
                    changed = True
                    applied += 1
        if changed:
            tree.write(ts, encoding="utf-8", xml_declaration=True)
    return applied


def release() -> None:
    for ts in sorted(I18N.glob(f"*_{LANG}.ts")):
        subprocess.run(["pyside6-lrelease", str(ts), "-qm", str(ts.with_suffix(".qm"))],
                       check=True, capture_output=True, text=True)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    command, rest = argv[0], argv[1:]
    modules = [Path(p).resolve() for p in rest] if command in ("update", "missing") and rest else ui_modules()
    if command == "update":
        for module in modules:
            lupdate(module, ts_path(module))
    elif command == "missing":
        report = {}
        for module in modules:
            ts = ts_path(module)
            if ts.exists():
                for ctx, sources in unfinished(ts).items():
                    report.setdefault(ctx, []).extend(sources)
        print(json.dumps(report, ensure_ascii=False, indent=1))
    elif command == "apply":
        print(f"applied {apply(json.loads(Path(rest[0]).read_text(encoding='utf-8')))} translations")
    elif command == "release":
        release()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
