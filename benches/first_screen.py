#!/usr/bin/env python3
"""Time to first screen: from podscope's process start until the pod's STATUS is on the screen.

The seed's `crash` pod runs on the simulator (`podscope sim --scenario crash`); once it is in
its crash loop, podscope is started RUNS times (default 20) on a pseudo-terminal of 120x40, and
the time from fork to the first moment the terminal output holds the header's STATUS with the
pod's value (`CrashLoopBackOff`, `Error` or `Running`, whichever the pod shows then) is taken;
then podscope is sent `q`. Escape sequences are removed before matching, so the text is what a
user sees. Prints the minimum, median and maximum, and with --json one JSON object.

Usage: benches/first_screen.py [RUNS] [--profile release|debug] [--json]
       [--bin PATH]   (another build, e.g. an older commit's, to compare)
"""

import json
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import fcntl
import termios

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), and two-byte escapes.
ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")
STATUS = re.compile(rb"STATUS\s+(CrashLoopBackOff|Error|Running)")


def args():
    runs, profile, as_json, binary = 20, "release", False, None
    rest = sys.argv[1:]
    while rest:
        a = rest.pop(0)
        if a == "--profile":
            profile = rest.pop(0)
        elif a == "--json":
            as_json = True
        elif a == "--bin":
            binary = rest.pop(0)
        else:
            runs = int(a)
    return runs, profile, as_json, binary


def build(profile):
    cmd = ["cargo", "build", "-q"] + (["--release"] if profile == "release" else [])
    subprocess.run(cmd, cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", profile, "podscope")


def wait_for(predicate, what, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    sys.exit(f"timed out waiting for {what}")


def once_status(binary, kubeconfig):
    out = subprocess.run(
        [binary, "--kubeconfig", kubeconfig, "-n", "default", "crash", "--once", "-o", "json"],
        capture_output=True,
    )
    if out.returncode != 0:
        return None
    try:
        return json.loads(out.stdout).get("pod", {}).get("status")
    except ValueError:
        return None


def one_run(binary, kubeconfig):
    """Seconds from fork to STATUS on the screen, for one podscope on a fresh 120x40 pty."""
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.environ["TERM"] = "xterm-256color"
        os.execv(binary, [binary, "--kubeconfig", kubeconfig, "-n", "default", "crash"])
    seen = b""
    elapsed = None
    deadline = start + 20
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if STATUS.search(ESCAPES.sub(b"", seen)):
                elapsed = time.monotonic() - start
                break
    finally:
        try:
            os.write(fd, b"q")
            drain_until = time.monotonic() + 5
            while time.monotonic() < drain_until:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        if not os.read(fd, 65536):
                            break
                    except OSError:
                        break
                done, _ = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
            else:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        os.close(fd)
    if elapsed is None:
        tail = ESCAPES.sub(b"", seen)[-400:].decode(errors="replace")
        sys.exit(f"STATUS never appeared; the screen ended with:\n{tail}")
    return elapsed


def main():
    runs, profile, as_json, binary = args()
    binary = binary or build(profile)
    tmp = tempfile.mkdtemp()
    kubeconfig = os.path.join(tmp, "kubeconfig")
    log = open(os.path.join(tmp, "sim.log"), "wb")
    sim = subprocess.Popen(
        [binary, "sim", "--scenario", "crash", "--kubeconfig-out", kubeconfig],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(lambda: os.path.exists(kubeconfig) and os.path.getsize(kubeconfig) > 0, "kubeconfig")
        # The pod has crashed at least once: its STATUS is one of the three the pattern takes.
        wait_for(
            lambda: once_status(binary, kubeconfig) in ("CrashLoopBackOff", "Error"),
            "the crash pod's first crash",
        )
        one_run(binary, kubeconfig)  # warm the page cache and the simulator's connections
        times = sorted(one_run(binary, kubeconfig) * 1000 for _ in range(runs))
    finally:
        sim.terminate()
        sim.wait()
    result = {
        "runs": runs,
        "min_ms": round(times[0], 1),
        "median_ms": round(statistics.median(times), 1),
        "max_ms": round(times[-1], 1),
    }
    if as_json:
        print(json.dumps(result))
    else:
        print(
            f"time to first screen (crash pod, STATUS shown), {runs} runs: "
            f"min {result['min_ms']} ms, median {result['median_ms']} ms, max {result['max_ms']} ms"
        )


if __name__ == "__main__":
    main()
