"""softmax: correct, but leaves a daemon behind (new session, double fork) that must not survive."""
import os
import subprocess
import sys

import triton  # noqa: F401  (judged as a Triton solution)

from _honest_softmax import honest

_started = []


def softmax(x):
    if not _started:
        _started.append(subprocess.Popen(
            [sys.executable, "-c", "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
             "    time.sleep(600)  # studio-cheat-daemon\n"],
            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return honest.softmax(x)
