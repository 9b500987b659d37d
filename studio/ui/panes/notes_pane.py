"""The Notes pane: a roadmap node's note (or any Markdown file) rendered with its outline."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext
from studio.ui.theme import is_dark


def _load_note(col, node_id: str, lang: str):
    """Find the node's note in the UI language (falling back to the other) and render it."""
    from studio.core.markdown_render import render_markdown

    roadmap = col.roadmap
    node = roadmap.nodes.get(node_id) if roadmap else None
    stem = node.note if node and node.note else None
    if stem is None:
        return node_id, None, None
    folder = col.content_dir / "notes"
    for candidate in (lang, "zh" if lang == "en" else "en"):
        path = folder / f"{stem}.{candidate}.md"
        if path.is_file():
            text = path.read_text(encoding="utf-8-sig", errors="replace")
            return node_id, path, render_markdown(text, dark=False)
    return node_id, folder / f"{stem}.{lang}.md", None


class NotesPane(QWidget):
    pane_id = "notes"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.current_path: Path | None = None
        self.title = QLabel()
        self.title.setTextFormat(Qt.RichText)
        self.title.setWordWrap(True)
        self.meta = QLabel()
        self.meta.setWordWrap(True)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._link)
        self.outline = QListWidget()
        self.outline.itemActivated.connect(self._jump)
        self.outline.itemClicked.connect(self._jump)
        split = QSplitter()
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.title)
        lv.addWidget(self.meta)
        lv.addWidget(self.browser)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(QLabel(self.tr("Outline")))
        rv.addWidget(self.outline)
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(split)
        self.browser.setHtml("<p>" + self.tr("Select a roadmap node on the left to read its note.") + "</p>")
        ctx.bus.node_selected.connect(self.show_node)

    def show_node(self, node_id: str) -> None:
        self.ctx.tasks.run(lambda col: _load_note(col, node_id, self.ctx.content_lang), self._shown)

    def _shown(self, result) -> None:
        node_id, path, rendered = result
        self.current_path = path
        self.outline.clear()
        if rendered is None:
            self.title.setText(f"<h2>{node_id}</h2>")
            self.meta.setText("")
            if path is None:
                self.browser.setHtml("<p>" + self.tr("This node has no note yet.") + "</p>")
            else:
                self.browser.setHtml("<p>" + self.tr("The note file is missing:") + f" <code>{path}</code></p>")
            return
        front = rendered.front
        self.title.setText(f"<h2>{front.title or node_id}</h2>")
        bits = []
        if front.created:
            bits.append(self.tr("Created") + ": " + front.created)
        if front.updated:
            bits.append(self.tr("Updated") + ": " + front.updated)
        if front.tags:
            bits.append(self.tr("Tags") + ": " + ", ".join(front.tags))
        bits.extend(rendered.problems)
        self.meta.setText(" · ".join(bits))
        self.browser.document().setDefaultStyleSheet("pre { font-family: monospace; }")
        self.browser.setSearchPaths([str(path.parent)] if path else [])
        self.browser.setHtml(rendered.html)
        for level, text, anchor in rendered.headings:
            item = QListWidgetItem("  " * (level - 1) + text)
            item.setData(Qt.UserRole, anchor)
            self.outline.addItem(item)

    def _jump(self, item: QListWidgetItem) -> None:
        self.browser.scrollToAnchor(item.data(Qt.UserRole))

    def _link(self, url: QUrl) -> None:
        scheme = url.scheme()
        if scheme == "note":
            target = url.toString()[len("note:"):].split("#", 1)
            self.ctx.bus.node_selected.emit(target[0])
        elif scheme == "card":
            self.ctx.bus.status_message.emit(url.toString())
        elif scheme in ("http", "https"):
            from PySide6.QtGui import QDesktopServices

            QDesktopServices.openUrl(url)
        elif url.hasFragment() and not url.path():
            self.browser.scrollToAnchor(url.fragment())

    def refresh(self) -> None:
        if is_dark():
            self.browser.document().setDefaultStyleSheet("a { color: #589df6; }")
