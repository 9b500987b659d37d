"""The design system: studio/ui/theme.py is the only place in the UI that writes a colour,
both palettes define the same roles, and the styled widgets follow the theme."""

from __future__ import annotations

import re
from pathlib import Path

from studio.ui import theme

UI = Path(__file__).resolve().parents[2] / "studio" / "ui"
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?\b")
RGB = re.compile(r"\brgba?\s*\(\s*\d")


def _colour_literals(text: str) -> list[str]:
    found = []
    for n, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
        for match in HEX.finditer(code):
            # '#' followed by digits in a string is a colour; the '# ' of a comment is not
            if match.group(0)[1:].isdigit() and len(match.group(0)) <= 4:
                continue  # "#1", "#12": numbering, not a colour
            found.append(f"{n}: {line.strip()}")
        for _match in RGB.finditer(code):
            found.append(f"{n}: {line.strip()}")
    return found


def test_no_colour_is_written_outside_the_theme_module():
    offenders = {}
    for path in sorted(UI.rglob("*.py")):
        if path.name == "theme.py":
            continue
        hits = _colour_literals(path.read_text(encoding="utf-8"))
        if hits:
            offenders[str(path.relative_to(UI))] = hits
    assert offenders == {}, f"colours written outside studio/ui/theme.py: {offenders}"


def test_the_grep_finds_a_colour_when_there_is_one():
    assert _colour_literals('label.setStyleSheet("color: #c33;")')
    assert _colour_literals('QColor("#2e7d32")')
    assert _colour_literals('x = "background: rgba(230, 160, 0, 0.28)"')
    assert not _colour_literals('n = "#1"  # the first')


def test_both_palettes_define_the_same_roles():
    assert set(theme.PALETTES["light"]) == set(theme.PALETTES["dark"])
    assert set(theme.SYNTAX["light"]) == set(theme.SYNTAX["dark"])


def test_spacing_is_on_the_4_px_grid():
    assert all(v % 4 == 0 for k, v in theme.SPACE.items() if k != "xxs")


def _luminance(hex_colour: str) -> float:
    from PySide6.QtGui import QColor

    c = QColor(hex_colour)

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def test_text_on_its_background_is_readable_in_both_themes():
    for name, p in theme.PALETTES.items():
        for fg, bg in (("text", "window"), ("text", "surface"), ("text_muted", "surface"),
                       ("success", "success_bg"), ("warning", "warning_bg"), ("info", "info_bg"),
                       ("banner_text", "banner_bg"), ("accent_text", "accent"), ("danger", "surface")):
            assert _contrast(p[fg], p[bg]) >= 4.5, (name, fg, bg)


def test_warning_banner_is_dark_in_the_dark_theme(qapp):
    # the CPU-interpreter banner was a pale bar in the dark theme
    assert _luminance(theme.PALETTES["dark"]["warning_bg"]) < 0.05
    assert _luminance(theme.PALETTES["light"]["warning_bg"]) > 0.7


def test_navigation_icons_and_licence_are_shipped():
    from studio import paths

    icons = paths.resources_dir() / "icons"
    assert (icons / "LICENSE").read_text(encoding="utf-8").startswith("ISC License")
    for name in ("sun", "book-open", "layers", "calendar-clock", "cpu", "gauge", "chart-column"):
        assert 'stroke="currentColor"' in (icons / f"{name}.svg").read_text(encoding="utf-8")


def test_icons_are_tinted_from_the_palette(qapp):
    from studio import paths

    pixmap = theme.tint_svg(paths.resources_dir() / "icons" / "cpu.svg", "accent", "light", size=48)
    assert not pixmap.isNull() and pixmap.width() == 48
    image = pixmap.toImage()
    colours = {image.pixelColor(x, y).name() for x in range(48) for y in range(48) if image.pixelColor(x, y).alpha() == 255}
    assert theme.PALETTES["light"]["accent"] in colours
    assert not theme.app_icon().isNull()
