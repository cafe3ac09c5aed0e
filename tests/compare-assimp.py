#!/usr/bin/env python3
# compare-assimp.py: Sequin's reading of .x and BVH files against Assimp's
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: compare-assimp.py SEQUIN-CLI ASSIMP FILE-OR-FOLDER...
# (a folder stands for its .x and .bvh files)
#
# For each file, `assimp dump FILE OUT.xml -x` (Assimp's own reader, an
# independent implementation) and `sequin-cli dump --json FILE` are compared
# key by key: every animated node of Assimp's must be a joint of Sequin's,
# and at every one of Assimp's key times Sequin's rotation (sampled from its
# track) must be the same rotation (up to sign) and its translation the same
# vector, within single precision. Assimp reads .x into a right-handed space:
# it inverts the rotation (formats.md 3.5) and mirrors Z, which together
# take a file's (w, x, y, z) to (w, x, y, -z) and a position (x, y, z) to
# (x, y, -z); the comparison undoes that. Files Assimp cannot read are reported and
# skipped. Prints one line per file and a summary; exits 1 on a mismatch.
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROT_EPS = 2e-5      # Assimp computes in single precision and prints 6 decimals (0.002°)
POS_EPS = 2e-6      # relative to the vector's size (at least 1)


def assimp_dump(assimp, path, out):
    r = subprocess.run([assimp, "dump", path, out, "-x"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if r.returncode != 0 or not os.path.exists(out):
        return None
    return ET.parse(out).getroot()


def floats(text):
    return [float(v) for v in text.split()]


def sample(keys, t, rotation):
    """Sequin's track at time t: [time, values...] keys, held beyond the ends,
    slerp (rotations) or linear between keys."""
    if not keys:
        return None
    if t <= keys[0][0]:
        return keys[0][1:]
    if t >= keys[-1][0]:
        return keys[-1][1:]
    lo, hi = 0, len(keys) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if keys[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    a, b = keys[lo], keys[hi]
    # Assimp's key times are ticks over a rate it prints with 7 digits: a
    # time that close to one of Sequin's keys is that key
    for k in (a, b):
        if abs(k[0] - t) < 2e-5:
            return k[1:]
    f = (t - a[0]) / (b[0] - a[0])
    if f < 1e-9:
        return a[1:]
    if f > 1 - 1e-9:
        return b[1:]
    va, vb = a[1:], b[1:]
    if not rotation:
        return [x + (y - x) * f for x, y in zip(va, vb)]
    d = sum(x * y for x, y in zip(va, vb))
    if d < 0:
        vb, d = [-y for y in vb], -d
    if d > 0.9995:
        q = [x + (y - x) * f for x, y in zip(va, vb)]
    else:
        th = math.acos(min(d, 1.0))
        s = math.sin(th)
        q = [(math.sin((1 - f) * th) * x + math.sin(f * th) * y) / s for x, y in zip(va, vb)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def compare(cli, assimp, path, workdir):
    root = assimp_dump(assimp, path, os.path.join(workdir, "dump.xml"))
    if root is None:
        return "skipped", "Assimp cannot read it"
    clip = json.loads(subprocess.run([cli, "dump", "--json", path], check=True,
                                     stdout=subprocess.PIPE).stdout)
    joints = {j["name"]: j for j in clip["joints"]}
    conj = clip["format"] == "dx"
    anim = root.find(".//Animation")
    if anim is None:
        return "skipped", "no animation in Assimp's reading"
    tps = float(anim.get("tick_cnt")) or 25.0
    nodes = keys = 0
    worst_rot = worst_pos = 0.0
    for node in anim.iter("NodeAnim"):
        name = node.get("node")
        if name not in joints:
            return "failed", f"node {name!r} is not a joint in Sequin's reading"
        joint = joints[name]
        nodes += 1
        for key in node.iter("RotationKey"):
            t = float(key.get("time")) / tps
            x, y, z, w = floats(key.text)
            if conj:
                z = -z
            n = math.sqrt(w * w + x * x + y * y + z * z)
            w, x, y, z = w / n, x / n, y / n, z / n
            q = sample(joint["rotations"], t, True)
            if q is None:
                # no rotation keys: the rest rotation
                q = [1.0, 0.0, 0.0, 0.0]
            # files keep 6 decimals or so: neither side is exactly of length 1
            nq = math.sqrt(sum(v * v for v in q)) or 1.0
            q = [v / nq for v in q]
            d = abs(q[0] * w + q[1] * x + q[2] * y + q[3] * z)
            err = math.sqrt(max(0.0, 1.0 - min(d, 1.0) ** 2))   # sin of half the angle between
            worst_rot = max(worst_rot, err)
            if err > ROT_EPS:
                return "failed", (f"{name} rotation at {t:.6f} s: Sequin {q}, Assimp w,x,y,z "
                                  f"{[w, x, y, z]}")
            keys += 1
        if not joint["translations"]:
            # Assimp gives such joints their rest offset: nothing to compare
            continue
        for key in node.iter("PositionKey"):
            t = float(key.get("time")) / tps
            v = floats(key.text)
            if conj:
                v[2] = -v[2]
            p = sample(joint["translations"], t, False)
            err = max(abs(a - b) for a, b in zip(v, p)) / max(1.0, max(abs(a) for a in v))
            worst_pos = max(worst_pos, err)
            if err > POS_EPS:
                return "failed", f"{name} translation at {t:.6f} s: Sequin {p}, Assimp {v}"
            keys += 1
    if nodes == 0:
        return "skipped", "no animated nodes in Assimp's reading"
    return "ok", (f"{nodes} nodes, {keys} keys agree (worst rotation {worst_rot:.1e}, "
                  f"translation {worst_pos:.1e})")


def main():
    if len(sys.argv) < 4:
        print(__doc__ or "usage: compare-assimp.py SEQUIN-CLI ASSIMP FILE...", file=sys.stderr)
        return 2
    cli, assimp = sys.argv[1], sys.argv[2]
    files = []
    missing = 0
    for arg in sys.argv[3:]:
        if os.path.isdir(arg):
            found = sorted(os.path.join(arg, f) for f in os.listdir(arg)
                           if f.lower().endswith((".x", ".bvh")))
            if not found:
                print(f"failed: {arg}: no .x or .bvh file in the folder")
                missing += 1
            files += found
        elif os.path.isfile(arg):
            files.append(arg)
        else:
            # a missing input is a failure, never a file Assimp "cannot read"
            print(f"failed: {arg}: missing test input")
            missing += 1
    counts = {"ok": 0, "failed": missing, "skipped": 0}
    with tempfile.TemporaryDirectory() as workdir:
        for path in files:
            result, text = compare(cli, assimp, path, workdir)
            counts[result] += 1
            print(f"{result}: {path}: {text}")
    print(f"{counts['ok']} agree, {counts['failed']} differ, {counts['skipped']} skipped")
    return 1 if counts["failed"] or counts["ok"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
