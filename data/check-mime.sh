#!/bin/sh
# check-mime.sh MIME-XML: builds a private shared-mime-info database from
# MIME-XML in a temporary folder and checks, through GIO, that binary and text
# SEQ, Second Life .anim, BVH, DirectX .x and the Sims' files get Sequin's MIME types. Nothing outside the temporary folder is
# read for the new types or written. Exits 77 (skip) without the tools.
set -eu

xml=${1:?usage: check-mime.sh MIME-XML}
command -v update-mime-database >/dev/null 2>&1 || { echo "update-mime-database not found: skipped"; exit 77; }
command -v gio >/dev/null 2>&1 || { echo "gio not found: skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir -p "$tmp/data/mime/packages" "$tmp/files"
cp "$xml" "$tmp/data/mime/packages/"

# The private database comes first; the system one supplies text/plain and friends.
XDG_DATA_HOME="$tmp/data"
XDG_DATA_DIRS="${SEQUIN_SYSTEM_DATA_DIRS:-/usr/local/share:/usr/share}"
GIO_USE_VFS=local
export XDG_DATA_HOME XDG_DATA_DIRS GIO_USE_VFS

update-mime-database "$tmp/data/mime"

printf '\177\177\177\171\000\036\000\000\000\001' > "$tmp/files/wave.seq"
printf '\177\177\177\172\000\036\000\000\000\001' > "$tmp/files/dance.seq"
printf '\177\177\177\171\000\036\000\000\000\001' > "$tmp/files/binary-no-extension"
printf 'AWSQ Version=1 Limbs=1 Duration=1000\r\npelvis 2\r\n0 0 0 1 0\r\n1000 0 0 1 0\r\n' > "$tmp/files/walk.seq"
printf 'awsq version=1 limbs=0 duration=33\r\n' > "$tmp/files/lower.seq"
printf 'AWSQ Version=1 Limbs=0 Duration=33\r\n' > "$tmp/files/text-no-extension"
# .anim: no signature to go by (version 1.0 is 01 00 00 00), the name decides
printf '\001\000\000\000\004\000\000\000\000\000\200?\000' > "$tmp/files/wave.anim"
printf 'HIERARCHY\nROOT hip\n{\n\tOFFSET 0 0 0\n\tCHANNELS 3 Xrotation Yrotation Zrotation\n\tEnd Site\n\t{\n\t\tOFFSET 0 1 0\n\t}\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n' > "$tmp/files/pose.bvh"
printf 'HIERARCHY\r\nROOT Hips\r\n{\r\n}\r\n' > "$tmp/files/bvh-no-extension"
printf 'xof 0303txt 0032\r\nAnimTicksPerSecond {\r\n 30;\r\n}\r\n' > "$tmp/files/walk.x"
printf 'xof 0302txt 0064\nAnimationSet wave {\n}\n' > "$tmp/files/dx-no-extension"
printf '// Character File. Copyright 1997, Maxis Inc.\r\nversion 300\r\n0\r\n0\r\n0\r\n' > "$tmp/files/skill.cmx"
printf '\377\000\000\000\000\376\001\000' > "$tmp/files/xskill-a.cfp"
printf 'POSELIBRARY 0\r\n' > "$tmp/files/poses.psl"
printf 'POSELIBRARY2 0 0\n' > "$tmp/files/psl-no-extension"
printf 'KeyFrame 0 1 1\r\ns\r\ne\r\n' > "$tmp/files/nod.kfd"
printf 'SimPoseSPS 1\r\n|Start\r\n|End\r\n' > "$tmp/files/seq.sps"

failures=0
expect () {
  got=$(gio info -a standard::content-type "$tmp/files/$1" | sed -n 's/^ *standard::content-type: *//p')
  if [ "$got" = "$2" ]; then
    echo "ok: $1 is $got"
  else
    echo "FAIL: $1 is '$got', expected $2"
    failures=$((failures + 1))
  fi
}

expect wave.seq application/x-activeworlds-seq
expect dance.seq application/x-activeworlds-seq
expect binary-no-extension application/x-activeworlds-seq
expect walk.seq text/x-activeworlds-seq
expect lower.seq text/x-activeworlds-seq
expect text-no-extension text/x-activeworlds-seq
expect wave.anim application/x-secondlife-animation
expect pose.bvh application/x-bvh
expect bvh-no-extension application/x-bvh
expect walk.x text/x-directx-animation
expect dx-no-extension text/x-directx-animation
expect skill.cmx text/x-sims-cmx
expect xskill-a.cfp application/x-sims-cfp
expect poses.psl text/x-simpose-psl
expect psl-no-extension text/x-simpose-psl
expect nod.kfd text/x-simpose-kfd
expect seq.sps text/x-simpose-sps

[ "$failures" -eq 0 ]
