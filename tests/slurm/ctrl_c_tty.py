#!/usr/bin/python3
"""ctrl_c_tty.py ANSWER LOG -- CMD...: run CMD on a pseudo-terminal (as a
user at a shell would), press Ctrl-C once it says "submitted Slurm job",
answer ANSWER to the scancel question, save everything it printed to LOG,
and exit with CMD's exit status (t5010)."""
import os
import pty
import re
import select
import sys
import time

answer, log, cmd = sys.argv[1], sys.argv[2], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
buf = b""
state = "wait-submit"
deadline = time.time() + 60
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break  # the child closed the terminal
        if not data:
            break
        buf += data
    if state == "wait-submit" and re.search(rb"submitted Slurm job \d+", buf):
        time.sleep(0.5)
        os.write(fd, b"\x03")  # the terminal turns it into SIGINT
        state = "wait-question"
    elif state == "wait-question" and re.search(rb"\? \[y/N\] ", buf):
        os.write(fd, answer.encode() + b"\n")
        state = "answered"
_, status = os.waitpid(pid, 0)
with open(log, "wb") as f:
    f.write(buf.replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status) if state == "answered" else 99)
