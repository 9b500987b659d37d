"""The Notes pane: a roadmap node's note, or one of the user's own notes, rendered.

Reading and rendering run on the database worker (core returns HTML); this pane only
draws it, with a header from the front matter, an outline, back-links, find (Ctrl+F),
zoom, copying code blocks and opening the file in an external editor. The open note's
file is watched, so an edit on disk re-renders it. Nothing remote is ever loaded: web
links open in the system browser only when clicked.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from studio.ui.context import AppContext
from studio.ui.local_browser import TABLE_STYLE, LocalTextBrowser
from studio.ui.theme import color as theme_color, is_dark

_WEB_SCHEMES = ("http", "https", "mailto")


def _is_note_path(target: str) -> bool:
    return os.path.isabs(target) and target.lower().endswith((".md", ".markdown"))


def _load_node_note(col, node_id: str, lang: str, dark: bool, copy_label: str):
    """The node's shipped note in the UI language (else the other one), rendered."""
    from studio.core.notes import load_note_file

    roadmap = col.roadmap
    node = roadmap.nodes.get(node_id) if roadmap else None
    if node is None:
        return node_id, None, None
    if not node.note:
        return node_id, node, None
    folder = col.content_dir / "notes"
    for candidate in (lang, "zh" if lang == "en" else "en"):
        path = folder / f"{node.note}.{candidate}.md"
        if path.is_file():
            return node_id, node, load_note_file(col, str(path), dark=dark, copy_label=copy_label)
    from studio.core.notes import LoadedNote

    return node_id, node, LoadedNote(str(folder / f"{node.note}.{lang}.md"), node.title(lang), None,
                                     error="file not found")


class NoteBrowser(LocalTextBrowser):
    """The note view: only local files, qrc: and data: are ever loaded (see local_browser)."""


