#!/usr/bin/python3
# atspi-live-export.py: Export Continuously To… driven through AT-SPI, as a
# screen reader user would: the Main Menu's item, the file chooser's name
# field and Export button, then the Priority field of the properties panel
# set to one value after another. A watcher thread reads the target file as
# fast as it can; every version it reads must be a whole, valid Second Life
# animation (`sequin-cli validate --target sl` on a copy of it) and the last
# one must carry the last priority set. Prints TAP.
#
# Usage: atspi-live-export.py SEQUIN SEQUIN-CLI FILE.anim TMPDIR
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import shutil
import subprocess
import sys
import threading
import time

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402
from atspi_tree import children, find, wait_for, named, n_actions, check  # noqa: E402

sequin, cli, source, tmpdir = sys.argv[1:5]


def click(node):
    """Does the node's click (or press, activate) action, or that of its
    first descendant that has one (a GtkMenuButton's own button)."""
    target = find(node, lambda n: n_actions(n) > 0)
    if target is None:
        raise RuntimeError(f'no action on {node.get_name()}')
    names = [Atspi.Action.get_action_name(target, i) for i in range(n_actions(target))]
    for wanted in ('click', 'press', 'activate'):
        if wanted in names:
            Atspi.Action.do_action(target, names.index(wanted))
            return
    Atspi.Action.do_action(target, 0)


work = os.path.join(tmpdir, 'atspi-live')
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work, exist_ok=True)
clip = os.path.join(work, 'Kneel 1.anim')
shutil.copy(source, clip)
target = os.path.join(work, 'live', 'kneel-live.anim')
os.makedirs(os.path.dirname(target), exist_ok=True)

env = dict(os.environ)
env.pop('NO_AT_BRIDGE', None)
env['GTK_A11Y'] = 'atspi'
env.setdefault('GSETTINGS_BACKEND', 'memory')
env['GTK_USE_PORTAL'] = '0'
env['LANGUAGE'] = 'en'
env['LC_ALL'] = 'C.UTF-8'
print('1..6')
proc = subprocess.Popen([sequin, clip], env=env)

# the watcher: every distinct content of the target, checked
versions = []
dumps = []     # what `dump` read of each version, in order
bad = []
stop = False


def watch():
    last = None
    n = 0
    while not stop:
        try:
            with open(target, 'rb') as f:
                data = f.read()
        except OSError:
            data = None
        if data is not None and data != last:
            last = data
            n += 1
            copy = os.path.join(work, f'version-{n}.anim')
            with open(copy, 'wb') as f:
                f.write(data)
            r = subprocess.run([cli, 'validate', '--target', 'sl', copy], capture_output=True, text=True)
            versions.append(data)
            # a whole file the viewer loads: no error, only notes or warnings
            if ': error: ' in r.stdout or r.returncode not in (0, 1):
                bad.append((copy, r.stdout + r.stderr))
            d = subprocess.run([cli, 'dump', copy], capture_output=True, text=True)
            if d.returncode != 0:
                bad.append((copy, d.stderr))
            dumps.append(d.stdout)
        time.sleep(0.002)


watcher = threading.Thread(target=watch)
watcher.start()
try:
    desktop = Atspi.get_desktop(0)
    app = wait_for('the application on the bus',
                   lambda: next((a for a in children(desktop) if a.get_process_id() == proc.pid), None))
    # nothing cached on this side: every name is read afresh from the
    # application (clearing the cache later crashed libatspi now and then)
    app.set_cache_mask(Atspi.Cache.NONE)
    window = wait_for('the window with its document',
                      lambda: find(app, named(Atspi.Role.SPIN_BUTTON, 'Priority')) and app)
    menu_button = wait_for('the Main Menu button', lambda: find(app, lambda n: (n.get_name() or '') == 'Main Menu'
                                                              and n.get_role() in (Atspi.Role.TOGGLE_BUTTON,
                                                                                   Atspi.Role.PUSH_BUTTON)))
    click(menu_button)
    item = wait_for('the menu item', lambda: find(app, lambda n: (n.get_name() or '').startswith('Export Continuously')
                                                   and n.get_role() in (Atspi.Role.MENU_ITEM, Atspi.Role.PUSH_BUTTON)))
    click(item)
    check(True, 'Export Continuously To… activated from the Main Menu')
    # the chooser's window (GTK 4.8 gives it no dialog role: any top level)
    dialog = wait_for('the file chooser', lambda: next((c for c in children(app)
                                                         if (c.get_name() or '').startswith('Export Continuously')), None))
    entry = wait_for('its name field', lambda: find(dialog, lambda n: n.get_role() == Atspi.Role.TEXT
                                                        and n.get_editable_text_iface() is not None
                                                        and n.get_state_set().contains(Atspi.StateType.EDITABLE)))
    print(f'# the name field: “{entry.get_name()}”')
    Atspi.EditableText.set_text_contents(entry, target)
    # (GTK 4.8 names a button with a mnemonic twice: “_Export Export”)
    export = wait_for('its Export button', lambda: find(dialog, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON
                                                        and (n.get_name() or '').split(' ')[-1] == 'Export'))
    click(export)
    wait_for('the first export', lambda: os.path.exists(target))
    # (read afresh, not from the client's cache, which may miss a change)
    def indicator_now():
        return find(app, lambda n: n.get_role() == Atspi.Role.LABEL and (n.get_name() or '').startswith('Exported '))
    indicator = wait_for('the indicator', indicator_now)
    check(indicator.get_name().endswith(' to kneel-live.anim'), f'the indicator reads “{indicator.get_name()}”')

    spin = find(app, named(Atspi.Role.SPIN_BUTTON, 'Priority'))
    value = spin.get_value_iface()
    for p in (0, 1, 2, 3, 5, 4):
        value.set_current_value(p)
        # the watcher has read the version holding it (it checks every
        # version it reads, slowly under the sanitizers: the next value is
        # set only then, so no version goes by unread)
        wait_for(f'priority {p} written and read', lambda p=p: dumps and f'\npriority: {p}\n' in dumps[-1])
    check(True, 'each priority set through AT-SPI was written')
    time.sleep(0.5)
finally:
    stop = True
    watcher.join()
    proc.kill()
    proc.wait()

check(len(versions) >= 6, f'the watcher read {len(versions)} versions')
check(not bad, 'every version was a whole, valid .anim' + (f' (not: {bad[0]})' if bad else ''))
last = subprocess.run([cli, 'dump', target], capture_output=True, text=True).stdout
check('\npriority: 4\n' in last, 'the last version holds the last edit')
