#!/usr/bin/env python3
# make-wave.py: writes wave.seq, Sequin's bundled sample: a two-second
# greeting wave in ActiveWorlds binary SEQ (big-endian, frames from 1 at
# 30 per second; layout in shared/docs/formats.md and the SEQ spec).
# wave-text.seq and wave.x are made from it by the command-line tool:
#   sequin-cli convert wave.seq wave-text.seq --to seq-text
#   sequin-cli convert wave.seq wave.x
#
# SPDX-License-Identifier: GPL-3.0-or-later
import math
import struct
import sys

FRAMES = 61          # 2 s
KEY_EVERY = 5        # a key every 5 frames


# The turns are given on the avatar's own axes, as Second Life names them
# (+X forward, +Y its left, +Z up; a positive angle turns anticlockwise
# seen from the axis's tip), from ActiveWorlds' rest pose: standing, its
# arms hanging at its sides (formats.md 4.1). A SEQ's numbers have the
# avatar facing -Z, X its left, Y up (formats.md 4.1): a rotation (w, x, y,
# z) on the avatar's axes is stored as (w, -y, -z, x).
FORWARD, LEFT, UP = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def quat(axis, degrees):
    x, y, z = axis
    n = math.sqrt(x * x + y * y + z * z)
    h = math.radians(degrees) / 2
    s = math.sin(h) / n
    return (math.cos(h), -y * s, -z * s, x * s)


def name(s):
    b = s.encode('latin-1') + b'\0'
    return struct.pack('>H', len(b)) + b


def joint(label, fn):
    frames = list(range(1, FRAMES + 1, KEY_EVERY))
    if frames[-1] != FRAMES:
        frames.append(FRAMES)
    out = name(label) + struct.pack('>II', 16, len(frames))
    for f in frames:
        t = (f - 1) / 30.0
        out += struct.pack('>i4f', f, *fn(t))
    return out


def block(size, keys):
    out = struct.pack('>II', size, len(keys))
    for f, values in keys:
        out += struct.pack('>i', f) + struct.pack('>%df' % len(values), *values)
    return out


wave = lambda t: math.sin(t * 2 * math.pi * 1.5)
joints = [
    ('pelvis', lambda t: quat(UP, 4 * math.sin(t * math.pi))),          # turns a little
    ('back', lambda t: quat(LEFT, 3 + 2 * math.sin(t * math.pi))),      # a slight bow
    ('neck', lambda t: quat(FORWARD, 5 * wave(t))),                     # tilts with the wave
    ('head', lambda t: quat(UP, 10 * math.sin(t * math.pi))),
    # the right arm raised up and out, 30° from upright ...
    ('rtshoulder', lambda t: quat(FORWARD, -(150 - 10 * math.sin(t * math.pi)))),
    # ... its forearm waving from side to side about upright
    ('rtelbow', lambda t: quat(FORWARD, -(30 + 25 * wave(t)))),
    ('rtwrist', lambda t: quat(LEFT, 15 * wave(t))),
    ('lfshoulder', lambda t: quat(FORWARD, 8)),     # hanging, a little away from the body
    ('lfelbow', lambda t: quat(LEFT, -10)),         # bent a little forward
]

out = struct.pack('>IHI', 0x7F7F7F79, FRAMES, len(joints)) + name('sequin') + name('pelvis')
for label, fn in joints:
    out += joint(label, fn)

loc_frames = [1, 31, 61]
out += struct.pack('>I', 4)
out += block(4, [(f, (0.0,)) for f in loc_frames])                                   # X
out += block(4, [(f, (0.01 * math.sin((f - 1) / 30.0 * math.pi),)) for f in loc_frames])  # Y
out += block(4, [(f, (0.0,)) for f in loc_frames])                                   # Z
out += block(16, [(1, (1.0, 0.0, 0.0, 0.0))])                                        # facing

with open(sys.argv[1] if len(sys.argv) > 1 else 'wave.seq', 'wb') as fh:
    fh.write(out)
