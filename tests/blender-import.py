#!/usr/bin/env python3
"""Blender imports what Sequin writes, and poses it as Sequin does.

Outside Blender (the meson test gltf-blender, where Blender is installed):
  blender-import.py --run SEQUIN_CLI BLENDER [--fresh-export] FILE|DIR…
(--fresh-export: this Blender exports the armature of
tests/data/gltf/make-blender-export.py, Sequin's reading of it must put each
joint where Blender has its bone, and it goes through the checks below too)
converts each file to .glb (a .glb to .gltf), reads Sequin's own reading of it (`dump --json`:
parents, rest offsets, keys in glTF's axes), and runs Blender on it:
  blender -b --factory-startup --python blender-import.py -- IN.glb OUT.json TIMES…
which imports the file (Blender's glTF importer), checks that it made an
armature with an action, and writes where each bone's head is at each key
time and how it is turned from its rest. Blender's bones must be the
clip's joints (no more, no fewer), every joint's place and turn at every
key time must agree with Sequin's own pose of the same clip (sq-pose.c:
an ActiveWorlds location moves the joint from its rest offset) within
0.01 mm and 0.01° (Blender's +Z up is glTF's +Y), and each STEP channel
must be a CONSTANT curve in Blender. Exit 77 (skipped) without Blender.
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
    result = {'armatures': len(arms), 'actions': len(bpy.data.actions), 'bones': [], 'poses': [],
              'interpolations': {}}
    if arms:
        arm = arms[0]
        result['bones'] = [b.name for b in arm.data.bones]
        if arm.animation_data is not None and arm.animation_data.action is None and bpy.data.actions:
            arm.animation_data.action = bpy.data.actions[0]
        if arm.animation_data is not None and arm.animation_data.action is not None:
            for fc in arm.animation_data.action.fcurves:
                kinds = sorted({k.interpolation for k in fc.keyframe_points})
                result['interpolations'][fc.data_path + '[%d]' % fc.array_index] = kinds
        fps = bpy.context.scene.render.fps / bpy.context.scene.render.fps_base
        for t in times:
            f = t * fps
            bpy.context.scene.frame_set(int(math.floor(f)), subframe=f - math.floor(f))
            bpy.context.view_layer.update()
            pose = {}
            for pb in arm.pose.bones:
                p = arm.matrix_world @ pb.head
                # the bone's turn from its rest, in the scene's axes
                m = arm.matrix_world.to_3x3() @ pb.matrix.to_3x3() @ pb.bone.matrix_local.to_3x3().inverted() \
                    @ arm.matrix_world.to_3x3().inverted()
                q = m.to_quaternion()
                pose[pb.name] = [p.x, p.y, p.z, q.w, q.x, q.y, q.z]
            result['poses'].append(pose)
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


def sample(keys, t, rot, nlerp=False):
    """The value at t: slerp (rotations; Blender's blend of the numbers with
    nlerp) or lerp, held beyond the ends"""
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
                if d > 0.9995 or nlerp:
                    v = [x + u * (y - x) for x, y in zip(va, vb)]
                else:
                    th = math.acos(min(1, d))
                    s = math.sin(th)
                    v = [(math.sin((1 - u) * th) * x + math.sin(u * th) * y) / s for x, y in zip(va, vb)]
                n = math.sqrt(sum(x * x for x in v))
                return tuple(x / n for x in v)
            return tuple(x + u * (y - x) for x, y in zip(va, vb))
    return tuple(keys[-1][1:])


def sequin_poses(dump, times, nlerp=False):
    """Sequin's world-space pose (sq-pose.c) at each time: every joint's
    place and turn, in Blender's axes (nlerp: the turns between keys
    blended as Blender does)"""
    joints = dump['joints']
    adds = bool(dump.get('extra', {}).get('translations-add'))
    # glTF (x, y, z) is Blender's (x, -z, y): a quarter turn about +X
    r = (math.sqrt(0.5), math.sqrt(0.5), 0.0, 0.0)
    r_inv = (r[0], -r[1], 0.0, 0.0)
    poses = []
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
                q = sample(joints[j]['rotations'], t, True, nlerp)
                tr = sample(joints[j]['translations'], t, False)
                off = e.get('offset', [0, 0, 0])
                if tr is not None:
                    off = [a + b for a, b in zip(off, tr)] if adds else tr
                if p < 0:
                    rot[j], pos[j] = q, tuple(off)
                else:
                    rot[j] = qmul(rot[p], q)
                    d = qrot(rot[p], off)
                    pos[j] = tuple(pos[p][k] + d[k] for k in range(3))
            if len(rest) == len(pending):
                break
            pending = rest
        poses.append({joints[j]['name']: [v[0], -v[2], v[1]] + list(qmul(qmul(r, rot[j]), r_inv))
                      for j, v in pos.items()})
    return poses


def keyed_times(dump):
    """Per joint, the times at which it and every joint above it are at a
    key (a track of fewer than two keys holds still)"""
    joints = dump['joints']
    own = []
    for j in joints:
        sets = [{'%.6f' % k[0] for k in j[ch]} for ch in ('rotations', 'translations') if len(j[ch]) > 1]
        own.append(sets)
    out = []
    for j in range(len(joints)):
        chain, p, steps = [], j, 0
        while p >= 0 and steps <= len(joints):
            chain += own[p]
            p = joints[p].get('extra', {}).get('parent', -1)
            steps += 1
        alltimes = {'%.6f' % k[0] for jj in joints for ch in ('rotations', 'translations') for k in jj[ch]}
        for s in chain:
            alltimes &= s
        out.append(alltimes)
    return out


def angle_deg(a, b):
    """The angle between two turns (atan2 of the relative turn: acos near 1
    would turn float rounding into hundredths of a degree)"""
    d = qmul((a[0], -a[1], -a[2], -a[3]), b)
    return math.degrees(2 * math.atan2(math.sqrt(d[1] ** 2 + d[2] ** 2 + d[3] ** 2), abs(d[0])))


def inputs(args):
    for a in args:
        if os.path.isdir(a):
            for name in sorted(os.listdir(a)):
                if name.lower().endswith(('.seq', '.anim', '.bvh', '.x', '.glb')):
                    yield os.path.join(a, name)
        else:
            yield a


def check_interpolations(glb, blender):
    """Each glTF STEP channel a CONSTANT curve in Blender, each LINEAR one
    a LINEAR curve"""
    with open(glb, 'rb') as f:
        data = f.read()
    if data[:4] == b'glTF':
        n = int.from_bytes(data[12:16], 'little')
        doc = json.loads(data[20:20 + n])
    else:
        doc = json.loads(data)
    nodes = doc.get('nodes', [])
    paths = {'rotation': 'rotation_quaternion', 'translation': 'location', 'scale': 'scale'}
    want = {'STEP': 'CONSTANT', 'LINEAR': 'LINEAR'}
    ok = True
    for anim in doc.get('animations', [])[:1]:
        for ch in anim['channels']:
            interp = anim['samplers'][ch['sampler']].get('interpolation', 'LINEAR')
            if interp not in want:
                continue
            name = nodes[ch['target']['node']].get('name')
            path = 'pose.bones["%s"].%s[0]' % (name, paths[ch['target']['path']])
            got = blender.get(path)
            # a curve of one key has nothing to interpolate
            if got is not None and got != [want[interp]]:
                counts = doc['accessors'][anim['samplers'][ch['sampler']]['input']]['count']
                if counts > 1:
                    print('FAIL: %s: %s is %s, Blender made it %s' % (glb, path, interp, got))
                    ok = False
    return ok


def fresh_export(cli, blender, tmp, env):
    """A file this Blender exports (tests/data/gltf/make-blender-export.py):
    Sequin's reading of it must put every joint where Blender put its bone
    (within 0.01 mm); returns the .glb to go through the other checks too"""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'gltf', 'make-blender-export.py')
    out = os.path.join(tmp, 'fresh')
    os.makedirs(out, exist_ok=True)
    r = subprocess.run([blender, '-b', '--factory-startup', '--python', script, '--', out],
                       capture_output=True, text=True, env=env)
    glb = os.path.join(out, 'blender-export.glb')
    if r.returncode != 0 or not os.path.exists(glb):
        print('FAIL: Blender does not export the test armature: %s' % r.stderr[-400:])
        return None, False
    truth = json.load(open(os.path.join(out, 'blender-export.json')))['heads']
    dump = json.loads(subprocess.run([cli, 'dump', '--json', glb], capture_output=True, text=True).stdout)
    times = sorted(float(t) for t in truth)
    worst, where = 0.0, ''
    for t, pose in zip(times, sequin_poses(dump, times)):
        for name, head in truth[repr(t) if repr(t) in truth else str(t)].items():
            d = math.dist(pose[name][:3], head) if name in pose else math.inf
            if d > worst:
                worst, where = d, '%s at %g s' % (name, t)
    ok = worst < 1e-5 and len(dump['joints']) == len(truth['0.0'])
    print('%s: Blender %s\'s own export read by Sequin: %d joints, largest difference %.3g mm (%s)' % (
        'ok' if ok else 'FAIL', blender, len(dump['joints']), worst * 1000, where))
    return glb, ok


def run(cli, blender, args, fresh=False):
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        extra = []
        if fresh:
            env = {k: v for k, v in os.environ.items() if not k.startswith(('PYTHON', 'PYENV', 'VIRTUAL_ENV'))}
            env['PATH'] = '/usr/bin:/bin'
            glb, ok = fresh_export(cli, blender, tmp, env)
            passed += ok
            failed += not ok
            extra = [glb] if glb else []
        for i, src in enumerate(list(inputs(args)) + extra):
            # a .glb is written again as a .gltf (a .glb saved as .glb is
            # its bytes): its bones in the rest pose Sequin keeps of it
            glb = os.path.join(tmp, '%03d.%s' % (i, 'gltf' if src.lower().endswith('.glb') else 'glb'))
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
            blended = sequin_poses(dump, times, nlerp=True)
            names = [j['name'] for j in dump['joints']]
            keyed = keyed_times(dump)
            worst, where, worst_deg, where_deg = 0.0, '', 0.0, ''
            between, n_strict = 0.0, 0
            for i, (t, pose) in enumerate(zip(times, want)):
                for j, name in enumerate(names):
                    p = pose.get(name)
                    b = got['poses'][i].get(name) if i < len(got['poses']) else None
                    if b is None or p is None:
                        worst, where = math.inf, 'bone %s missing' % name
                        continue
                    d = math.dist(p[:3], b[:3])
                    a = angle_deg(p[3:], b[3:])
                    # between keys Blender blends a quaternion's numbers
                    # where glTF (and Sequin) slerps: there Blender is
                    # compared with Sequin's keys blended as Blender does
                    if '%.6f' % t not in keyed[j]:
                        q = blended[i][name]
                        between = max(between, math.dist(q[:3], b[:3]) / 1e-5, angle_deg(q[3:], b[3:]) / 0.01)
                        continue
                    n_strict += 1
                    if d > worst:
                        worst, where = d, '%s at %.6g s' % (name, t)
                    if a > worst_deg:
                        worst_deg, where_deg = a, '%s at %.6g s' % (name, t)
            # every skin joint a bone, no more, no fewer
            same_bones = sorted(got['bones']) == sorted(names)
            if not same_bones:
                where = 'bones differ: missing %s, extra %s' % (sorted(set(names) - set(got['bones'])),
                                                               sorted(set(got['bones']) - set(names)))
            ok = got['armatures'] == 1 and got['actions'] >= 1 and same_bones and worst < 1e-5 and worst_deg < 0.01
            ok = ok and between < 1 and n_strict >= len(names)
            ok = ok and check_interpolations(glb, got['interpolations'])
            print('%s: %s: %d joints (%d bones), %d key times, %d actions, largest difference %.3g mm (%s), '
                  '%.3g° (%s); %d poses at keys; between keys %.3g of the tolerance' % (
                      'ok' if ok else 'FAIL', src, len(names), len(got['bones']), len(times), got['actions'],
                      worst * 1000, where, worst_deg, where_deg, n_strict, between))
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
        fresh = '--fresh-export' in sys.argv[4:]
        sys.exit(run(sys.argv[2], sys.argv[3], [a for a in sys.argv[4:] if a != '--fresh-export'], fresh))
    else:
        print(__doc__)
        sys.exit(2)
