#!/usr/bin/env python3
# check-world-homes.py: a reading of src/ that fails when a world's
# knowledge leaks out of its home
#
# Usage: check-world-homes.py SRC_DIR
#
# Each world's joints, limits and format ids belong in its home
# (src/core/worlds/) and its formats' files (src/core/formats/); the core
# reaches a world only through the world interface (sq-world.h), the UI and
# the command line reach a world's fields and edits only through the field
# descriptors and the edit table. This script reads every other file under
# SRC_DIR, comments left out, and fails on:
#
#   names    a string naming a format id, or a joint name of a world
#            (Second Life's mPelvis…, ActiveWorlds' lfshoulder…, the Sims'
#            L_ARM…)
#   limits   a world's constant (SQ_SL_…, SQ_AW_…, SQ_SIMS_…, SQ_BVH_…)
#   edits    the UI or the command line calling a world's own edit
#            constructor (sq_edit_sl_…_new, sq_edit_sims_…_new)
#   includes a circle of headers including each other; a core file outside
#            the homes including a home's header (the registries apart); a
#            world calling the converter back (sq_convert)
#   worlds   a world's home naming another world's format (_sq_format_…):
#            a world reaches another only through the converter
#
# What must remain is allowed below, per file and check, with its reason.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import os
import re
import sys

# (file relative to SRC_DIR, check) → reason
ALLOWED = {
    ('core/sq-format-registry.c', 'includes'): 'the one list of formats names each format',
    ('core/sq-world.c', 'includes'): 'the one list of worlds names each home',
    ('core/sq-core.h', 'includes'): 'the core\'s umbrella header offers the worlds\' public API',
    ('core/sq-fields.h', 'includes'): 'the field getters\' header includes Second Life\'s fields for its users',
    ('cli/sequin-cli.c', 'names'): 'convert\'s help names example joints (byte-identical help)',
    ('cli/sequin-cli-edit.c', 'limits'): 'the constraint options\' help quotes Second Life\'s limits (byte-identical help)',
    ('cli/sequin-cli-edit.c', 'names'): 'the constraint SPEC\'s help names collision volumes (byte-identical help)',
}

HOMES = ('core/worlds/', 'core/formats/')

# a world's joint names, as whole words of a string
JOINT_WORDS = re.compile(
    r'\bm(?:Pelvis|Torso|Chest|Neck|Head|Skull|Eye|Collar|Shoulder|Elbow|Wrist|Hip|Knee|Ankle|Foot|Toe|Spine'
    r'|Hand|Face|Wing|Tail|HindLimb|Groin)[A-Za-z0-9]*\b'
    r'|\b(?:aw_)?(?:lf|rt)(?:shoulder|elbow|wrist|hand|hip|knee|ankle|foot|collar|thigh|shin|forearm|toe)\b'
    r'|\b[LR]_(?:ARM|LEG|FOOT|TOE|HAND|FINGER)[0-9]*\b')
