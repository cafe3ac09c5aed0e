#!/usr/bin/env python3
# posing-assimp.py: keys set, moved, pasted and flipped, read back by Assimp
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: posing-assimp.py SEQUIN-CLI ASSIMP
#
# A new BVH on Second Life's skeleton (`sequin-cli new --world bvh`) is
# posed with `sequin-cli edit`: a rotation typed as Euler angles, a
# position, a pose file pasted flipped (a BVH keeps a key on every frame,
# so keys are not moved in it: `test-cli` checks that refusal). Assimp (an
# independent reader) then reads the result, and at the edited times its
# values must be the ones the operations define:
# - --set-rotation J@T=A,B,C: the joint turned by A° about its first
#   channel's axis, then B° and C° about the next ones (BVH's order, each
#   turn in the frame the one before left), at frame T;
# - --set-position: the root at that vector at T;
# - --paste-pose FILE@T:flip: each left joint's rotation of the file on the
#   right joint, mirrored across the skeleton's plane: in
#   Second Life's axes (x forward, y left, z up) a mirror of y, so a turn
#   (w, x, y, z) becomes (w, -x, y, -z); the BVH holds it in its own axes
#   (x left, y up, z forward): there, Second Life's (w, x, y, z) is
#   (w, y, z, x).
# Sequin's own reading of the result must also be Assimp's, key by key
# (compare-assimp.py's compare()).
# Prints what it checked; exits 1 on a mismatch.
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("compare_assimp", os.path.join(HERE, "compare-assimp.py"))
ca = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ca)

EPS = 2e-5


def quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return [aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw]


def axis_quat(axis, degrees):
    h = math.radians(degrees) / 2
    q = [math.cos(h), 0.0, 0.0, 0.0]
    q["XYZ".index(axis) + 1] = math.sin(h)
    return q


def same_rotation(a, b):
    na = math.sqrt(sum(v * v for v in a))
    nb = math.sqrt(sum(v * v for v in b))
    d = abs(sum(x * y for x, y in zip(a, b))) / (na * nb)
    return math.sqrt(max(0.0, 1.0 - min(d, 1.0) ** 2)) <= EPS


def channel_order(bvh_text, joint):
    m = re.search(r"JOINT\s+" + re.escape(joint) + r"\s*\{\s*OFFSET[^\n]*\n\s*CHANNELS\s+\d+\s+([^\n]+)", bvh_text)
    return [c[0] for c in m.group(1).split() if c.endswith("rotation")]


def assimp_keys(root, joint, kind):
    """[(time s, values)] of Assimp's reading of `joint`"""
    anim = root.find(".//Animation")
    tps = float(anim.get("tick_cnt")) or 25.0
    for node in anim.iter("NodeAnim"):
        if node.get("node") == joint:
            return [(float(k.get("time")) / tps, ca.floats(k.text)) for k in node.iter(kind)]
    return []


def at(keys, t):
    for kt, v in keys:
        if abs(kt - t) < 1e-6:
            return v
    return None


def check(what, ok, failures):
    print(("ok     " if ok else "FAILED ") + what)
    if not ok:
        failures.append(what)


def main():
    if len(sys.argv) != 3:
        print("usage: posing-assimp.py SEQUIN-CLI ASSIMP", file=sys.stderr)
        return 2
    cli, assimp = sys.argv[1:]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        pose_file = os.path.join(tmp, "arm.pose")
        with open(pose_file, "w") as f:
            f.write("sequin-pose 1\nname Arm\nworld sl-anim\n"
                    "rotation 0.9238795325112867 0.3826834323650898 0 0 mShoulderLeft\n"
                    "rotation 0.8660254037844387 0 0.25 0.4330127018922193 mElbowLeft\n")
        new = os.path.join(tmp, "new.bvh")
        posed = os.path.join(tmp, "posed.bvh")
        subprocess.run([cli, "new", "--world", "bvh", "--duration", "2", "--fps", "10", new], check=True,
                       stderr=subprocess.DEVNULL)
        subprocess.run([cli, "edit", new, "-o", posed,
                        "--set-rotation", "mElbowLeft@0.5=10,20,30",
                        "--set-position", "mPelvis@0.5=4,40,2",
                        "--paste-pose", pose_file + "@0.8:flip"], check=True, stderr=subprocess.DEVNULL)
        text = open(posed).read()
        root = ca.assimp_dump(assimp, posed, os.path.join(tmp, "dump.xml"))
        if root is None:
            print("FAILED Assimp cannot read the posed file")
            return 1

        # the typed angles, turned in the joint's channel order
        order = channel_order(text, "mElbowLeft")
        want = [1.0, 0.0, 0.0, 0.0]
        for axis, degrees in zip(order, (10, 20, 30)):
            want = quat_mul(want, axis_quat(axis, degrees))
        got = at(assimp_keys(root, "mElbowLeft", "RotationKey"), 0.5)
        w = [got[3], got[0], got[1], got[2]] if got else None
        check(f"mElbowLeft at 0.5 s in Assimp is 10°, 20°, 30° about {''.join(order)}",
              w is not None and same_rotation(w, want), failures)

        got = at(assimp_keys(root, "mPelvis", "PositionKey"), 0.5)
        check("mPelvis at 0.5 s in Assimp is at (4, 40, 2)",
              got is not None and max(abs(a - b) for a, b in zip(got, (4, 40, 2))) < 1e-4, failures)

        # pasted flipped: each left joint's turn of the file on the right
        # joint, mirrored; Sequin's reading is Assimp's, key by key
        status, detail = ca.compare(cli, assimp, posed, tmp)
        check(f"Sequin's reading of the posed file is Assimp's ({detail})", status == "ok", failures)
        for line in open(pose_file):
            parts = line.split()
            if len(parts) != 6 or parts[0] != "rotation":
                continue
            left = [float(v) for v in parts[1:5]]
            right_joint = parts[5].replace("Left", "Right")
            got = at(assimp_keys(root, right_joint, "RotationKey"), 0.8)
            # the mirror of y in Second Life's axes, then Second Life's
            # (w, x, y, z) as BVH's (w, y, z, x)
            sl = [left[0], -left[1], left[2], -left[3]]
            want = [sl[0], sl[2], sl[3], sl[1]]
            check(f"{right_joint} at 0.8 s in Assimp is the file's {parts[5]} mirrored",
                  got is not None and same_rotation([got[3], got[0], got[1], got[2]], want), failures)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
