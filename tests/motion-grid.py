#!/usr/bin/env python3
# motion-grid.py: resample, speed and trim keep a format's frame grid
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: motion-grid.py SEQUIN-CLI ASSIMP FOLDER...
#
# Every BVH and binary SEQ file in the folders is resampled to several
# rates, sped up and slowed down, and trimmed at times between frames, with
# `sequin-cli edit`, written in its own format. Each result must come with
# no `lost:` line (what the grid moves is a `note:`), read back in Sequin
# with every key time on the format's frames (a BVH's frame time, binary
# SEQ's 1/30 s) and the last key at the end, the frame count the edit gives
# (a resample to R ends on the frame nearest the last key); a BVH result
# must import in Assimp (`assimp info`) and agree with Sequin's reading key
# by key (compare-assimp.py's compare()). A resample above 30 a second of a
# binary SEQ must be refused. Prints one line per failure and a summary;
# exits 1 on any failure or when nothing was checked.
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("compare_assimp", os.path.join(HERE, "compare-assimp.py"))
compare_assimp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_assimp)

RATES = ["7", "10", "24", "60"]
SPEEDS = ["0.5", "1.5", "3"]


def info(cli, path):
    out = subprocess.run([cli, "info", path], stdout=subprocess.PIPE, text=True, check=True).stdout
    m = re.search(r"Frames:\s+(\d+) \(([\d.]+) per second\)", out)
    d = re.search(r"Duration:\s+([\d.]+) s", out)
    f = re.search(r"Format:\s+(.*)", out)
    return int(m.group(1)), float(m.group(2)), float(d.group(1)), f.group(1)


def grid_of(clip):
    if clip["format"] == "bvh":
        return 1.0 / clip["extra"]["frame-time"]
    return 30.0


def check_grid(clip):
    """None, or what is off the grid"""
    grid = grid_of(clip)
    last = 0.0
    for j in clip["joints"]:
        for what in ("rotations", "translations"):
            for k in j[what]:
                f = k[0] * grid
                if abs(f - round(f)) > 1e-4:
                    return f"{j['name']} {what[:-1]} key at {k[0]} s is off the {grid:g}/s grid (frame {f:.4f})"
                last = max(last, k[0])
    if abs(last - clip["duration"]) > 1e-4:
        return f"last key at {last} s, duration {clip['duration']} s"
    return None


def ops_for(path, duration):
    ops = [["--resample", r] for r in RATES] + [["--speed", s] for s in SPEEDS]
    # cuts between frames: a third of a frame in, and near the end
    a, b = 1.0 / 90 + duration / 5, duration - duration / 7 - 1.0 / 70
    if b - a > 0.1:
        ops.append(["--trim", f"{a:.6f},{b:.6f}"])
    if duration > 0.1:
        ops.append(["--trim", f"0,{duration / 2 + 0.004:.6f}"])
    return ops


def run_one(cli, assimp, path, op, workdir, is_seq):
    ext = os.path.splitext(path)[1]
    out = os.path.join(workdir, "out" + ext)
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([cli, "edit", path, "-o", out] + op, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if is_seq and op[0] == "--resample" and float(op[1]) > 30:
        if r.returncode == 1 and "cannot hold" in r.stderr:
            return None
        return f"a resample to {op[1]}/s was not refused: {r.stderr.strip()}"
    if r.returncode != 0:
        return f"edit failed: {r.stderr.strip()}"
    lost = [line for line in r.stderr.splitlines() if "lost:" in line]
    if lost:
        return f"{len(lost)} lost: lines, first {lost[0]}"
    clip = json.loads(subprocess.run([cli, "dump", "--json", out], check=True, stdout=subprocess.PIPE).stdout)
    off = check_grid(clip)
    if off:
        return off
    frames, _, duration, _ = info(cli, out)
    if op[0] == "--resample" and not is_seq:
        rate = float(op[1])
        src = json.loads(subprocess.run([cli, "dump", "--json", path], check=True, stdout=subprocess.PIPE).stdout)
        last = max(k[0] for j in src["joints"] for w in ("rotations", "translations") for k in j[w])
        want = max(int(last * rate + 0.5), 1) + 1
        if frames != want:
            return f"{frames} frames, not {want}"
    if not is_seq:
        r = subprocess.run([assimp, "info", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            return f"assimp info refuses it: {r.stderr.strip()[:200]}"
        status, detail = compare_assimp.compare(cli, assimp, out, workdir)
        if status == "failed":
            return f"Assimp disagrees: {detail}"
    return None


def main():
    cli, assimp, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    checked = failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for folder in folders:
            if not os.path.isdir(folder):
                print(f"FAIL: missing folder {folder}")
                return 1
            for name in sorted(os.listdir(folder)):
                path = os.path.join(folder, name)
                low = name.lower()
                if not (low.endswith(".bvh") or low.endswith(".seq")):
                    continue
                _, _, duration, kind = info(cli, path)
                if low.endswith(".seq") and "binary" not in kind:
                    continue   # text SEQ: milliseconds, no frame grid
                is_seq = low.endswith(".seq")
                for op in ops_for(path, duration):
                    problem = run_one(cli, assimp, path, op, workdir, is_seq)
                    checked += 1
                    if problem:
                        failed += 1
                        print(f"FAIL: {name} {' '.join(op)}: {problem}")
    print(f"{checked} edits checked, {failed} failed")
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
