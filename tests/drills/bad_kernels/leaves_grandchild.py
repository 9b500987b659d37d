"""softmax: starts a long-lived subprocess that holds stdout open, then hangs.

The runner must kill the whole process group and must not wait on the pipe the
grandchild keeps open.
"""
import subprocess
import sys

import triton  # noqa: F401


def softmax(x):
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    while True:
        pass
