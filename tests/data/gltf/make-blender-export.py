"""Makes blender-export.glb and blender-export.json with Blender (run headless):

  blender -b --factory-startup --python make-blender-export.py -- OUT_DIR

An armature as a character is rigged in Blender (Mixamo's joint names
without the prefix): its bones point along the limbs, so each joint has a
rest rotation in glTF, and the arms have a roll. A 1 s action at 24 frames a
second raises the left arm, bends the left elbow, turns the spine and the
head and moves the hips forward; Blender's own glTF exporter (defaults, +Y
up) writes it as blender-export.glb. blender-export.json holds, for frames 0,
6, 12, 18 and 24, where Blender puts each bone's head (world space, Blender's
axes: +Z up, the character facing -Y), the ground truth the tests compare
Sequin's reading with.
SPDX-License-Identifier: GPL-3.0-or-later
"""
import json
import math
import os
import sys

import bpy
import numpy

if not hasattr(numpy, 'bool'):     # Debian 12's Blender 3.4 with numpy 1.24
    numpy.bool = bool

out_dir = sys.argv[sys.argv.index('--') + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start, scene.frame_end = 0, 24

arm_data = bpy.data.armatures.new('Armature')
arm = bpy.data.objects.new('Armature', arm_data)
scene.collection.objects.link(arm)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode='EDIT')
# name: (parent, head, tail, roll in degrees); metres, +Z up, facing -Y
BONES = {
    'Hips': (None, (0, 0, 1.0), (0, 0, 1.1), 0),
    'Spine': ('Hips', (0, 0, 1.1), (0, 0.02, 1.3), 0),
    'Chest': ('Spine', (0, 0.02, 1.3), (0, 0, 1.45), 0),
    'Neck': ('Chest', (0, 0, 1.45), (0, -0.02, 1.55), 0),
    'Head': ('Neck', (0, -0.02, 1.55), (0, -0.02, 1.75), 0),
    'LeftShoulder': ('Chest', (0.04, 0, 1.42), (0.18, 0, 1.42), 30),
    'LeftArm': ('LeftShoulder', (0.18, 0, 1.42), (0.45, 0, 1.42), 45),
    'LeftForeArm': ('LeftArm', (0.45, 0, 1.42), (0.70, -0.02, 1.42), -20),
    'LeftHand': ('LeftForeArm', (0.70, -0.02, 1.42), (0.80, -0.02, 1.42), 10),
    'RightShoulder': ('Chest', (-0.04, 0, 1.42), (-0.18, 0, 1.42), -30),
    'RightArm': ('RightShoulder', (-0.18, 0, 1.42), (-0.45, 0, 1.42), -45),
    'RightForeArm': ('RightArm', (-0.45, 0, 1.42), (-0.70, -0.02, 1.42), 20),
    'RightHand': ('RightForeArm', (-0.70, -0.02, 1.42), (-0.80, -0.02, 1.42), -10),
    'LeftUpLeg': ('Hips', (0.1, 0, 0.95), (0.1, 0.01, 0.52), 0),
    'LeftLeg': ('LeftUpLeg', (0.1, 0.01, 0.52), (0.1, 0.03, 0.1), 0),
    'LeftFoot': ('LeftLeg', (0.1, 0.03, 0.1), (0.1, -0.1, 0.02), 0),
    'RightUpLeg': ('Hips', (-0.1, 0, 0.95), (-0.1, 0.01, 0.52), 0),
    'RightLeg': ('RightUpLeg', (-0.1, 0.01, 0.52), (-0.1, 0.03, 0.1), 0),
    'RightFoot': ('RightLeg', (-0.1, 0.03, 0.1), (-0.1, -0.1, 0.02), 0),
}
for name, (parent, head, tail, roll) in BONES.items():
    b = arm_data.edit_bones.new(name)
    b.head, b.tail, b.roll = head, tail, math.radians(roll)
    if parent:
        b.parent = arm_data.edit_bones[parent]
        b.use_connect = False
bpy.ops.object.mode_set(mode='POSE')


def key(name, frame, euler=None, loc=None):
    pb = arm.pose.bones[name]
    pb.rotation_mode = 'QUATERNION'
    if euler is not None:
        pb.rotation_quaternion = __import__('mathutils').Euler([math.radians(a) for a in euler]).to_quaternion()
        pb.keyframe_insert('rotation_quaternion', frame=frame)
    if loc is not None:
        pb.location = loc
        pb.keyframe_insert('location', frame=frame)


# bone-local turns (each bone's own axes: Y along the bone)
for f, (arm_up, elbow, spine, head, hips) in {0: (0, 0, 0, 0, 0), 12: (40, 70, 15, -20, 0.1),
                                              24: (70, 30, -10, 25, 0.25)}.items():
    key('LeftArm', f, euler=(arm_up, 10, 0))
    key('LeftForeArm', f, euler=(0, 0, elbow))
    key('Spine', f, euler=(0, spine, 0))
    key('Head', f, euler=(head, 0, 0))
    key('Hips', f, loc=(0, hips, 0))
bpy.ops.object.mode_set(mode='OBJECT')

truth = {}
for f in (0, 6, 12, 18, 24):
    scene.frame_set(f)
    bpy.context.view_layer.update()
    truth[str(f / 24)] = {pb.name: list(arm.matrix_world @ pb.head) for pb in arm.pose.bones}
bpy.ops.export_scene.gltf(filepath=os.path.join(out_dir, 'blender-export.glb'), export_format='GLB')
with open(os.path.join(out_dir, 'blender-export.json'), 'w') as f:
    json.dump({'fps': 24, 'heads': truth}, f, indent=1, sort_keys=True)
