"""The design system: palette (light and dark), type scale, spacing, radii, icons.

This module is the only place in studio/ui where colours are written down
(tests/ui/test_theme.py greps the package for hex colours elsewhere). Panes ask for a
colour by its role, `color("danger")`, so both themes stay consistent; plots are styled
with `style_plot`; the app-wide style sheet (`stylesheet`) sets the shared look of
buttons, inputs, the navigation rail and the Today cards.

Spacing is on a 4/8 px grid (`SPACE`), type sizes come from `TYPE` (px), corner radii
from `RADIUS`. 'system' follows the platform's colour scheme.
"""

from __future__ import annotations

import functools
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")

# --- scales ------------------------------------------------------------------------------
SPACE = {"xxs": 2, "xs": 4, "sm": 8, "md": 12, "lg": 16, "xl": 24, "xxl": 32}
TYPE = {"caption": 11, "small": 12, "body": 13, "subtitle": 15, "title": 18, "question": 20, "display": 28}
RADIUS = {"sm": 4, "md": 6, "lg": 10}
MEASURE_CH = 70  # readable line length of a review card, in characters

# --- palettes ----------------------------------------------------------------------------
PALETTES: dict[str, dict[str, str]] = {
    "light": {
        "window": "#f6f7f9", "surface": "#ffffff", "surface_alt": "#eef0f3", "border": "#d5d9df",
        "text": "#1f2328", "text_muted": "#5f6670", "text_disabled": "#9aa0a8",
        "accent": "#2f6fde", "accent_text": "#ffffff", "accent_soft": "#dce8fb", "link": "#1f6feb",
        "success": "#1f7a3a", "success_bg": "#e3f2e6", "warning": "#7a4a00", "warning_bg": "#fff1d6",
        "danger": "#c62828", "danger_bg": "#fde7e7", "info": "#1f3b63", "info_bg": "#e8eef7",
        "rail": "#eceef2", "rail_active": "#dce8fb",
        "code_bg": "#f2f4f7", "code_gutter": "#f2f2f2", "code_gutter_text": "#a0a0a0",
        "code_gutter_current": "#000000", "code_current_line": "#fcfaed",
        "heat_0": "#ebedf0", "heat_1": "#b7d3f7", "heat_2": "#6fa4ef", "heat_3": "#2f6fde", "heat_4": "#1a4a9e",
        "state_learning": "#b06f0a", "state_done": "#1f7a3a", "state_skipped": "#888888",
        "banner_bg": "#fff1d6", "banner_text": "#5c3a00",
    },
    "dark": {
        "window": "#1f2124", "surface": "#2b2d30", "surface_alt": "#26282b", "border": "#3d4046",
        "text": "#dfe1e5", "text_muted": "#9da1a8", "text_disabled": "#6f737a",
        "accent": "#2f68d8", "accent_text": "#ffffff", "accent_soft": "#25324a", "link": "#589df6",
        "success": "#8fd19e", "success_bg": "#1e3524", "warning": "#ffcc80", "warning_bg": "#3d2e12",
        "danger": "#ff8a80", "danger_bg": "#45201f", "info": "#a9c7f0", "info_bg": "#1e2a3a",
        "rail": "#191a1d", "rail_active": "#2d3b55",
        "code_bg": "#1e1f22", "code_gutter": "#2b2d30", "code_gutter_text": "#6f737a",
        "code_gutter_current": "#ffffff", "code_current_line": "#32353b",
        "heat_0": "#2e3136", "heat_1": "#23406e", "heat_2": "#2f5ea8", "heat_3": "#3f7ee8", "heat_4": "#8ab4ff",
        "state_learning": "#e0a040", "state_done": "#6cc483", "state_skipped": "#8a8d93",
        "banner_bg": "#3d2e12", "banner_text": "#ffd9a0",
    },
}

# Plot series, the review flags and the grade buttons: chosen to read on both backgrounds.
SERIES = ("#3574f0", "#e07b00", "#2e9d50", "#c62828", "#8e44ad", "#00897b", "#6d4c41", "#d81b60")
FLAGS = {1: "#e03c3c", 2: "#e8870e", 3: "#33a04a", 4: "#3a6fd8"}
GRADES = {1: "#d9534f", 2: "#f0ad4e", 3: "#5cb85c", 4: "#3574f0"}

# Syntax colours of the code editor, by Pygments token name.
SYNTAX = {
    "light": {"Keyword": "#0033b3", "Name.Builtin": "#000080", "Name.Function": "#00627a",
              "Name.Class": "#00627a", "Name.Decorator": "#9e880d", "String": "#067d17",
              "Number": "#1750eb", "Comment": "#8c8c8c", "Operator": "#333333"},
    "dark": {"Keyword": "#cf8e6d", "Name.Builtin": "#8888c6", "Name.Function": "#56a8f5",
             "Name.Class": "#56a8f5", "Name.Decorator": "#b3ae60", "String": "#6aab73",
             "Number": "#2aacb8", "Comment": "#7a7e85", "Operator": "#bcbec4"},
}


