"""Light and dark themes; 'system' follows the platform's colour scheme."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")


def effective_theme(setting: str) -> str:
    if setting in ("light", "dark"):
        return setting
    scheme = QGuiApplication.styleHints().colorScheme()
    return "dark" if scheme == Qt.ColorScheme.Dark else "light"


def _dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d30"), QColor("#dfe1e5")
    for role, color in (
        (QPalette.Window, window), (QPalette.WindowText, text), (QPalette.Base, base),
        (QPalette.AlternateBase, QColor("#26282b")), (QPalette.Text, text),
        (QPalette.Button, window), (QPalette.ButtonText, text), (QPalette.ToolTipBase, window),
        (QPalette.ToolTipText, text), (QPalette.Highlight, QColor("#3574f0")),
        (QPalette.HighlightedText, QColor("#ffffff")), (QPalette.Link, QColor("#589df6")),
        (QPalette.PlaceholderText, QColor("#8c8f94")), (QPalette.BrightText, QColor("#ff6b68")),
    ):
        p.setColor(role, color)
    p.setColor(QPalette.Disabled, QPalette.Text, QColor("#6f737a"))
    p.setColor(QPalette.Disabled, QPalette.ButtonText, QColor("#6f737a"))
    return p


def apply_theme(app: QApplication, setting: str) -> str:
    """Apply the theme and return the one in effect ('light' or 'dark')."""
    theme = effective_theme(setting)
    app.setStyle("Fusion")
    app.setPalette(_dark_palette() if theme == "dark" else app.style().standardPalette())
    app.setProperty("studio_theme", theme)
    return theme


def is_dark() -> bool:
    app = QApplication.instance()
    return bool(app) and app.property("studio_theme") == "dark"
