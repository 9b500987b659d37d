"""A QTextBrowser that loads only local resources and opens web links on a click only.

Every pane that shows rendered Markdown (notes, review, drill statement, card preview)
uses it. The renderer already rebuilds its HTML without remote images; this is the
second wall: `loadResource` refuses anything but local files, qrc: and data: URLs,
so no image, stylesheet or table background is fetched from a host, whatever the
HTML asks for. Clicking a link never navigates the widget; the pane decides, and web
links go to the system browser through `open_web_link`.

The renderer bakes the theme's colours into code blocks (`render_markdown(dark=...)`),
so a pane renders with `dark=browser.dark` and renders again on `theme_changed`, which
the browser emits once the app's theme has changed under it (View → Theme).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QTextBrowser, QWidget

from studio.ui.theme import is_dark

WEB_SCHEMES = ("http", "https", "mailto")
TABLE_STYLE = ("table { border-collapse: collapse; } th, td { padding: 3px 6px; } "
               "table.code { margin-bottom: 8px; } table.code td { padding: 8px; }")


def is_local_resource(url: QUrl) -> bool:
    """A file on this machine, a Qt resource or embedded data; not a host or network share."""
    scheme = url.scheme().lower()
    if scheme in ("data", "qrc"):
        return True
    if len(scheme) == 1:  # "C:/notes/a.png" read as scheme "c"
        return True
    if scheme not in ("", "file"):
        return False
    host = url.host().lower()
    path = url.path()
    return host in ("", "localhost") and not path.startswith(("//", "\\\\"))


def open_web_link(url: QUrl) -> bool:
    """Open an http(s) or mailto link in the system browser; False (and nothing) otherwise."""
    if url.scheme().lower() not in WEB_SCHEMES:
        return False
    QDesktopServices.openUrl(url)
    return True


class LocalTextBrowser(QTextBrowser):
    """A QTextBrowser that never fetches from the network nor follows a link by itself.

    `theme_changed(dark)` tells the pane to render its Markdown again for the new theme.
    """

    theme_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        # Markdown tables carry no spacing of their own; code blocks (table.code) keep theirs
        # and a gap between two in a row. The Notes pane adds these rules to its own.
        self.document().setDefaultStyleSheet(TABLE_STYLE)
        self.dark = is_dark()
        # Switching the theme sends several palette and style events, and the app records
        # the new theme only after the palette: look once, after they have all arrived.
        self._theme_check = QTimer(self, singleShot=True, interval=0)
        self._theme_check.timeout.connect(self._check_theme)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.PaletteChange, QEvent.ApplicationPaletteChange, QEvent.StyleChange):
            self._theme_check.start()
        super().changeEvent(event)

    def _check_theme(self) -> None:
        dark = is_dark()
        if dark != self.dark:
            self.dark = dark
            self.theme_changed.emit(dark)

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 (Qt override)
        if not is_local_resource(url):
            return None
        return super().loadResource(kind, url)
