"""What every pane is given: the collection's worker, settings, language and the event bus."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from studio.core.settings import Settings
from studio.ui.tasks import TaskRunner


class Bus(QObject):
    """App-wide events; panes subscribe instead of knowing about each other."""

    node_selected = Signal(str)  # roadmap node id
    open_note = Signal(str)  # note path or node id
    review_scope = Signal(object)  # a QueueScope to start a review session with
    open_card = Signal(int)
    open_drill = Signal(str)
    data_changed = Signal(str)  # what changed: cards | reviews | interviews | notes | drills | progress
    status_message = Signal(str)
    drill_device = Signal(str)  # GPU name for drills, "" for the CPU interpreter
    open_pane = Signal(str)  # a pane id (quick open)


@dataclass
class AppContext:
    tasks: TaskRunner
    settings: Settings
    language: str  # effective UI language: en | zh_CN
    bus: Bus
    drill_device: str = ""

    @property
    def collection(self):
        return self.tasks.collection

    @property
    def content_lang(self) -> str:
        return "zh" if self.language == "zh_CN" else "en"
