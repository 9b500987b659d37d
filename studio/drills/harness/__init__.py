"""The child side of a drill run: loads the solution, checks it, times it.

Only this package imports torch and triton, and only inside the child process that the
runner starts with `python -m studio.drills.harness`. It reports over its own pipe
(wire.py), never over stdout, which belongs to the solution's prints. Nothing here may
be imported by the GUI process; the package __init__ stays import-free for that reason.
"""
