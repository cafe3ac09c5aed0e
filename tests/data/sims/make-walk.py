#!/usr/bin/env python3
# make-walk.py: writes walk.cmx and xskill-walk.cfp, a one-second walk
# cycle of The Sims (a CMX skill and its CFP, formats.md 5.2 and 5.3) built
# on the adult rest skeleton (formats.md 5.1), for the tests and the
# README's screenshot.
#
# Each bone is given a turn in the world (Y up, the Sim facing +Z, its left
# at -X) applied to its rest pose; the file stores the local rotations that
# give those world rotations (the conjugates of column-vector quaternions,
# x y z w). The walk stays in place (the game moves the Sim): the legs and
# arms swing in opposition, the knees bend in the swing, the pelvis bobs
# and turns, the spine turns against it.
#
# Usage: make-walk.py [FOLDER]
#
# SPDX-License-Identifier: GPL-3.0-or-later
import math
import os
import struct
import sys

FRAMES = 30          # one second at 30 frames per second, a closed loop

# formats.md 5.1: name, parent index, rest position, rest rotation (x y z w)
SKELETON = [
    ('ROOT', -1, (-5.88894e-005, 3.01362, 0.00807638), (-0.0262998, -0.706899, 0.0262789, -0.706336)),
    ('PELVIS', 0, (-0.0366778, -1.72489e-008, -2.62766e-012), (0.499999, 0.5, 0.5, -0.500001)),
    ('L_LEG', 1, (-4.26205e-007, 0.241228, 2.06089e-007), (0.0137635, 2.41525e-006, -0.999905, -3.00579e-007)),
    ('L_LEG1', 2, (1.44737, -3.40221e-010, -3.65496e-009), (-2.21297e-011, 0.0357504, -4.92061e-013, -0.999361)),
    ('L_FOOT', 3, (1.31579, 6.72219e-010, 1.85087e-009), (1.18358e-006, -0.0116309, 5.24389e-007, -0.999932)),
    ('L_TOE0', 4, (0.253839, -4.82293e-009, 0.339987), (-1.9198e-011, -0.707107, 1.91956e-011, -0.707107)),
    ('L_TOE01', 5, (0.251088, -3.00624e-009, -2.91078e-010), (-2.95136e-015, 1.25923e-014, 1.67305e-011, -1)),
    ('L_TOE02', 6, (0.056929, -3.05933e-009, 3.05676e-010), (7.81281e-017, -5.38587e-015, -1.04296e-011, -1)),
    ('R_LEG', 1, (2.44632e-007, -0.241228, -4.62491e-007), (0.0165402, 5.5519e-007, -0.999863, -1.00484e-006)),
    ('R_LEG1', 8, (1.44737, 1.03675e-008, 8.03626e-009), (-2.11848e-011, 0.0298356, 8.86403e-013, -0.999555)),
    ('R_FOOT', 9, (1.31579, 1.12555e-008, -6.11749e-009), (-6.65177e-007, -0.00860503, -3.73375e-007, -0.999963)),
    ('R_TOE0', 10, (0.253839, -4.72826e-009, 0.339987), (1.97569e-011, -0.707107, -1.97538e-011, -0.707107)),
    ('R_TOE01', 11, (0.251088, -2.92067e-009, -5.78397e-010), (-4.94409e-015, 1.09617e-014, 5.30648e-012, -1)),
    ('R_TOE02', 12, (0.056929, -2.8047e-009, 5.1338e-010), (7.98796e-016, 2.99644e-015, -1.37573e-011, -1)),
    ('SPINE', 1, (0.381066, 5.29048e-007, -0.000334763), (2.10104e-006, -0.0315231, 7.14932e-007, -0.999503)),
    ('SPINE1', 14, (0.421059, -9.27955e-010, -0.00033528), (-3.30452e-012, 7.52235e-011, -8.18583e-015, -1)),
    ('SPINE2', 15, (0.421059, -9.33352e-010, -0.000335277), (-3.30452e-012, 7.52235e-011, -8.18583e-015, -1)),
    ('NECK', 16, (0.421097, -8.79169e-010, -0.000315105), (-1.2815e-011, -0.0604161, 1.67573e-007, -0.998173)),
    ('HEAD', 17, (0.398615, -1.0225e-012, -1.18576e-008), (2.9478e-012, -0.0668782, 1.85489e-007, -0.997761)),
    ('L_ARM', 17, (4.56552e-007, 0.130263, 0.000317027), (-0.618227, -0.783643, 0.0376674, -0.0477436)),
    ('L_ARM1', 19, (0.376316, -5.49453e-008, 1.60809e-009), (-0.00849216, -0.0173039, -0.57938, -0.81483)),
    ('L_ARM2', 20, (0.881536, 2.63531e-008, 9.20282e-009), (-8.57358e-011, 0.0500412, 5.23877e-009, -0.998747)),
    ('L_HAND', 21, (0.820474, 1.81877e-008, 3.02261e-009), (0.705821, 0.0376602, 0.0376902, -0.706383)),
    ('L_FINGER0', 22, (0.302072, 8.54501e-009, -1.60412e-008), (0.000391826, -0.177342, -7.06052e-005, -0.984149)),
    ('R_ARM', 17, (4.57471e-007, -0.130263, 0.000317749), (0.618227, -0.783643, -0.0376652, -0.0477453)),
    ('R_ARM1', 24, (0.376316, 5.23017e-008, 1.85675e-009), (0.00849222, -0.0173038, 0.57938, -0.81483)),
    ('R_ARM2', 25, (0.881536, -1.63993e-008, 5.11895e-009), (1.00755e-010, 0.0500412, -3.82142e-009, -0.998747)),
    ('R_HAND', 26, (0.820474, -4.87935e-008, -3.3423e-009), (-0.706605, 0.0176475, -0.0176615, -0.707168)),
    ('R_FINGER0', 27, (0.302072, 1.54253e-010, 6.47549e-008), (-0.000394579, -0.133423, 5.31174e-005, -0.991059)),
]
INDEX = {bone[0]: i for i, bone in enumerate(SKELETON)}


