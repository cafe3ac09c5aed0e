#!/usr/bin/env python3
# Writes Second Life's hand presets (.pose files, README "Pose files"):
# finger bones turned about Second Life's axes (X forward, Y left, Z up;
# the bones' rest rotations are the identity, so each turn is relative to
# the parent bone). A left hand's fingers point along +Y, the palm down:
# curling is a turn about X by a negative angle; the right hand is its
# mirror image (w, -x, y, -z).
import math

FINGERS = ["Index", "Middle", "Ring", "Pinky"]
# per preset: finger curls (degrees, bone 1..3), spread (about Z), thumb curl
PRESETS = {
    "relaxed": ({"Index": (15, 20, 10), "Middle": (20, 25, 12), "Ring": (25, 28, 14), "Pinky": (30, 30, 15)},
                {"Index": -4, "Middle": 0, "Ring": 3, "Pinky": 6}, 15),
    "fist": ({f: (85, 100, 60) for f in FINGERS}, {f: 0 for f in FINGERS}, 50),
    "point": ({"Index": (0, 0, 0), "Middle": (85, 100, 60), "Ring": (85, 100, 60), "Pinky": (85, 100, 60)},
              {f: 0 for f in FINGERS}, 45),
    "open": ({f: (0, 0, 0) for f in FINGERS}, {"Index": -10, "Middle": -3, "Ring": 4, "Pinky": 12}, 0),
}
TITLES = {"relaxed": "Relaxed", "fist": "Fist", "point": "Pointing", "open": "Open, spread"}


def axis_angle(axis, degrees):
    h = math.radians(degrees) / 2
    q = [math.cos(h), 0.0, 0.0, 0.0]
    q[1 + axis] = math.sin(h)
    return q


def mul(a, b):
    return [a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
            a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
            a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
            a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0]]


def left_hand(preset):
    curls, spread, thumb = PRESETS[preset]
    out = []
    for f in FINGERS:
        for bone in range(3):
            q = axis_angle(0, -curls[f][bone])
            if bone == 0:
                q = mul(axis_angle(2, spread[f]), q)
            out.append(("mHand%s%dLeft" % (f, bone + 1), q))
    for bone in range(3):
        # the thumb folds across the palm: about Z (inwards) and X (down)
        q = mul(axis_angle(2, thumb * 0.6), axis_angle(0, -thumb * (0.5 if bone == 0 else 0.8)))
        out.append(("mHandThumb%dLeft" % (bone + 1), q))
    return out


def number(v):
    v = round(v, 12) + 0.0
    return repr(v)


for preset in PRESETS:
    for side in ("left", "right"):
        with open("hand-%s-%s.pose" % (preset, side), "w") as f:
            f.write("sequin-pose 1\n")
            f.write("name Hand: %s (%s)\n" % (TITLES[preset], side))
            f.write("world sl-anim\n")
            for name, q in left_hand(preset):
                if side == "right":
                    name = name.replace("Left", "Right")
                    q = [q[0], -q[1], q[2], -q[3]]
                f.write("rotation %s %s\n" % (" ".join(number(c) for c in q), name))
