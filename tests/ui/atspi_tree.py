# atspi_tree.py: finding, waiting for and checking the editor's accessible
# objects over AT-SPI, for the tests that drive the editor as a screen
# reader or an automated user does (atspi-*.py)
#
# SPDX-License-Identifier: GPL-3.0-or-later
import sys
import time

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402


def children(node):
    try:
        n = node.get_child_count()
    except Exception:
        return []
    out = []
    for i in range(n):
        try:
            c = node.get_child_at_index(i)
        except Exception:
            c = None
        if c is not None:
            out.append(c)
    return out


def find(node, pred, depth=0):
    if depth > 60:
        return None
    try:
        if pred(node):
            return node
    except Exception:
        pass
    for c in children(node):
        r = find(c, pred, depth + 1)
        if r is not None:
            return r
    return None


def wait_for(what, fn, timeout=30):
    end = time.time() + timeout
    while time.time() < end:
        r = fn()
        if r:
            return r
        time.sleep(0.1)
    print(f'not ok - timed out waiting for {what}')
    sys.exit(1)


def named(role, name, prefix=False):
    def pred(n):
        if n.get_role() != role:
            return False
        nm = n.get_name() or ''
        return nm.startswith(name) if prefix else nm == name
    return pred


def n_actions(node):
    try:
        return Atspi.Action.get_n_actions(node)
    except Exception:
        return 0


def check(ok, what):
    print(('ok - ' if ok else 'not ok - ') + what)
    if not ok:
        sys.exit(1)