LIMITS = re.compile(r'\bSQ_(?:SL|AW|SIMS|BVH|DX)_[A-Z0-9_]+\b')
WORLD_EDITS = re.compile(r'\bsq_edit_(?:sl|sims|aw|dx|bvh)_[a-z0-9_]+_new\b')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def strip_comments(text):
    """The text with its comments blanked; strings kept"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def strings_of(code):
    return re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)


def format_ids(src):
    ids = set()
    folder = os.path.join(src, 'core', 'formats')
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), encoding='utf-8') as f:
            ids.update(re.findall(r'\.id\s*=\s*"([^"]+)"', f.read()))
    if len(ids) < 9:
        sys.exit('check-world-homes: found only %d format ids in %s' % (len(ids), folder))
    return ids


def format_worlds(src):
    """format symbol → the world variable its file gives it"""
    worlds = {}
    folder = os.path.join(src, 'core', 'formats')
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), encoding='utf-8') as f:
            text = f.read()
        for m in re.finditer(r'const SqFormat (_sq_format_\w+) = \{(.*?)\n\};', text, re.S):
            w = re.search(r'\.world\s*=\s*&(sq_world_\w+)', m.group(2))
            if w:
                worlds[m.group(1)] = w.group(1)
    return worlds


# a home's file by its name: the world it belongs to
HOME_PREFIXES = (('sq-world-sl', 'sq_world_sl'), ('sq-sl-', 'sq_world_sl'),
                 ('sq-world-aw', 'sq_world_aw'), ('sq-aw-', 'sq_world_aw'),
                 ('sq-world-sims', 'sq_world_sims'), ('sq-sims-', 'sq_world_sims'))


def foreign_formats(rel, code, worlds):
    """(check, line, message) of a world's home naming another's format"""
    base = os.path.basename(rel)
    own = next((w for prefix, w in HOME_PREFIXES if base.startswith(prefix)), None)
    if own is None:
        return []
    found = []
    for lineno, line in enumerate(code.split('\n'), 1):
        for m in re.finditer(r'\b_sq_format_\w+\b', line):
            world = worlds.get(m.group(0))
            if world is not None and world != own:
                found.append(('worlds', lineno, 'names %s, a format of %s' % (m.group(0), world)))
    return found


def header_cycles(src, headers):
    """Circles of headers including each other"""
    edges = {}
    for rel, text in headers.items():
        here = os.path.dirname(rel)
        for inc in INCLUDE.findall(text):
            for cand in (os.path.normpath(os.path.join(here, inc)), os.path.join('core', inc)):
                if cand in headers:
                    edges.setdefault(rel, set()).add(cand)
                    break
    cycles, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(headers):
        if node not in state:
            visit(node, [node])
    return cycles


def problems_of(rel, code, ids):
    """(check, line, message) of one file outside the homes"""
    found = []
    for lineno, line in enumerate(code.split('\n'), 1):
        for s in strings_of(line):
            if s in ids:
                found.append(('names', lineno, 'format id "%s"' % s))
            for m in JOINT_WORDS.finditer(s):
                found.append(('names', lineno, 'joint name "%s"' % m.group(0)))
        for m in LIMITS.finditer(line):
            found.append(('limits', lineno, m.group(0)))
        if rel.startswith(('ui/', 'cli/')):
            for m in WORLD_EDITS.finditer(line):
                found.append(('edits', lineno, 'a world\'s edit constructor %s' % m.group(0)))
        if rel.startswith('core/'):
            for inc in INCLUDE.findall(line):
                if inc.startswith(('worlds/', 'formats/')):
                    found.append(('includes', lineno, 'includes a home\'s header "%s"' % inc))
    return found


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: check-world-homes.py SRC_DIR')
    src = sys.argv[1]
    ids = format_ids(src)
    worlds = format_worlds(src)
    if len(worlds) < 9:
        sys.exit('check-world-homes: found only %d formats with a world' % len(worlds))
    texts = {}
    for folder, _, names in os.walk(src):
        for name in names:
            if name.endswith(('.c', '.h')):
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8') as f:
                    texts[os.path.relpath(path, src)] = strip_comments(f.read())
    if len(texts) < 50:
        sys.exit('check-world-homes: only %d source files under %s' % (len(texts), src))
    bad, used = [], set()
    for rel in sorted(texts):
        if rel.startswith(HOMES):
            found = []
            if rel.startswith('core/worlds/'):
                found = foreign_formats(rel, texts[rel], worlds)
                if re.search(r'\bsq_convert\s*\(', texts[rel]):
                    found.append(('includes', 0, 'a world calls the converter back (sq_convert)'))
        else:
            found = problems_of(rel, texts[rel], ids)
        for check, lineno, message in found:
            if (rel, check) in ALLOWED:
                used.add((rel, check))
            else:
                bad.append('%s:%d: %s: %s' % (rel, lineno, check, message))
    for cycle in header_cycles(src, {r: t for r, t in texts.items() if r.endswith('.h')}):
        bad.append('include circle: %s' % ' → '.join(cycle))
    for key in sorted(set(ALLOWED) - used):
        print('note: %s (%s) is allowed but no longer needs it: tighten the list' % key)
    for line in bad:
        print(line)
    print('%d source files read, %d format ids; %d problems, %d allowed files'
          % (len(texts), len(ids), len(bad), len(used)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
