// bench/peer-aw-sequence-parser.mjs: times the npm package aw-sequence-parser
// (the only other binary SEQ reader that runs here) on the files given.
// Prints "file MB/s" lines, median of RUNS runs (env, default 3).
// SPDX-License-Identifier: GPL-3.0-or-later
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseBinarySequence } from 'aw-sequence-parser';

const runs = Number(process.env.RUNS || 3);
for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(readFileSync(file));
  const times = [];
  for (let r = 0; r < runs; r++) {
    let n = 0;
    const start = process.hrtime.bigint();
    let now;
    do {
      await parseBinarySequence(bytes);
      n++;
      now = process.hrtime.bigint();
    } while (now - start < 50_000_000n);
    times.push(Number(now - start) / 1e9 / n);
  }
  times.sort((a, b) => a - b);
  const t = times[Math.floor(runs / 2)];
  console.log(`${basename(file)} ${(bytes.length / 1e6 / t).toFixed(1)}`);
}
