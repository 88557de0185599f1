"""Test support: a real ``autoforge serve`` on a run synthesized from the repository's example
library document (needs node and the built CLI, apps/autoforge/dist/cli.js; tests that need it
skip without it), and the import path of the package's source."""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
REPO = os.path.abspath(os.path.join(PACKAGE, "..", ".."))
CLI = os.path.join(REPO, "apps", "autoforge", "dist", "cli.js")
DOC = os.path.join(REPO, "apps", "autoforge", "examples", "library.tools.json")
sys.path.insert(0, os.path.join(PACKAGE, "src"))

NODE = shutil.which("node")
HAVE_SERVER = NODE is not None and os.path.exists(CLI)
SKIP_SERVER = "needs node and the built CLI (apps/autoforge/dist/cli.js)"

_server: Optional[Dict[str, Any]] = None


def _stop() -> None:
    if _server is not None:
        if _server["process"].stdout is not None:
            _server["process"].stdout.close()
        _server["process"].terminate()
        try:
            _server["process"].wait(timeout=10)
        except subprocess.TimeoutExpired:
            _server["process"].kill()
        shutil.rmtree(_server["dir"], ignore_errors=True)


def server() -> Dict[str, Any]:
    """``{url, run, tasks}`` of a server shared by every test of the process (started once)."""
    global _server
    if _server is not None:
        return _server
    if not HAVE_SERVER:
        raise unittest.SkipTest(SKIP_SERVER)
    root = tempfile.mkdtemp(prefix="autoforge-client-")
    run = os.path.join(root, "run")
    done = subprocess.run([NODE, CLI, "synth", DOC, "--out", run, "--tasks", "8", "--seed", "1", "--no-progress"], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"autoforge synth failed ({done.returncode}): {done.stderr[-2000:]}")
    process = subprocess.Popen([NODE, CLI, "serve", run, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline() if process.stdout else ""
    match = re.search(r"listening on (http://\S+)", line)
    if not match:
        process.kill()
        raise RuntimeError(f"autoforge serve did not start: {line}")
    with open(os.path.join(run, "tasks.jsonl"), encoding="utf-8") as f:
        tasks: List[Dict[str, Any]] = [json.loads(l) for l in f if l.strip()]
    _server = {"url": match.group(1), "run": run, "dir": root, "process": process, "tasks": tasks}
    atexit.register(_stop)
    return _server
