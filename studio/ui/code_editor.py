"""A small code editor for drills: Pygments highlighting, line numbers and editing keys.

Highlighting uses a Pygments lexer (Python, or CUDA for CUDA C++ solutions:
`set_language`) on each block (line), with the state carried across lines for Python's
triple-quoted strings and C's block comments. Keys: Tab inserts four spaces (or indents the
selection), Shift+Tab dedents, Enter keeps the indentation (one level more after a colon in
Python, after an opening brace in C++), Ctrl+/ toggles comments (# or //), Ctrl+F finds,
Ctrl+= / Ctrl+- zoom.
"""

from __future__ import annotations

from pygments.lexers import CudaLexer, PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QKeySequence,
    QPainter,
    QShortcut,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from studio.ui.theme import SYNTAX, is_dark, qcolor

_TOKENS = {"Keyword": Keyword, "Name.Builtin": Name.Builtin, "Name.Function": Name.Function,
           "Name.Class": Name.Class, "Name.Decorator": Name.Decorator, "String": String, "Number": Number,
           "Comment": Comment, "Operator": Operator}
_LIGHT = {_TOKENS[name]: value for name, value in SYNTAX["light"].items()}
_DARK = {_TOKENS[name]: value for name, value in SYNTAX["dark"].items()}


_LEXERS = {"python": PythonLexer, "cuda": CudaLexer}


class CodeHighlighter(QSyntaxHighlighter):
    """Colours Python or CUDA C++ source with Pygments tokens, block by block."""

    def __init__(self, document: QTextDocument, language: str = "python"):
        super().__init__(document)
        self.language = language if language in _LEXERS else "python"
        # C's line comments need the line's end to be seen: the lexer gets a newline appended.
        self.lexer = _LEXERS[self.language](stripnl=False, ensurenl=self.language == "cuda")
        palette = _DARK if is_dark() else _LIGHT
        self.formats: dict = {}
        for token, color in palette.items():
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(color))
            if token is Keyword:
                fmt.setFontWeight(QFont.Bold)
            if token is Comment:
                fmt.setFontItalic(True)
            self.formats[token] = fmt

    def _format(self, token):
        while token is not Token and token not in self.formats:
            token = token.parent
        return self.formats.get(token)

    def highlightBlock(self, text: str) -> None:
        # State 1: inside a construct carried over from the previous line: a triple-quoted
        # string (Python) or a /* block comment */ (CUDA). The lexer sees the opener again.
        prefix = ("/*" if self.language == "cuda" else '"""') if self.previousBlockState() == 1 else ""
        offset = -len(prefix)
        open_comment = False
        for token, value in self.lexer.get_tokens(prefix + text):
            fmt = self._format(token)
            start = max(offset, 0)
            end = offset + len(value)
            if fmt is not None and end > start:
                self.setFormat(start, end - start, fmt)
            if token in Comment.Multiline:
                open_comment = value.startswith("/*") and not value.endswith("*/")
            elif value.strip():
                open_comment = False   # anything after a closed comment
            offset = end
        if self.language == "cuda":
            self.setCurrentBlockState(1 if open_comment else 0)
            return
        quotes = (prefix + text).count('"""') + (prefix + text).count("'''")
        self.setCurrentBlockState(1 if quotes % 2 == 1 else 0)




class _LineNumbers(QWidget):
    def __init__(self, editor: CodeEditor):
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:
        self.editor.paint_gutter(event)