# quaternions (w, x, y, z), column vectors
def mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return (aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw)


def conj(q):
    return (q[0], -q[1], -q[2], -q[3])


def rotate(q, v):
    r = mul(mul(q, (0.0,) + tuple(v)), conj(q))
    return r[1:]


def axis_angle(axis, degrees):
    h = math.radians(degrees) / 2
    return (math.cos(h),) + tuple(a * math.sin(h) for a in axis)


def about_x(degrees):     # the Sim's left-right axis: negative swings a hanging limb forward
    return axis_angle((1, 0, 0), degrees)


def about_y(degrees):     # up
    return axis_angle((0, 1, 0), degrees)


def from_file(xyzw):
    """A stored rotation as a column-vector quaternion"""
    x, y, z, w = xyzw
    return conj((w, x, y, z))


def to_file(q):
    w, x, y, z = conj(q)
    if w < 0:
        w, x, y, z = -w, -x, -y, -z
    return (x, y, z, w)


def rest_world():
    world = []
    for name, parent, pos, rot in SKELETON:
        q = from_file(rot)
        world.append(q if parent < 0 else mul(world[parent], q))
    return world


def turns(phase):
    """The world turn of each bone at `phase` (radians; 0: left leg in mid-swing)"""
    s = math.sin(phase)
    t = {}
    for side, sign in (('L', 1.0), ('R', -1.0)):
        a = sign * 25 * math.sin(phase + math.pi / 2)           # thigh forward, degrees
        swing = max(0.0, sign * math.cos(phase + math.pi / 2))  # forward motion of the thigh
        knee = 6 + 45 * swing ** 2
        t[side + '_LEG'] = about_x(-a)
        t[side + '_LEG1'] = about_x(-a + knee)
        t[side + '_FOOT'] = about_x(0.35 * (-a + knee) - 4)
        arm = -0.8 * a                                           # against the leg of its side
        t[side + '_ARM1'] = mul(about_x(-arm), axis_angle((0, 0, 1), -sign * 3))
        t[side + '_ARM2'] = mul(about_x(-arm - 18 - 10 * max(0.0, -sign * s)), axis_angle((0, 0, 1), -sign * 3))
    t['PELVIS'] = about_y(6 * s)
    t['SPINE'] = mul(about_y(-3 * s), about_x(3))
    t['SPINE2'] = mul(about_y(-5 * s), about_x(4))
    t['NECK'] = about_x(2)
    t['HEAD'] = about_x(-2)
    return t


def pose(phase, rest):
    t = turns(phase)
    world, local = [], []
    for i, (name, parent, pos, rot) in enumerate(SKELETON):
        turn = t.get(name)
        if turn is None:     # follows its parent
            turn = t.get(SKELETON[parent][0], (1, 0, 0, 0)) if parent >= 0 else (1, 0, 0, 0)
            t[name] = turn
        w = mul(turn, rest[i])
        world.append(w)
        local.append(w if parent < 0 else mul(conj(world[parent]), w))
    # PELVIS bobs twice a cycle, lowest as the feet pass
    bob = 0.05 * math.cos(2 * phase) - 0.03
    up = rotate(conj(rest[0]), (0, bob, 0))
    pelvis = tuple(p + u for p, u in zip(SKELETON[1][2], up))
    return [SKELETON[0][2], pelvis], [to_file(q) for q in local]


# ---- CFP coding (formats.md 5.3): absolute floats and runs -------------

def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def code(values):
    """One array, dimension after dimension: 255 + float, or 254 + U16 for
    a run of values equal to the running value"""
    out = bytearray()
    running, run = 0.0, 0
    for v in values:
        v = f32(v)
        if v == running and run < 65536:
            run += 1
            continue
        if run:
            out += struct.pack('<BH', 254, run - 1)
            run = 0
        out += struct.pack('<Bf', 255, v)
        running = v
    if run:
        out += struct.pack('<BH', 254, run - 1)
    return out


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else '.'
    rest = rest_world()
    poses = [pose(2 * math.pi * f / FRAMES, rest) for f in range(FRAMES)]
    n = len(SKELETON)
    translations = [poses[f][0][b] for b in range(2) for f in range(FRAMES)]
    rotations = [poses[f][1][b] for b in range(n) for f in range(FRAMES)]
    cfp = code([v[d] for d in range(3) for v in translations])
    cfp += code([q[d] for d in range(4) for q in rotations])
    duration = round(FRAMES * 1000 / 30) - 1

    lines = ['// Character File. Written for the tests of Sequin', 'version 300', '0', '0', '1',
             'walk', 'xskill-walk', str(duration), '2.5', '1',
             str(len(translations)), str(len(rotations)), str(n)]
    for b, (name, *_) in enumerate(SKELETON):
        lines += [name, str(FRAMES), str(duration), '1' if b < 2 else '0', '1',
                  str(b * FRAMES) if b < 2 else '-1', str(b * FRAMES), '0', '0']
    with open(os.path.join(folder, 'walk.cmx'), 'wb') as fh:
        fh.write(('\r\n'.join(lines) + '\r\n').encode('latin-1'))
    with open(os.path.join(folder, 'xskill-walk.cfp'), 'wb') as fh:
        fh.write(cfp)


main()
