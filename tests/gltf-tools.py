#!/usr/bin/env python3
"""Every test file of every world written as .glb and as .gltf (with its .bin) by
sequin-cli, then read by a program nobody here wrote:

  gltf-tools.py validator SEQUIN_CLI NODE FILE|DIR…   the Khronos glTF validator
      (tests/gltf-validate.js) must report no error on any of them
  gltf-tools.py assimp SEQUIN_CLI ASSIMP FILE|DIR…    `assimp info` must read each,
      finding the skeleton's bones and the animations

Exit 77 (skipped) when the validator package is not installed.
SPDX-License-Identifier: GPL-3.0-or-later
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXTS = ('.seq', '.anim', '.bvh', '.x', '.dat', '.cmx', '.kfd', '.psl')


def inputs(args):
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.lower().endswith(EXTS):
                    yield os.path.join(a, name)
        else:
            yield a


def takes(cli, path):
    out = subprocess.run([cli, 'info', path], capture_output=True, text=True).stdout
    m = re.search(r'^Takes:\s+(\d+)', out, re.M)
    return int(m.group(1)) if m else 1


def write_all(cli, files, tmp):
    """Each file (each take) as .glb and .gltf; returns [(source, output)]"""
    outs = []
    for i, path in enumerate(files):
        # a clip of no animation (a SimPose-ium sequence) has nothing to write
        for t in range(1, takes(cli, path) + 1):
            for ext in ('glb', 'gltf'):
                out = os.path.join(tmp, '%03d-%d.%s' % (i, t, ext))
                r = subprocess.run([cli, 'convert', '--take', str(t), path, out], capture_output=True, text=True)
                if r.returncode != 0:
                    print('FAIL: %s take %d → %s: %s' % (path, t, ext, r.stderr.strip()))
                    outs.append((path, None))
                    continue
                outs.append((path, out))
    return outs


def main():
    mode, cli, tool = sys.argv[1:4]
    files = list(inputs(sys.argv[4:]))
    if not files:
        print('FAIL: no input files')
        return 1
    if mode == 'validator':
        r = subprocess.run([tool, os.path.join(HERE, 'gltf-validate.js')], capture_output=True, text=True)
        if r.returncode == 77:
            print(r.stdout.strip())
            return 77
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        outs = write_all(cli, files, tmp)
        bad += sum(1 for _, o in outs if o is None)
        written = [o for _, o in outs if o is not None]
        if mode == 'validator':
            # in batches: one node start-up for many files
            for k in range(0, len(written), 50):
                r = subprocess.run([tool, os.path.join(HERE, 'gltf-validate.js')] + written[k:k + 50],
                                   capture_output=True, text=True)
                for line in r.stdout.splitlines():
                    if ': error: ' in line:
                        print('FAIL: ' + line)
                        bad += 1
                    elif ': warning: ' in line:
                        print(line)
        else:
            for src, out in outs:
                if out is None:
                    continue
                r = subprocess.run([tool, 'info', out], capture_output=True, text=True)
                m = re.search(r'^Bones:\s+(\d+)', r.stdout, re.M)
                a = re.search(r'^Animations:\s+(\d+)', r.stdout, re.M)
                if r.returncode != 0 or not m or int(m.group(1)) == 0 or not a or int(a.group(1)) == 0:
                    print('FAIL: assimp cannot read %s (from %s): %s' % (out, src, (r.stderr or r.stdout).strip()[-300:]))
                    bad += 1
        print('%d files written from %d inputs, %d failed' % (len(written), len(files), bad))
    print('%d passed, %d failed' % (len(written) - bad if bad <= len(written) else 0, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
