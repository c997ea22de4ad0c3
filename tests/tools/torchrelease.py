# SPDX-License-Identifier: GPL-3.0-or-later
"""Which torch a generator of tests/tools runs on, for the headers of the
tables it writes (gen-fx-table.py, gen-tensor-attrs.py, gen-torch-names.py,
gen-nn-inits.py).
Imported by them from their own folder; needs torch."""

import re
import subprocess
import sys

import torch


def torch_series():
    """`1.13`, `2.6`: the dialect name of the torch this runs on."""
    return ".".join(torch.__version__.split("+")[0].split(".")[:2])


def torch_release():
    """(`1.13.1`, `Debian python3-torch 1.13.1+dfsg-4, Python 3.11`): the release and where it
    came from.  Debian's torch 1.13.1 calls itself 1.13.0a0, so the package version says."""
    python = "Python " + ".".join(str(v) for v in sys.version_info[:2])
    try:
        deb = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "python3-torch"],
                             capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        deb = ""
    if deb:
        return re.split(r"[+~-]", deb)[0], f"Debian python3-torch {deb}, {python}"
    return torch.__version__.split("+")[0], python