class NotesPane(QWidget):
    pane_id = "notes"

    def __init__(self, ctx: AppContext, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.current_path: Path | None = None
        self.current_node: str | None = None
        self.code_blocks: list[str] = []
        self.zoom = 0
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._file_changed)
        self._reload_timer = QTimer(self, singleShot=True, interval=250)
        self._reload_timer.timeout.connect(self._reload_changed)
        self.title = QLabel()
        self.title.setTextFormat(Qt.RichText)
        self.title.setWordWrap(True)
        self.meta = QLabel()
        self.meta.setWordWrap(True)
        self.meta.setTextFormat(Qt.PlainText)
        self.problems = QLabel()
        self.problems.setWordWrap(True)
        self.problems.setProperty("role", "warning")  # coloured by the theme's style sheet
        self.problems.hide()
        self.review_button = QPushButton(self.tr("Review this node's cards"))
        self.review_button.clicked.connect(self._review_node)
        self.editor_button = QPushButton(self.tr("Open in editor"))
        self.editor_button.clicked.connect(self.open_in_editor)
        self.zoom_in_button = QPushButton(self.tr("A+"))
        self.zoom_in_button.setToolTip(self.tr("Larger text (Ctrl++)"))
        self.zoom_in_button.clicked.connect(lambda: self.set_zoom(self.zoom + 1))
        self.zoom_out_button = QPushButton(self.tr("A−"))
        self.zoom_out_button.setToolTip(self.tr("Smaller text (Ctrl+-)"))
        self.zoom_out_button.clicked.connect(lambda: self.set_zoom(self.zoom - 1))
        for button in (self.zoom_in_button, self.zoom_out_button):
            # as narrow as the theme's padding allows (a fixed 40 px cut the "A" off)
            button.setFixedWidth(button.sizeHint().width())
        self.browser = NoteBrowser()
        self.browser.setOpenLinks(False)
        self.browser.setOpenExternalLinks(False)
        self.browser.anchorClicked.connect(self._link)
        self.browser.theme_changed.connect(self._theme_changed)
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText(self.tr("Find in note (Enter: next, Shift+Enter: previous)"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.returnPressed.connect(lambda: self.find_next(backward=False))
        self.find_edit.textChanged.connect(lambda _: self.find_next(backward=False, restart=True))
        self.find_status = QLabel()
        self.find_bar = QWidget()
        fb = QHBoxLayout(self.find_bar)
        fb.setContentsMargins(0, 0, 0, 0)
        fb.addWidget(self.find_edit)
        fb.addWidget(self.find_status)
        self.find_bar.hide()
        self.outline = QListWidget()
        self.outline.setWordWrap(True)
        self.outline.itemActivated.connect(self._jump)
        self.outline.itemClicked.connect(self._jump)
        self.backlinks = QListWidget()
        self.backlinks.setMaximumHeight(120)
        self.backlinks.itemActivated.connect(self._open_backlink)
        self.backlinks.itemClicked.connect(self._open_backlink)
        self.backlinks_label = QLabel(self.tr("Linked from"))
        split = QSplitter()
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        for button in (self.review_button, self.editor_button, self.zoom_out_button, self.zoom_in_button):
            head.addWidget(button, 0, Qt.AlignTop)
        lv.addLayout(head)
        lv.addWidget(self.meta)
        lv.addWidget(self.problems)
        lv.addWidget(self.find_bar)
        lv.addWidget(self.browser, 1)
        lv.addWidget(self.backlinks_label)
        lv.addWidget(self.backlinks)
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
        for keys, slot in ((QKeySequence.Find, self.show_find), (QKeySequence.ZoomIn, lambda: self.set_zoom(self.zoom + 1)),
                           (QKeySequence("Ctrl+="), lambda: self.set_zoom(self.zoom + 1)),
                           (QKeySequence.ZoomOut, lambda: self.set_zoom(self.zoom - 1)),
                           (QKeySequence("Ctrl+0"), lambda: self.set_zoom(0)),
                           (QKeySequence(Qt.Key_Escape), self.hide_find)):
            shortcut = QShortcut(keys, self)
            shortcut.setContext(Qt.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self._set_empty(self.tr("Select a roadmap node on the left to read its note."))
        ctx.bus.node_selected.connect(self.show_node)
        ctx.bus.open_note.connect(self.show_node)

    # --- loading ---------------------------------------------------------------------------
    def show_node(self, target: str) -> None:
        """Show a roadmap node's note, or a note file when `target` is a path."""
        self.show_target(target)

    def show_target(self, target: str, anchor: str = "") -> None:
        lang, dark, copy_label = self.ctx.content_lang, is_dark(), self.tr("Copy code")
        if _is_note_path(target):
            from studio.core.notes import load_note_file

            self.ctx.tasks.run(lambda col: (None, None, load_note_file(col, target, dark=dark, copy_label=copy_label)),
                               lambda result: self._shown(result, anchor))
        else:
            self.ctx.tasks.run(lambda col: _load_node_note(col, target, lang, dark, copy_label),
                               lambda result: self._shown(result, anchor))

    def _set_empty(self, message: str) -> None:
        self.browser.setHtml("<p>" + html.escape(message) + "</p>")
        self.editor_button.setEnabled(False)
        self.review_button.setVisible(False)
        self.backlinks_label.hide()
        self.backlinks.hide()

    def _watch(self, path: Path | None) -> None:
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        if path is not None and path.is_file():
            self.watcher.addPath(str(path))

    def _shown(self, result, anchor: str = "") -> None:
        node_id, node, loaded = result
        lang = self.ctx.content_lang
        self.current_node = node_id if node is not None else None
        self.current_path = Path(loaded.path) if loaded is not None else None
        self._watch(self.current_path)
        self.outline.clear()
        self.backlinks.clear()
        self.problems.hide()
        heading = node.title(lang) if node is not None else (loaded.title if loaded else node_id or "")
        self.title.setText(f"<h2>{html.escape(heading)}</h2>")
        self.meta.setText(node.summary(lang) if node is not None else "")
        if loaded is None or loaded.rendered is None:
            if node_id is not None and node is None:
                self._set_empty(self.tr("There is no roadmap node “%1”.").replace("%1", node_id))
            elif loaded is None:
                self._set_empty(self.tr("This node has no note yet."))
            else:
                self._set_empty(self.tr("This note cannot be shown: %1 (%2)")
                                .replace("%1", loaded.error).replace("%2", loaded.path))
            self.review_button.setVisible(node is not None)
            return
        rendered = loaded.rendered
        front = rendered.front
        if node is None:
            self.title.setText(f"<h2>{html.escape(front.title or loaded.title)}</h2>")
        bits = [node.summary(lang)] if node is not None else []
        if front.created:
            bits.append(self.tr("Created: %1").replace("%1", front.created))
        if front.updated:
            bits.append(self.tr("Updated: %1").replace("%1", front.updated))
        if front.categories:
            bits.append(self.tr("Categories: %1").replace("%1", " / ".join(front.categories)))
        if front.tags:
            bits.append(self.tr("Tags: %1").replace("%1", ", ".join(front.tags)))
        self.meta.setText("  ·  ".join(b for b in bits if b))
        if rendered.problems:
            self.problems.setText("⚠ " + "; ".join(rendered.problems))
            self.problems.show()
        self.code_blocks = rendered.code_blocks
        self.browser.document().setDefaultStyleSheet(self._stylesheet())
        self.browser.setSearchPaths([str(self.current_path.parent)] if self.current_path else [])
        self.browser.setHtml(rendered.html)
        for level, text, anchor_id in rendered.headings:
            item = QListWidgetItem("  " * (level - 1) + text)
            item.setToolTip(text)
            item.setData(Qt.UserRole, anchor_id)
            self.outline.addItem(item)
        other = ".zh.md" if lang == "en" else ".en.md"
        paths = {ref.path for ref in loaded.backlinks}
        refs = [r for r in loaded.backlinks
                if not (r.path.endswith(other) and r.path[:-len(other)] + f".{lang}.md" in paths)]
        for ref in refs:
            item = QListWidgetItem(ref.title)
            item.setToolTip(ref.path)
            item.setData(Qt.UserRole, ref.path)
            self.backlinks.addItem(item)
        self.backlinks_label.setVisible(bool(refs))
        self.backlinks.setVisible(bool(refs))
        self.editor_button.setEnabled(True)
        self.review_button.setVisible(node is not None)
        self._apply_zoom()
        if anchor:
            self.browser.scrollToAnchor(anchor)

    def _stylesheet(self) -> str:
        link = theme_color("link")
        return f"a {{ color: {link}; }} pre {{ font-family: monospace; }} {TABLE_STYLE}"

    # --- file watching -------------------------------------------------------------------
    def _file_changed(self, path: str) -> None:
        if self.current_path is not None and path == str(self.current_path):
            self._reload_timer.start()

    def _reload_changed(self) -> None:
        """Re-index the changed file, then re-render it, keeping the scroll position."""
        if self.current_path is None:
            return
        from studio.core.notes import reindex_file

        path, node = str(self.current_path), self.current_node
        bar = self.browser.verticalScrollBar()
        position = bar.value()
        self.ctx.tasks.run(lambda col: reindex_file(col, path),
                           lambda _problem: self._after_reindex(node or path, position))

    def _after_reindex(self, target: str, position: int) -> None:
        self.ctx.bus.data_changed.emit("notes")
        self._render_again(target, position)

    def _theme_changed(self, _dark: bool) -> None:
        """Code blocks carry the theme's colours: render the open note again, in place."""
        target = self.current_node or (str(self.current_path) if self.current_path is not None else None)
        if target is not None:
            self._render_again(target, self.browser.verticalScrollBar().value())

    def _render_again(self, target: str, position: int) -> None:
        """Load and show `target` again, keeping the scroll position."""
        lang, dark, copy_label = self.ctx.content_lang, is_dark(), self.tr("Copy code")
        bar = self.browser.verticalScrollBar()

        def shown(result):
            self._shown(result)
            bar.setValue(position)

        if _is_note_path(target):
            from studio.core.notes import load_note_file

            self.ctx.tasks.run(lambda col: (None, None, load_note_file(col, target, dark=dark, copy_label=copy_label)),
                               shown)
        else:
            self.ctx.tasks.run(lambda col: _load_node_note(col, target, lang, dark, copy_label), shown)

    # --- actions ---------------------------------------------------------------------------
    def open_in_editor(self) -> None:
        if self.current_path is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.current_path)))

    def _review_node(self) -> None:
        if not self.current_node:
            return
        from studio.core.review import QueueScope

        node_id = self.current_node

        def scope(col):
            if col.roadmap is None or node_id not in col.roadmap.nodes:
                return QueueScope(node_ids=[node_id])
            return QueueScope.for_node(col.roadmap, node_id)

        self.ctx.tasks.run(scope, self.ctx.bus.review_scope.emit)

    def set_zoom(self, steps: int) -> None:
        self.zoom = max(-4, min(12, steps))
        self._apply_zoom()

    def _apply_zoom(self) -> None:
        font = self.browser.font()
        base = QGuiApplication.font().pointSizeF()
        font.setPointSizeF(max(6.0, base * (1 + 0.1 * self.zoom)))
        self.browser.document().setDefaultFont(font)

    def show_find(self) -> None:
        self.find_bar.show()
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def hide_find(self) -> None:
        self.find_bar.hide()
        self.browser.setFocus()

    def find_next(self, backward: bool = False, restart: bool = False) -> bool:
        """Select the next (or previous) match; wraps around; says when nothing matches."""
        needle = self.find_edit.text()
        if not needle:
            self.find_status.setText("")
            return False
        if restart:
            self.browser.moveCursor(self.browser.textCursor().MoveOperation.Start)
        flags = QTextDocument.FindFlag.FindBackward if backward else QTextDocument.FindFlag(0)
        found = self.browser.find(needle, flags)
        if not found:
            self.browser.moveCursor(self.browser.textCursor().MoveOperation.End if backward
                                    else self.browser.textCursor().MoveOperation.Start)
            found = self.browser.find(needle, flags)
        self.find_status.setText("" if found else self.tr("Not found"))
        return found

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if self.find_edit.hasFocus() and event.key() in (Qt.Key_Return, Qt.Key_Enter) \
                and event.modifiers() & Qt.ShiftModifier:
            self.find_next(backward=True)
            return
        super().keyPressEvent(event)

    # --- navigation ------------------------------------------------------------------------
    def _jump(self, item: QListWidgetItem) -> None:
        self.browser.scrollToAnchor(item.data(Qt.UserRole))

    def _open_backlink(self, item: QListWidgetItem) -> None:
        self.show_target(item.data(Qt.UserRole))

    def _link(self, url: QUrl) -> None:
        scheme = url.scheme()
        text = url.toString()
        if scheme == "note":
            target, _, anchor = text[len("note:"):].partition("#")
            self._follow(QUrl.fromPercentEncoding(target.encode()), anchor)
        elif scheme == "copy":
            index = int(text[len("copy:"):] or -1)
            if 0 <= index < len(self.code_blocks):
                QGuiApplication.clipboard().setText(self.code_blocks[index])
                self.ctx.bus.status_message.emit(self.tr("Code block copied"))
        elif scheme == "card":
            self.ctx.bus.status_message.emit(text)
        elif scheme in _WEB_SCHEMES:
            QDesktopServices.openUrl(url)
        elif not scheme and url.path():
            self._follow(QUrl.fromPercentEncoding(url.path().encode()), url.fragment(), relative=True)
        elif url.hasFragment():
            self.browser.scrollToAnchor(url.fragment())

    def _follow(self, target: str, anchor: str, relative: bool = False) -> None:
        """Open what a wiki-link or relative link names: a roadmap node or a note file."""
        from studio.core.notes import resolve_link

        source = str(self.current_path) if self.current_path else None
        lang = self.ctx.content_lang

        def find(col):
            roadmap = col.roadmap
            if not relative and roadmap is not None and target in roadmap.nodes:
                return "node", target
            ref = resolve_link(col, target, source, lang)
            return ("note", ref.path) if ref else ("missing", target)

        def go(result):
            kind, value = result
            if kind == "node":
                self.show_target(value, anchor)
            elif kind == "note":
                self.show_target(value, anchor)
            else:
                self.ctx.bus.status_message.emit(self.tr("No note named “%1” was found.").replace("%1", value))

        self.ctx.tasks.run(find, go)

    def refresh(self) -> None:
        self.browser.document().setDefaultStyleSheet(self._stylesheet())
