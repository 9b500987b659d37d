"""A QTextBrowser that loads only local resources and opens web links on a click only.

Every pane that shows rendered Markdown (notes, review, drill statement, card preview)
uses it. The renderer already rebuilds its HTML without remote images; this is the
second wall: `loadResource` refuses anything but local files, qrc: and data: URLs,
so no image, stylesheet or table background is fetched from a host, whatever the
HTML asks for. Clicking a link never navigates the widget; the pane decides, and web
links go to the system browser through `open_web_link`.
"""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QTextBrowser, QWidget

WEB_SCHEMES = ("http", "https", "mailto")


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
    """A QTextBrowser that never fetches from the network nor follows a link by itself."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802 (Qt override)
        if not is_local_resource(url):
            return None
        return super().loadResource(kind, url)