def effective_theme(setting: str) -> str:
    if setting in ("light", "dark"):
        return setting
    scheme = QGuiApplication.styleHints().colorScheme()
    return "dark" if scheme == Qt.ColorScheme.Dark else "light"


def current() -> str:
    """The theme in effect: 'light' or 'dark'."""
    return "dark" if is_dark() else "light"


def color(role: str, theme: str | None = None) -> str:
    """A palette colour by role ('danger', 'text_muted', ...) for the theme in effect."""
    return PALETTES[theme or current()][role]


def qcolor(role: str, theme: str | None = None) -> QColor:
    return QColor(color(role, theme))


def series_color(n: int) -> str:
    return SERIES[n % len(SERIES)]


def syntax_colors(theme: str | None = None) -> dict[str, str]:
    return SYNTAX[theme or current()]


def _palette(theme: str) -> QPalette:
    c = PALETTES[theme]
    p = QPalette()
    for role, key in (
        (QPalette.Window, "window"), (QPalette.WindowText, "text"), (QPalette.Base, "surface"),
        (QPalette.AlternateBase, "surface_alt"), (QPalette.Text, "text"), (QPalette.Button, "surface"),
        (QPalette.ButtonText, "text"), (QPalette.ToolTipBase, "surface"), (QPalette.ToolTipText, "text"),
        (QPalette.Highlight, "accent"), (QPalette.HighlightedText, "accent_text"), (QPalette.Link, "link"),
        (QPalette.PlaceholderText, "text_muted"), (QPalette.BrightText, "danger"), (QPalette.Mid, "border"),
        (QPalette.Midlight, "surface_alt"),
    ):
        p.setColor(role, QColor(c[key]))
    for role in (QPalette.Text, QPalette.ButtonText, QPalette.WindowText):
        p.setColor(QPalette.Disabled, role, QColor(c["text_disabled"]))
    return p


def stylesheet(theme: str) -> str:
    """The app-wide style sheet: shared shapes and the named widgets of the design system."""
    c = PALETTES[theme]
    r, s, t = RADIUS, SPACE, TYPE
    return f"""
QPushButton {{ padding: {s['xs']}px {s['md']}px; border: 1px solid {c['border']}; border-radius: {r['md']}px;
  background: {c['surface']}; min-height: 20px; }}
QPushButton:hover {{ border-color: {c['accent']}; }}
QPushButton:pressed {{ background: {c['accent_soft']}; }}
QPushButton:checked {{ background: {c['accent_soft']}; border-color: {c['accent']}; }}
QPushButton:disabled {{ color: {c['text_disabled']}; background: {c['surface_alt']}; }}
QPushButton[primary="true"] {{ background: {c['accent']}; color: {c['accent_text']}; border-color: {c['accent']};
  font-weight: 600; }}
QPushButton[primary="true"]:disabled {{ background: {c['surface_alt']}; color: {c['text_disabled']};
  border-color: {c['border']}; }}
QPushButton[flat="true"] {{ border: none; background: transparent; color: {c['link']}; padding: 0 {s['xs']}px;
  text-align: left; }}
QPushButton[flat="true"]:hover {{ text-decoration: underline; }}
QLineEdit {{ padding: 3px {s['sm']}px; border: 1px solid {c['border']};
  border-radius: {r['sm']}px; background: {c['surface']}; }}
QLineEdit:focus {{ border-color: {c['accent']}; }}
QListWidget#rail {{ background: {c['rail']}; border: none; border-right: 1px solid {c['border']};
  padding-top: {s['sm']}px; outline: 0; }}
QListWidget#rail::item {{ border-radius: {r['md']}px; margin: 2px {s['xs']}px; padding: {s['xs']}px 0;
  color: {c['text_muted']}; }}
QListWidget#rail::item:selected {{ background: {c['rail_active']}; color: {c['text']}; }}
QListWidget#rail::item:hover:!selected {{ background: {c['surface_alt']}; }}
QFrame[card="true"] {{ background: {c['surface']}; border: 1px solid {c['border']}; border-radius: {r['lg']}px; }}
QLabel[role="title"] {{ font-size: {t['title']}px; font-weight: 600; }}
QLabel[role="display"] {{ font-size: {t['display']}px; font-weight: 600; }}
QLabel[role="subtitle"] {{ font-size: {t['subtitle']}px; font-weight: 600; }}
QLabel[role="muted"] {{ color: {c['text_muted']}; }}
QLabel[role="error"] {{ color: {c['danger']}; }}
QLabel[role="warning"] {{ color: {c['warning']}; }}
QLabel#banner {{ background: {c['banner_bg']}; color: {c['banner_text']}; padding: {s['sm']}px {s['md']}px; }}
QLabel[tone="ok"] {{ background: {c['success_bg']}; color: {c['success']}; padding: {s['xs']}px {s['sm']}px;
  border-radius: {r['sm']}px; }}
QLabel[tone="warn"] {{ background: {c['warning_bg']}; color: {c['warning']}; padding: {s['xs']}px {s['sm']}px;
  border-radius: {r['sm']}px; }}
QLabel[tone="info"] {{ background: {c['info_bg']}; color: {c['info']}; padding: {s['xs']}px {s['sm']}px;
  border-radius: {r['sm']}px; }}
QPushButton[grade="1"] {{ border-bottom: 3px solid {GRADES[1]}; }}
QPushButton[grade="2"] {{ border-bottom: 3px solid {GRADES[2]}; }}
QPushButton[grade="3"] {{ border-bottom: 3px solid {GRADES[3]}; }}
QPushButton[grade="4"] {{ border-bottom: 3px solid {GRADES[4]}; }}
QFrame#gradeBar {{ background: {c['surface_alt']}; border-radius: {r['lg']}px; }}
"""


