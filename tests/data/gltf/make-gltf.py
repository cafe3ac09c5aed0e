#!/usr/bin/env python3
"""Writes the foreign glTF test files of tests/test-gltf.c (run it here to remake them):

blender-style.gltf + blender-style.bin, and the same as blender-style.glb: what
Blender's exporter makes of an armature "Armature" (a node that is no joint,
moved 1 m along +X) with the joints Hips, Spine (turned 90 degrees about +Y at
rest) and Head, a mesh node "Face" with a morph target, a node "Prop" that is
no joint, and two animations:

  "Wave": Hips translation LINEAR (0,1,0) -> (0,1,0.5) over 1 s; Spine rotation
          CUBICSPLINE from its rest to 180 degrees about +Y, tangents 0; Head
          rotation STEP identity -> 90 degrees about +X at 1 s; Face weights;
          Prop translation.
  "Idle": Hips rotation LINEAR identity -> 30 degrees about +Y over 2 s.
"""
import json
import math
import struct
import os

HERE = os.path.dirname(os.path.abspath(__file__))
S = math.sqrt(0.5)


class Buf:
    def __init__(self):
        self.data = bytearray()
        self.views = []
        self.accessors = []

    def floats(self, values, ncomp, minmax=False):
        while len(self.data) % 4:
            self.data.append(0)
        off = len(self.data)
        flat = [x for v in values for x in (v if isinstance(v, (list, tuple)) else [v])]
        self.data += struct.pack('<%df' % len(flat), *flat)
        self.views.append({'buffer': 0, 'byteOffset': off, 'byteLength': 4 * len(flat)})
        acc = {'bufferView': len(self.views) - 1, 'componentType': 5126, 'count': len(values),
               'type': {1: 'SCALAR', 3: 'VEC3', 4: 'VEC4', 16: 'MAT4'}[ncomp]}
        if minmax:
            cols = [[v] if ncomp == 1 else list(v) for v in values]
            acc['min'] = [min(c[i] for c in cols) for i in range(ncomp)]
            acc['max'] = [max(c[i] for c in cols) for i in range(ncomp)]
        self.accessors.append(acc)
        return len(self.accessors) - 1

    def ushorts(self, values):
        while len(self.data) % 4:
            self.data.append(0)
        off = len(self.data)
        self.data += struct.pack('<%dH' % len(values), *values)
        self.views.append({'buffer': 0, 'byteOffset': off, 'byteLength': 2 * len(values)})
        self.accessors.append({'bufferView': len(self.views) - 1, 'componentType': 5123,
                               'count': len(values), 'type': 'SCALAR'})
        return len(self.accessors) - 1


