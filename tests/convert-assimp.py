#!/usr/bin/env python3
# convert-assimp.py: what Sequin writes, read by Assimp and by Sequin
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: convert-assimp.py SEQUIN-CLI ASSIMP FOLDER...
#
# Every animation file in the folders (.seq, .anim, .dat, .bvh, .x) is
# converted by `sequin-cli convert` into every format Sequin writes. Each
# result must read back in Sequin (`sequin-cli dump --json`); the BVH
# results are imported by Assimp (`assimp info`: its importer, validation and
# post-processing, which refuse for instance a skeleton whose bones all have
# length 0; a .x file with a frame but no mesh fails its validation whatever
# the animation), the BVH and .x results are read by it (`assimp dump`), and
# that reading
# is compared key by key with Sequin's reading of the same bytes by
# compare-assimp.py's compare(): the same joints, key times and rotations (up
# to Assimp's handedness for .x), within single precision.
#
# Assimp reads a DirectX file only when it has a frame, and takes
# AnimTicksPerSecond only at the top level: Sequin's .x output, like
# ActiveWorlds' own files, has no frames and keeps the rate inside the
# AnimationSet. The copy Assimp and Sequin read for the comparison gets a
# frame (an identity FrameTransformMatrix) where the file has none and the
# rate at the top level too; the animation itself is untouched.
#
# A file saved in its own format comes back byte for byte (an unedited save
# is the file itself): that copy is read by Sequin but not compared with
# Assimp here (compare-assimp.py compares the sources themselves).
#
# A missing folder, a failed conversion, a result Sequin or Assimp cannot
# read and any difference is a failure naming the files. Prints one line per
# failure and a summary; exits 1 on any failure or when nothing was checked.
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

# every format Sequin writes, with the extension of its files
TARGETS = [("seq-binary", ".seq"), ("seq-text", ".seq"), ("sl-anim", ".anim"), ("bvh", ".bvh"), ("dx", ".x")]
READABLE = (".seq", ".anim", ".dat", ".bvh", ".x")
IDENTITY_FRAME = (b"Frame SequinRoot {\r\n  FrameTransformMatrix {\r\n"
                  b"    1.000000,0.000000,0.000000,0.000000,0.000000,1.000000,0.000000,0.000000,"
                  b"0.000000,0.000000,1.000000,0.000000,0.000000,0.000000,0.000000,1.000000;;\r\n"
                  b"  }\r\n}\r\n")


def for_assimp(path, out):
    """A copy of the .x file at `path` that Assimp reads: a frame where the
    file has none, AnimTicksPerSecond at the top level as well."""
    data = open(path, "rb").read()
    # the AnimationSet object (not the template of that name)
    found = re.search(rb"(?<![A-Za-z_])(?<!template )AnimationSet(\s+[^\s{]+)?\s*\{", data)
    set_at = found.start() if found else -1
    head = b""
    if not re.search(rb"(^|[\s;{}])Frame[\s{]", data):
        head += IDENTITY_FRAME
    ticks = re.search(rb"AnimTicksPerSecond\s*[^{;]*\{\s*(\d+)", data)
    if ticks is not None and set_at >= 0 and ticks.start() > set_at:
        head += b"AnimTicksPerSecond {\r\n  " + ticks.group(1) + b";\r\n}\r\n"
    if head and set_at >= 0:
        data = data[:set_at] + head + data[set_at:]
    with open(out, "wb") as f:
        f.write(data)
    return out


def assimp_info(assimp, path):
    """None when `assimp info` imports the file (Assimp's importer with the
    validation and post-processing of its command line tool), else its error"""
    r = subprocess.run([assimp, "info", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode == 0:
        return None
    lines = [l for l in r.stdout.decode("utf-8", "replace").splitlines() if "ERROR" in l or "Unable" in l]
    return (lines[0] if lines else f"exit status {r.returncode}")[:300]


def sequin_reads(cli, path):
    """None when Sequin reads the file, else why not (a .anim may hold no
    joint: the viewer's importer leaves out joints that never move)"""
    r = subprocess.run([cli, "dump", "--json", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        return "Sequin cannot read it: " + r.stderr.decode("utf-8", "replace").strip()[:300]
    clip = json.loads(r.stdout)
    if not isinstance(clip.get("joints"), list):
        return "Sequin's dump has no joint list"
    return None


def check(cli, assimp, source, fmt, ext, workdir, counts):
    name = os.path.basename(source)
    out = os.path.join(workdir, "out" + ext)
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([cli, "convert", "--to", fmt, source, out], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    if r.returncode != 0 or not os.path.exists(out):
        return [f"{name} → {fmt}: the conversion failed: "
                + r.stderr.decode("utf-8", "replace").strip().splitlines()[-1][:300]]
    failures = []
    why = sequin_reads(cli, out)
    counts["sequin"] += 1
    if why is not None:
        failures.append(f"{name} → {fmt}: {why}")
    with open(source, "rb") as a, open(out, "rb") as b:
        copy = a.read() == b.read()
    if copy:
        # a file saved unedited in its own format is the file itself, not
        # something Sequin wrote: compare-assimp.py checks the source
        counts["copies"] += 1
    elif fmt in ("bvh", "dx"):
        counts["assimp"] += 1
        path = for_assimp(out, os.path.join(workdir, "assimp.x")) if fmt == "dx" else out
        info = assimp_info(assimp, path) if fmt == "bvh" else None
        if info is not None:
            failures.append(f"{name} → {fmt} ({os.path.basename(path)} written from {source}): "
                            f"Assimp refuses it: {info}")
        result, text = compare_assimp.compare(cli, assimp, path, workdir)
        if result == "skipped":
            failures.append(f"{name} → {fmt} ({os.path.basename(path)} written from {source}): {text}")
        elif result != "ok":
            failures.append(f"{name} → {fmt}: Sequin and Assimp differ: {text}")
    return failures


def main():
    if len(sys.argv) < 4:
        print("usage: convert-assimp.py SEQUIN-CLI ASSIMP FOLDER...", file=sys.stderr)
        return 2
    cli, assimp = sys.argv[1], sys.argv[2]
    failures = []
    sources = []
    for folder in sys.argv[3:]:
        if not os.path.isdir(folder):
            failures.append(f"the input folder {folder} is missing")
            continue
        found = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith(READABLE))
        if not found:
            failures.append(f"the input folder {folder} holds no animation file")
        sources += found
    counts = {"sequin": 0, "assimp": 0, "copies": 0}
    with tempfile.TemporaryDirectory() as workdir:
        for source in sources:
            for fmt, ext in TARGETS:
                failures += check(cli, assimp, source, fmt, ext, workdir, counts)
    for f in failures:
        print("failed:", f)
    print(f"{len(sources)} files, {len(sources) * len(TARGETS)} conversions: {counts['sequin']} read back by "
          f"Sequin, {counts['assimp']} compared with Assimp's reading, {counts['copies']} unedited copies "
          f"of their source; {len(failures)} failed")
    return 1 if failures or counts["assimp"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