def apply_theme(app: QApplication, setting: str) -> str:
    """Apply the theme and return the one in effect ('light' or 'dark')."""
    theme = effective_theme(setting)
    app.setStyle("Fusion")
    app.setProperty("studio_theme", theme)  # before the palette: palette-change handlers read it
    app.setPalette(_palette(theme))
    app.setStyleSheet(stylesheet(theme))
    return theme


def is_dark() -> bool:
    app = QApplication.instance()
    return bool(app) and app.property("studio_theme") == "dark"


def style_plot(plot, background: bool = True) -> None:
    """A pyqtgraph PlotWidget/PlotItem in the theme's colours (axes, labels, title, grid);
    `background=False` leaves it transparent over the pane."""
    import pyqtgraph as pg

    c = PALETTES[current()]
    item = plot.getPlotItem() if hasattr(plot, "getPlotItem") else plot
    if background and hasattr(plot, "setBackground"):
        plot.setBackground(c["surface"])
    pen = pg.mkPen(c["border"])
    for name in ("left", "bottom", "right", "top"):
        axis = item.getAxis(name)
        axis.setPen(pen)
        axis.setTextPen(pg.mkPen(c["text_muted"]))
    title = item.titleLabel
    if title is not None and title.text:
        title.setText(title.text, color=c["text"])


@functools.lru_cache(maxsize=64)
def _svg_text(path: str) -> str:
    """An icon's SVG source, read once per run (the rail's icons are drawn again on a theme change)."""
    return Path(path).read_text(encoding="utf-8")


def tint_svg(path, role: str = "text", theme: str | None = None, size: int = 22):
    """A Lucide SVG (stroke="currentColor") drawn in a palette colour, as a QPixmap."""
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QPixmap

    data = _svg_text(str(path)).replace("currentColor", color(role, theme))
    pixmap = QPixmap()
    pixmap.loadFromData(QByteArray(data.encode()), "SVG")
    return pixmap.scaled(size, size, Qt.KeepAspectRatio, Qt.SmoothTransformation) if not pixmap.isNull() else pixmap


def icon(name: str, size: int = 22):
    """A navigation icon from resources/icons (Lucide, ISC) for both states of the rail."""
    from PySide6.QtGui import QIcon

    from studio import paths

    path = paths.resources_dir() / "icons" / f"{name}.svg"
    result = QIcon()
    if not path.is_file():
        return result
    result.addPixmap(tint_svg(path, "text_muted", size=size), QIcon.Normal, QIcon.Off)
    accent = tint_svg(path, "accent", size=size)
    result.addPixmap(accent, QIcon.Selected, QIcon.Off)
    result.addPixmap(accent, QIcon.Active, QIcon.Off)
    return result


def app_icon():
    """The application icon: the Lucide 'cpu' glyph in white on an accent rounded square."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QIcon, QPainter, QPixmap

    from studio import paths

    path = paths.resources_dir() / "icons" / "cpu.svg"
    result = QIcon()
    for size in (16, 32, 64, 128, 256):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        painter.setBrush(QColor(PALETTES["light"]["accent"]))
        painter.drawRoundedRect(QRectF(0, 0, size, size), size * 0.22, size * 0.22)
        if path.is_file():
            glyph = tint_svg(path, "accent_text", "light", size=int(size * 0.68))
            offset = (size - glyph.width()) // 2
            painter.drawPixmap(offset, offset, glyph)
        painter.end()
        result.addPixmap(pixmap)
    return result


def set_role(widget, name: str, value: str) -> None:
    """Set a styling property (role, tone, primary) and let the style sheet apply it now."""
    widget.setProperty(name, value)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)
