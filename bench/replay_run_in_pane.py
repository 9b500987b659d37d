"""Replay a RunResult JSON recorded on a GPU through the drills pane (on_event), here without one.

The GUI cannot run on the lent GPU machines (no Qt there); the pane sees the same events
whether they come live from a child process or from this replay, so this shows what a user
at a GPU sees for a recorded run (bench/results/cuda_drills_gpu.md).

usage: python bench/replay_run_in_pane.py RESULT.json DRILL LANG(cuda|triton|torch) OUT.png [en|zh_CN] [light|dark] STUDIO_HOME
"""
import dataclasses, json, os, sys, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
path, drill, code_lang, png = sys.argv[1:5]
language = sys.argv[5] if len(sys.argv) > 5 else "en"
theme = sys.argv[6] if len(sys.argv) > 6 else "dark"
os.environ["STUDIO_HOME"] = sys.argv[7] if len(sys.argv) > 7 else "/tmp/replay/home"
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[1]))
from PySide6.QtWidgets import QApplication
from studio.ui.application import _boot, _drain
from studio.drills.result import BenchPoint, CaseResult, RunResult
from studio.drills import events as ev


def make(cls, d):
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in names})


doc = json.load(open(path))
studio = _boot(interactive=False, language=language, theme_name=theme)
studio.start_background_work()
_drain(studio)
w = studio.window
w.resize(1400, 860)
w.show()
w.show_pane("drills")
pane = w.pane("drills")
for _ in range(200):
    _drain(studio, 1.0)
    pane.select_drill(drill)
    QApplication.processEvents()
    if pane.drill is not None and pane.drill.id == drill:
        break
    time.sleep(0.1)
idx = pane.lang_box.findData(code_lang) if hasattr(pane, "lang_box") else -1
if idx >= 0:
    pane.lang_box.setCurrentIndex(idx)
pane.plot.reset(pane.drill.metric, pane.plot.peak)
pane.on_event(ev.RunStarted(mode=doc.get("mode") or "gpu", device=doc.get("device") or "", versions=doc.get("versions") or {},
                            lang=doc.get("lang") or code_lang))
bench = doc["bench"]
pane.on_event(ev.BenchInfo(available=bench.get("available", True), note=bench.get("note"),
                           copy_gbps=bench.get("copy_gbps"), matmul_tflops=bench.get("matmul_tflops")))
for c in doc.get("cases", []):
    pane.on_event(ev.CaseResultEvent(make(CaseResult, c)))
for p in bench.get("points", []):
    pane.on_event(ev.BenchPointEvent(make(BenchPoint, p)))
    QApplication.processEvents()
for _ in range(20):
    QApplication.processEvents(); time.sleep(0.05)
w.grab().save(png)
print("saved", png, len(bench.get("points", [])), "points")
studio.shutdown()