def document():
    b = Buf()
    nodes = [
        {'name': 'Armature', 'translation': [1, 0, 0], 'children': [1, 5]},
        {'name': 'Hips', 'translation': [0, 1, 0], 'children': [2]},
        {'name': 'Spine', 'translation': [0, 0.2, 0], 'rotation': [0, S, 0, S], 'children': [3]},
        {'name': 'Head', 'translation': [0.1, 0.3, 0]},
        {'name': 'Face', 'mesh': 0},
        {'name': 'Body', 'mesh': 1, 'skin': 0},
        {'name': 'Prop', 'translation': [2, 0, 0]},
    ]
    nodes[0]['children'] = [1, 5]
    nodes[3]['children'] = [4]
    # the face: a triangle with one morph target; the body: a triangle skinned to Hips
    tri = [(0, 0, 0), (0.1, 0, 0), (0, 0.1, 0)]
    pos = b.floats(tri, 3, True)
    target = b.floats([(0, 0, 0.01), (0, 0, 0), (0, 0, 0)], 3, True)
    idx = b.ushorts([0, 1, 2])
    body_pos = b.floats([(0, 1, 0), (0.1, 1, 0), (0, 1.1, 0)], 3, True)
    joints = b.ushorts([0] * 12)
    b.accessors[joints]['count'] = 3
    b.accessors[joints]['type'] = 'VEC4'
    weights = b.floats([(1, 0, 0, 0)] * 3, 4)
    ibm = b.floats([[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -1, -1, 0, 1],
                    [0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, -1.2, 1, 1],
                    [0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, -1.5, 1.1, 1]], 16)
    b.accessors[ibm]['type'] = 'MAT4'
    meshes = [
        {'name': 'Face', 'primitives': [{'attributes': {'POSITION': pos}, 'indices': idx,
                                         'targets': [{'POSITION': target}]}], 'weights': [0]},
        {'name': 'Body', 'primitives': [{'attributes': {'POSITION': body_pos, 'JOINTS_0': joints,
                                                        'WEIGHTS_0': weights}}]},
    ]
    skins = [{'name': 'Armature', 'joints': [1, 2, 3], 'inverseBindMatrices': ibm, 'skeleton': 1}]

    t01 = b.floats([0.0, 1.0], 1, True)
    hips_t = b.floats([(0, 1, 0), (0, 1, 0.5)], 3)
    # CUBICSPLINE: in-tangent, value, out-tangent per key
    spine_r = b.floats([(0, 0, 0, 0), (0, S, 0, S), (0, 0, 0, 0),
                        (0, 0, 0, 0), (0, 1, 0, 0), (0, 0, 0, 0)], 4)
    head_r = b.floats([(0, 0, 0, 1), (S, 0, 0, S)], 4)
    face_w = b.floats([0.0, 1.0], 1)
    prop_t = b.floats([(2, 0, 0), (2, 1, 0)], 3)
    t02 = b.floats([0.0, 2.0], 1, True)
    half = math.radians(15)
    hips_r = b.floats([(0, 0, 0, 1), (0, math.sin(half), 0, math.cos(half))], 4)
    animations = [
        {'name': 'Wave',
         'samplers': [{'input': t01, 'output': hips_t, 'interpolation': 'LINEAR'},
                      {'input': t01, 'output': spine_r, 'interpolation': 'CUBICSPLINE'},
                      {'input': t01, 'output': head_r, 'interpolation': 'STEP'},
                      {'input': t01, 'output': face_w},
                      {'input': t01, 'output': prop_t}],
         'channels': [{'sampler': 0, 'target': {'node': 1, 'path': 'translation'}},
                      {'sampler': 1, 'target': {'node': 2, 'path': 'rotation'}},
                      {'sampler': 2, 'target': {'node': 3, 'path': 'rotation'}},
                      {'sampler': 3, 'target': {'node': 4, 'path': 'weights'}},
                      {'sampler': 4, 'target': {'node': 6, 'path': 'translation'}}]},
        {'name': 'Idle',
         'samplers': [{'input': t02, 'output': hips_r}],
         'channels': [{'sampler': 0, 'target': {'node': 1, 'path': 'rotation'}}]},
    ]
    doc = {
        'asset': {'version': '2.0', 'generator': 'tests/data/gltf/make-gltf.py (Blender-style)'},
        'scene': 0,
        'scenes': [{'nodes': [0, 6]}],
        'nodes': nodes,
        'meshes': meshes,
        'skins': skins,
        'animations': animations,
        'buffers': [{'byteLength': len(b.data)}],
        'bufferViews': b.views,
        'accessors': b.accessors,
    }
    return doc, bytes(b.data)


def main():
    doc, data = document()
    doc['buffers'][0]['uri'] = 'blender-style.bin'
    with open(os.path.join(HERE, 'blender-style.gltf'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    with open(os.path.join(HERE, 'blender-style.bin'), 'wb') as f:
        f.write(data)
    del doc['buffers'][0]['uri']
    js = json.dumps(doc, separators=(',', ':')).encode()
    js += b' ' * (-len(js) % 4)
    bin_ = data + b'\0' * (-len(data) % 4)
    total = 12 + 8 + len(js) + 8 + len(bin_)
    with open(os.path.join(HERE, 'blender-style.glb'), 'wb') as f:
        f.write(struct.pack('<4sII', b'glTF', 2, total))
        f.write(struct.pack('<I4s', len(js), b'JSON') + js)
        f.write(struct.pack('<I4s', len(bin_), b'BIN\0') + bin_)


if __name__ == '__main__':
    main()
