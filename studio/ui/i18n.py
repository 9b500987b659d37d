"""Loading the UI translations (Qt .qm files compiled from resources/i18n/*.ts)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from studio import paths
from studio.core.settings import resolve_language

_installed: list[QTranslator] = []


def i18n_dir():
    return paths.resources_dir() / "i18n"


def effective_language(setting: str) -> str:
    return resolve_language(setting, QLocale.system().name())


def install_translators(language: str) -> list[str]:
    """Install every module's translator for `language`; return the files loaded.

    The renderer's plain-text notices (studio.core, no Qt) are worded through them too."""
    from studio.ui import render_notices

    render_notices.install()
    app = QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    loaded: list[str] = []
    if language == "en":
        return loaded
    # Qt's own strings (the standard Close, Yes, No, Cancel buttons) come with Qt.
    qt_own = sorted(Path(QLibraryInfo.path(QLibraryInfo.TranslationsPath)).glob(f"qtbase_{language}.qm"))
    for qm in [*qt_own, *sorted(i18n_dir().glob(f"*_{language}.qm"))]:
        translator = QTranslator(app)
        if translator.load(str(qm)):
            app.installTranslator(translator)
            _installed.append(translator)
            loaded.append(qm.name)
    return loaded
