/* sq-format-gltf.h: what the glTF writer and reader share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * glTF 2.0 (Khronos): JSON (.gltf, its binary buffer in a companion .bin)
 * or GLB (.glb: a 12-byte header "glTF", version 2, length, then a JSON
 * chunk and a BIN chunk, each an 8-byte header of length and type). Axes:
 * +Y up, +Z forward, +X left, metres; rotations are quaternions x, y, z, w.
 * A clip is a skeleton of nodes with one skin (a joint per clip joint) and
 * one animation per take. What Sequin writes of the world's fields goes in
 * `extras.sequin` of each animation (fields, joint list, frame rate) so the
 * file reads back into the same clip.
 */
#pragma once

#include "sq-private.h"

G_BEGIN_DECLS

#define GLTF_MAGIC      0x46546C67u   /* "glTF" little-endian */
#define GLTF_CHUNK_JSON 0x4E4F534Au   /* "JSON" */
#define GLTF_CHUNK_BIN  0x004E4942u   /* "BIN\0" */
#define GLTF_FLOAT      5126

/* clip extras of the glTF format itself (not another format's fields) */
#define GLTF_SOURCE_FORMAT "source-format"
#define GLTF_BUFFER        "gltf-buffer"    /* a .gltf's buffer, for its other takes */
/* a joint's turn at rest in the file read (w, x, y, z; glTF's axes, from
 * the scene, not the parent): the keys are from the unturned rest, and a
 * glTF written again turns the bone back and takes the turn out of them */
#define GLTF_REST_TURN     "rest-rotation"

extern const SqSpace gltf_space;

SqClip *_sq_gltf_read (GBytes              *bytes,
                       const SqLoadOptions *options,
                       GError             **error);

/* The hierarchy extras that describe the skeleton, not fields to carry */
gboolean _sq_gltf_is_skeleton_key (const char *key);

G_END_DECLS