class CodeEditor(QPlainTextEdit):
    zoom_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        font = QFontDatabase.systemFont(QFontDatabase.FixedFont)
        font.setPointSize(11)
        self.setFont(font)
        self.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.gutter = _LineNumbers(self)
        self.language = "python"
        self.highlighter = CodeHighlighter(self.document())
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._update_gutter)
        self.cursorPositionChanged.connect(self._highlight_current_line)
        self._update_gutter_width()
        self._highlight_current_line()
        self.find_box = QLineEdit(self)
        self.find_box.setPlaceholderText(self.tr("Find (Enter: next, Shift+Enter: previous, Esc: close)"))
        self.find_box.hide()
        self.find_box.returnPressed.connect(self.find_next)
        QShortcut(QKeySequence("Shift+Return"), self.find_box, self.find_previous, context=Qt.WidgetShortcut)
        QShortcut(QKeySequence.Find, self, self.open_find, context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence("Ctrl+/"), self, self.toggle_comment, context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence.ZoomIn, self, lambda: self.zoom(1), context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence("Ctrl+="), self, lambda: self.zoom(1), context=Qt.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence.ZoomOut, self, lambda: self.zoom(-1), context=Qt.WidgetWithChildrenShortcut)

    # --- gutter ------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = max(3, len(str(self.blockCount())))
        return 12 + self.fontMetrics().horizontalAdvance("9") * digits

    def _update_gutter_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _update_gutter(self, rect, dy) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))
        self.find_box.setGeometry(cr.right() - 320, cr.top() + 4, 310, self.find_box.sizeHint().height())

    def paint_gutter(self, event) -> None:
        painter = QPainter(self.gutter)
        painter.fillRect(event.rect(), qcolor("code_gutter"))
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        bottom = top + round(self.blockBoundingRect(block).height())
        current = self.textCursor().blockNumber()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and bottom >= event.rect().top():
                painter.setPen(qcolor("code_gutter_text" if number != current else "code_gutter_current"))
                painter.drawText(0, top, self.gutter.width() - 6, self.fontMetrics().height(),
                                 Qt.AlignRight, str(number + 1))
            block = block.next()
            top = bottom
            bottom = top + round(self.blockBoundingRect(block).height())
            number += 1

    def _highlight_current_line(self) -> None:
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(qcolor("code_current_line"))
        selection.format.setProperty(QTextFormat.FullWidthSelection, True)
        selection.cursor = self.textCursor()
        selection.cursor.clearSelection()
        self.setExtraSelections([selection])

    # --- editing keys -------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key == Qt.Key_Tab and not event.modifiers() & Qt.ControlModifier:
            if self.textCursor().hasSelection():
                self._shift_lines(+1)
            else:
                self.insertPlainText("    ")
            return
        if key == Qt.Key_Backtab:
            self._shift_lines(-1)
            return
        if key in (Qt.Key_Return, Qt.Key_Enter) and not event.modifiers() & Qt.ControlModifier:
            line = self.textCursor().block().text()[: self.textCursor().positionInBlock()]
            indent = line[: len(line) - len(line.lstrip(" "))]
            if line.rstrip().endswith("{" if self.language == "cuda" else ":"):
                indent += "    "
            super().keyPressEvent(event)
            self.insertPlainText(indent)
            return
        if key == Qt.Key_Escape and self.find_box.isVisible():
            self.find_box.hide()
            return
        super().keyPressEvent(event)

    def _selected_blocks(self):
        cursor = self.textCursor()
        doc = self.document()
        start = doc.findBlock(cursor.selectionStart())
        end = doc.findBlock(max(cursor.selectionEnd() - (1 if cursor.hasSelection() else 0), cursor.selectionStart()))
        block = start
        while True:
            yield block
            if block == end or not block.isValid():
                break
            block = block.next()

    def _shift_lines(self, direction: int) -> None:
        cursor = self.textCursor()
        cursor.beginEditBlock()
        for block in list(self._selected_blocks()):
            c = QTextCursor(block)
            if direction > 0:
                c.insertText("    ")
            else:
                spaces = len(block.text()) - len(block.text().lstrip(" "))
                for _ in range(min(4, spaces)):
                    c.deleteChar()
        cursor.endEditBlock()

    def toggle_comment(self) -> None:
        """Ctrl+/: comment the selected lines, or uncomment them if all are commented."""
        blocks = [b for b in self._selected_blocks() if b.text().strip()]
        if not blocks:
            return
        mark = "//" if self.language == "cuda" else "#"
        uncomment = all(b.text().lstrip().startswith(mark) for b in blocks)
        cursor = self.textCursor()
        cursor.beginEditBlock()
        indent = min(len(b.text()) - len(b.text().lstrip()) for b in blocks)
        for block in blocks:
            c = QTextCursor(block)
            if uncomment:
                col = block.text().index(mark)
                c.setPosition(block.position() + col)
                width = len(mark) + (1 if block.text()[col + len(mark):col + len(mark) + 1] == " " else 0)
                c.setPosition(block.position() + col + width, QTextCursor.KeepAnchor)
                c.removeSelectedText()
            else:
                c.setPosition(block.position() + indent)
                c.insertText(mark + " ")
        cursor.endEditBlock()

    def set_language(self, language: str) -> None:
        """'python' or 'cuda' (a Pygments lexer alias from studio.drills.languages)."""
        language = language if language in _LEXERS else "python"
        if language == self.language:
            return
        self.language = language
        self.highlighter.setDocument(None)
        self.highlighter = CodeHighlighter(self.document(), language)

    # --- find and zoom -----------------------------------------------------------------
    def open_find(self) -> None:
        self.find_box.show()
        self.find_box.setFocus()
        self.find_box.selectAll()

    def find_next(self, backward: bool = False) -> bool:
        text = self.find_box.text()
        if not text:
            return False
        flags = QTextDocument.FindBackward if backward else QTextDocument.FindFlag(0)
        if self.find(text, flags):
            return True
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.End if backward else QTextCursor.Start)
        self.setTextCursor(cursor)
        return self.find(text, flags)

    def find_previous(self) -> bool:
        return self.find_next(backward=True)

    def zoom(self, steps: int) -> None:
        font = self.font()
        size = max(6, min(40, font.pointSize() + steps))
        font.setPointSize(size)
        self.setFont(font)
        self._update_gutter_width()
        self.zoom_changed.emit(size)

    def go_to_line(self, line: int) -> None:
        """Put the cursor at the start of a 1-based line and show it."""
        block = self.document().findBlockByNumber(max(0, line - 1))
        cursor = QTextCursor(block)
        self.setTextCursor(cursor)
        self.centerCursor()
        self.setFocus()
