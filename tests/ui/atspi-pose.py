#!/usr/bin/python3
# atspi-pose.py: a pose made through AT-SPI in the editor and the same pose
# made with the command line give the same bytes.
#
# In the editor, as a screen reader user would: the joint mPelvis chosen in
# the joint tree (its list's selection), the playhead moved to frame 15 by
# the timeline's next-frame action, the Pose group's rotation fields
# ("Rotation about X", Y, Z) and position fields ("Position X", Y, Z) set
# one after another (each value typed is one edit), the playhead on to
# frame 30 and win.insert-keys (the K key's action) run, then win.save.
# The command line makes the same from the same file:
#   sequin-cli edit IN -o OUT --set-rotation mPelvis@0.5=A,B,C
#     --set-position mPelvis@0.5=X,Y,Z --insert-key mPelvis@1
# and the two files must be byte for byte the same; undo and redo in the
# editor must give those bytes again. Prints TAP.
#
# Usage: atspi-pose.py SEQUIN SEQUIN-CLI FILE.anim TMPDIR
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import shutil
import subprocess
import sys
import time

import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402
from atspi_tree import children, find, wait_for, named, check  # noqa: E402

sequin, cli, source, tmpdir = sys.argv[1:5]

ANGLES = (12.5, -30.0, 45.0)          # degrees about X, Y, Z (a .anim's order)
POSITION = (0.125, -0.25, 0.5)        # file units
POSE_FRAME, KEY_FRAME = 15, 30        # 0.5 s and 1 s at 30 frames a second


def actions(node):
    return [Atspi.Action.get_action_name(node, i) for i in range(Atspi.Action.get_n_actions(node))]


def run_action(node, name):
    """Runs the node's AT-SPI action `name` (GTK lists a widget's actions)."""
    names = [Atspi.Action.get_action_name(node, i) for i in range(Atspi.Action.get_n_actions(node))]
    if name not in names:
        raise RuntimeError(f'{node.get_name()} has no action {name} (only {names})')
    Atspi.Action.do_action(node, names.index(name))


def read(path):
    with open(path, 'rb') as f:
        return f.read()


work = os.path.join(tmpdir, 'atspi-pose')
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work, exist_ok=True)
gui = os.path.join(work, 'gui.anim')
shutil.copy(source, gui)
original = read(gui)
by_cli = os.path.join(work, 'cli.anim')

env = dict(os.environ)
env.pop('NO_AT_BRIDGE', None)
env['GTK_A11Y'] = 'atspi'
env.setdefault('GSETTINGS_BACKEND', 'memory')
env['GTK_USE_PORTAL'] = '0'
env['LANGUAGE'] = 'en'
env['LC_ALL'] = 'C.UTF-8'
print('1..8')

t_pose = POSE_FRAME / 30
t_key = KEY_FRAME / 30
r = subprocess.run([cli, 'edit', gui, '-o', by_cli,
                    '--set-rotation', 'mPelvis@%r=%r,%r,%r' % ((t_pose,) + ANGLES),
                    '--set-position', 'mPelvis@%r=%r,%r,%r' % ((t_pose,) + POSITION),
                    '--insert-key', 'mPelvis@%r' % t_key], capture_output=True, text=True)
check(r.returncode == 0 and read(by_cli) != original, 'the command line posed the file' + (f' ({r.stderr})' if r.returncode else ''))

proc = subprocess.Popen([sequin, gui], env=env)
try:
    desktop = Atspi.get_desktop(0)
    app = wait_for('the application on the bus',
                   lambda: next((a for a in children(desktop) if a.get_process_id() == proc.pid), None))
    app.set_cache_mask(Atspi.Cache.NONE)
    frame = wait_for('the window with its document',
                     lambda: find(app, lambda n: n.get_role() == Atspi.Role.FRAME
                                  and (n.get_name() or '').startswith('gui.anim')))
    tree = wait_for('the joint tree', lambda: find(app, named(Atspi.Role.LIST, 'Joints and keyframes')))
    # the first row is the root, mPelvis
    Atspi.Selection.select_child(tree, 0)
    heading = wait_for('the Pose group on mPelvis',
                       lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                    and (n.get_name() or '').startswith('mPelvis at ')))
    timeline = find(app, named(Atspi.Role.SLIDER, 'Timeline'))
    for _ in range(POSE_FRAME):
        run_action(timeline, 'timeline.next-frame')
    wait_for('the playhead at frame 15', lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                                         and (n.get_name() or '') == 'mPelvis at 0.500 s (frame 15)'))
    check(True, 'mPelvis chosen in the tree, the playhead at 0.5 s through the timeline\'s action')

    fields = [wait_for(f'the field {name}', lambda name=name: find(app, named(Atspi.Role.SPIN_BUTTON, name)))
              for name in ('Rotation about X', 'Rotation about Y', 'Rotation about Z',
                           'Position X', 'Position Y', 'Position Z')]
    for field, value in zip(fields, ANGLES + POSITION):
        field.get_value_iface().set_current_value(value)
    time.sleep(0.3)
    shown = [f.get_value_iface().get_current_value() for f in fields]
    check(all(abs(a - b) < 1e-6 for a, b in zip(shown, ANGLES + POSITION)),
          f'the Pose group shows the values set: {shown}')

    for _ in range(KEY_FRAME - POSE_FRAME):
        run_action(timeline, 'timeline.next-frame')
    wait_for('the playhead at frame 30', lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                                         and (n.get_name() or '') == 'mPelvis at 1.000 s (frame 30)'))
    run_action(frame, 'win.insert-keys')
    run_action(frame, 'win.save')
    wait_for('the save', lambda: read(gui) != original)
    time.sleep(0.2)
    saved = read(gui)
    check(saved == read(by_cli), f'the editor\'s file is byte for byte the command line\'s ({len(saved)} bytes)')

    # undo everything (the six values, the keys and the save's own step),
    # save: the file as it was read
    undone = 0
    while 'win.undo' in actions(frame) and undone < 50:
        run_action(frame, 'win.undo')
        undone += 1
    run_action(frame, 'win.save')
    wait_for('the save after undo', lambda: read(gui) == original, timeout=15)
    check(undone == 8, f'undo ({undone} steps) brings back the file as it was read, byte for byte')
    for _ in range(undone):
        run_action(frame, 'win.redo')
    run_action(frame, 'win.save')
    wait_for('the save after redo', lambda: read(gui) == saved, timeout=15)
    check(True, 'redo gives the posed bytes again')
finally:
    proc.kill()
    proc.wait()

r = subprocess.run([cli, 'dump', gui], capture_output=True, text=True)
check(r.returncode == 0, 'the posed file reads back')
r = subprocess.run([cli, 'validate', '--target', 'sl', gui], capture_output=True, text=True)
check(': error: ' not in r.stdout, 'the posed file validates for Second Life')
