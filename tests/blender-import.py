#!/usr/bin/env python3
"""Blender imports what Sequin writes, and poses it as Sequin does.

Outside Blender (the meson test gltf-blender, where Blender is installed):
  blender-import.py --run SEQUIN_CLI BLENDER FILE|DIR…
converts each file to .glb, reads Sequin's own reading of it (`dump --json`:
parents, rest offsets, keys in glTF's axes), and runs Blender on it:
  blender -b --factory-startup --python blender-import.py -- IN.glb OUT.json TIMES…
which imports the file (Blender's glTF importer), checks that it made an
armature with an action, and writes where each bone's head is at each key
time. Every joint's place at every key time must agree with Sequin's
forward kinematics of the same clip within 1 mm (Blender's +Z up is glTF's
+Y). Exit 77 (skipped) without Blender.
SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import math
import os
import subprocess
import sys
import tempfile


# ---- inside Blender ----------------------------------------------------------

def in_blender(glb, out, times):
    import bpy
    import numpy
    # Debian 12's Blender 3.4 importer still says numpy.bool, which its
    # numpy 1.24 no longer has
    if not hasattr(numpy, 'bool'):
        numpy.bool = bool
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb)
    arms = [o for o in bpy.context.scene.objects if o.type == 'ARMATURE']
    result = {'armatures': len(arms), 'actions': len(bpy.data.actions), 'poses': {}}
    if arms:
        arm = arms[0]
        if arm.animation_data is not None and arm.animation_data.action is None and bpy.data.actions:
            arm.animation_data.action = bpy.data.actions[0]
        fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
        for t in times:
            f = t * fps
            bpy.context.scene.frame_set(int(math.floor(f)), subframe=f - math.floor(f))
            bpy.context.view_layer.update()
            pose = {}
            for pb in arm.pose.bones:
                p = arm.matrix_world @ pb.head
                pose[pb.name] = [p.x, p.y, p.z]
            result['poses']['%.6f' % t] = pose
    with open(out, 'w') as f:
        json.dump(result, f)


# ---- outside: Sequin's poses -------------------------------------------------

def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def qrot(q, v):
    r = qmul(qmul(q, (0.0, v[0], v[1], v[2])), (q[0], -q[1], -q[2], -q[3]))
    return r[1:]


def sample(keys, t, rot):
    """The value at t: slerp (rotations) or lerp, held beyond the ends"""
    if not keys:
        return (1.0, 0.0, 0.0, 0.0) if rot else None
    if t <= keys[0][0]:
        return tuple(keys[0][1:])
    for a, b in zip(keys, keys[1:]):
        if t <= b[0]:
            u = (t - a[0]) / (b[0] - a[0]) if b[0] > a[0] else 0
            va, vb = a[1:], b[1:]
            if rot:
                d = sum(x * y for x, y in zip(va, vb))
                if d < 0:
                    vb, d = [-x for x in vb], -d
                if d > 0.9995:
                    v = [x + u * (y - x) for x, y in zip(va, vb)]
                else:
                    th = math.acos(min(1, d))
                    s = math.sin(th)
                    v = [(math.sin((1 - u) * th) * x + math.sin(u * th) * y) / s for x, y in zip(va, vb)]
                n = math.sqrt(sum(x * x for x in v))
                return tuple(x / n for x in v)
            return tuple(x + u * (y - x) for x, y in zip(va, vb))
    return tuple(keys[-1][1:])


def sequin_poses(dump, times):
    joints = dump['joints']
    poses = {}
    for t in times:
        rot, pos = {}, {}
        pending = list(range(len(joints)))
        while pending:
            rest = []
            for j in pending:
                e = joints[j].get('extra', {})
                p = e.get('parent', -1)
                if p >= 0 and p not in rot:
                    rest.append(j)
                    continue
                q = sample(joints[j]['rotations'], t, True)
                tr = sample(joints[j]['translations'], t, False)
                off = tr if tr is not None else e.get('offset', [0, 0, 0])
                if p < 0:
                    rot[j], pos[j] = q, tuple(off)
                else:
                    rot[j] = qmul(rot[p], q)
                    d = qrot(rot[p], off)
                    pos[j] = tuple(pos[p][k] + d[k] for k in range(3))
            if len(rest) == len(pending):
                break
            pending = rest
        # glTF (x, y, z) is Blender's (x, -z, y)
        poses['%.6f' % t] = {joints[j]['name']: [v[0], -v[2], v[1]] for j, v in pos.items()}
    return poses


def inputs(args):
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.lower().endswith(('.seq', '.anim', '.bvh', '.x')):
                    yield os.path.join(a, name)
        else:
            yield a


def run(cli, blender, args):
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, src in enumerate(inputs(args)):
            glb = os.path.join(tmp, '%03d.glb' % i)
            out = os.path.join(tmp, '%03d.json' % i)
            if subprocess.run([cli, 'convert', src, glb], capture_output=True).returncode != 0:
                print('FAIL: %s does not convert' % src)
                failed += 1
                continue
            dump = json.loads(subprocess.run([cli, 'dump', '--json', glb], capture_output=True, text=True).stdout)
            times = sorted({k[0] for j in dump['joints'] for ch in ('rotations', 'translations') for k in j[ch]})
            if len(times) > 200:
                times = times[::len(times) // 200 + 1]
            # Blender's own Python with the system's packages (numpy), not a
            # Python the test runner may have set up
            env = {k: v for k, v in os.environ.items() if not k.startswith(('PYTHON', 'PYENV', 'VIRTUAL_ENV'))}
            env['PATH'] = '/usr/bin:/bin'
            r = subprocess.run([blender, '-b', '--factory-startup', '--python', os.path.abspath(__file__), '--',
                                glb, out] + ['%.9g' % t for t in times], capture_output=True, text=True, env=env)
            if r.returncode != 0 or not os.path.exists(out):
                print('FAIL: Blender cannot import %s (from %s): %s' % (glb, src, r.stderr[-400:]))
                failed += 1
                continue
            got = json.load(open(out))
            want = sequin_poses(dump, times)
            worst, where = 0.0, ''
            for t, pose in want.items():
                for name, p in pose.items():
                    b = got['poses'].get(t, {}).get(name)
                    if b is None:
                        worst, where = math.inf, 'bone %s missing' % name
                        continue
                    d = math.dist(p, b)
                    if d > worst:
                        worst, where = d, '%s at %s s' % (name, t)
            ok = got['armatures'] == 1 and got['actions'] >= 1 and worst < 1e-3
            print('%s: %s: %d joints, %d key times, %d actions, largest difference %.3g mm (%s)' % (
                'ok' if ok else 'FAIL', src, len(dump['joints']), len(times), got['actions'], worst * 1000, where))
            passed += ok
            failed += not ok
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    if '--' in sys.argv:
        a = sys.argv[sys.argv.index('--') + 1:]
        in_blender(a[0], a[1], [float(x) for x in a[2:]])
    elif len(sys.argv) > 4 and sys.argv[1] == '--run':
        if not os.path.exists(sys.argv[3]) and subprocess.run(['which', sys.argv[3]], capture_output=True).returncode:
            print('SKIP: no Blender')
            sys.exit(77)
        sys.exit(run(sys.argv[2], sys.argv[3], sys.argv[4:]))
    else:
        print(__doc__)
        sys.exit(2)
