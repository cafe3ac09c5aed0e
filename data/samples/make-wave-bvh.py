#!/usr/bin/env python3
# make-wave-bvh.py: writes wave.bvh, Sequin's bundled BVH sample: the
# greeting wave of wave.seq on a skeleton of the file's own (a figure
# 70 inches tall in the Second Life BVH layout: Y up, Z forward, inches,
# arms out along X at rest): frame 0 is the reference T-pose (Second Life's
# importer keeps the joints that move away from it), then 61 frames of the
# wave at 30 per second.
#
# wave.anim is made from it by the command-line tool, as the Second Life
# viewer's importer would make it:
#   sequin-cli convert wave.bvh wave.anim
#
# SPDX-License-Identifier: GPL-3.0-or-later
import math
import sys

FRAMES = 61          # after the reference frame
ROT = 'Zrotation Xrotation Yrotation'

# name, offset from the parent (inches), children; the arms along ±X
SKELETON = ('hip', (0, 0, 0), [
    ('abdomen', (0, 3.5, 0), [
        ('chest', (0, 8, -0.5), [
            ('neck', (0, 10, 0), [
                ('head', (0, 3, 0.5), [('End Site', (0, 4.5, 0), [])]),
            ]),
            ('lCollar', (1.5, 7.5, 0), [
                ('lShldr', (4, 0, 0), [
                    ('lForeArm', (10.5, 0, 0), [
                        ('lHand', (9.5, 0, 0), [('End Site', (3.5, 0, 0), [])]),
                    ]),
                ]),
            ]),
            ('rCollar', (-1.5, 7.5, 0), [
                ('rShldr', (-4, 0, 0), [
                    ('rForeArm', (-10.5, 0, 0), [
                        ('rHand', (-9.5, 0, 0), [('End Site', (-3.5, 0, 0), [])]),
                    ]),
                ]),
            ]),
        ]),
    ]),
    ('lThigh', (3.8, -1.5, 0), [
        ('lShin', (0, -18, 0.5), [
            ('lFoot', (0, -18, -1), [('End Site', (0, -2, 5), [])]),
        ]),
    ]),
    ('rThigh', (-3.8, -1.5, 0), [
        ('rShin', (0, -18, 0.5), [
            ('rFoot', (0, -18, -1), [('End Site', (0, -2, 5), [])]),
        ]),
    ]),
])
HIP_HEIGHT = 39.5


def wave(t):
    return math.sin(t * 2 * math.pi * 1.5)


def sway(t):
    return math.sin(t * math.pi)


# Z, X, Y rotations (degrees) of each joint at time t; 0 when not listed
MOTION = {
    'hip': lambda t: (0, 0, 6 * sway(t)),
    'abdomen': lambda t: (0, 3 + 2 * sway(t), 0),
    'chest': lambda t: (-3 * sway(t), 0, 0),
    'neck': lambda t: (5 * wave(t), 0, 0),
    'head': lambda t: (0, -5, 10 * sway(t)),
    'lShldr': lambda t: (-78, 0, 0),
    'lForeArm': lambda t: (0, 0, -20),
    'rShldr': lambda t: (-55 + 5 * sway(t), 0, 0),
    'rForeArm': lambda t: (-55 + 35 * wave(t), 0, 0),
    'rHand': lambda t: (0, 15 * wave(t), 0),
    'lThigh': lambda t: (0, -4, 0),
    'lShin': lambda t: (0, 6, 0),
    'rThigh': lambda t: (2, -2, 0),
    'rShin': lambda t: (0, 3, 0),
}


def hierarchy(node, depth, out, order):
    name, offset, children = node
    pad = '  ' * depth
    if name == 'End Site':
        out.append('%sEnd Site' % pad)
    else:
        out.append('%s%s %s' % (pad, 'ROOT' if depth == 0 else 'JOINT', name))
    out.append('%s{' % pad)
    out.append('%s  OFFSET %s' % (pad, ' '.join('%g' % v for v in offset)))
    if name != 'End Site':
        if depth == 0:
            out.append('%s  CHANNELS 6 Xposition Yposition Zposition %s' % (pad, ROT))
        else:
            out.append('%s  CHANNELS 3 %s' % (pad, ROT))
        order.append(name)
    for child in children:
        hierarchy(child, depth + 1, out, order)
    out.append('%s}' % pad)


lines = ['HIERARCHY']
order = []
hierarchy(SKELETON, 0, lines, order)
lines += ['MOTION', 'Frames: %d' % (FRAMES + 1), 'Frame Time: 0.033333']
lines.append(' '.join('%.4f' % v for v in [0.0, HIP_HEIGHT, 0.0] + [0.0] * 3 * len(order)))
for f in range(FRAMES):
    t = f / 30.0
    values = [0.0, HIP_HEIGHT + 0.3 * sway(t), 0.0]
    for name in order:
        values += MOTION.get(name, lambda t: (0, 0, 0))(t)
    lines.append(' '.join('%.4f' % v for v in values))

with open(sys.argv[1] if len(sys.argv) > 1 else 'wave.bvh', 'w', newline='\n') as fh:
    fh.write('\n'.join(lines) + '\n')
