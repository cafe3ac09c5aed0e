#!/usr/bin/env node
// gltf-validate.js FILE…: the Khronos glTF validator (npm gltf-validator) on
// each file; prints its errors and warnings, exits 1 when any file has an
// error, 77 when the validator is not installed (tests/run-all.sh installs
// it into tests/.npm).
//
// SPDX-License-Identifier: GPL-3.0-or-later
'use strict';
const fs = require('fs');
const path = require('path');

let validator;
for (const where of [path.join(__dirname, '.npm', 'node_modules', 'gltf-validator'), 'gltf-validator']) {
  try {
    validator = require(where);
    break;
  } catch (e) { /* the next place */ }
}
if (!validator) {
  console.log('SKIP: the gltf-validator package is not installed (npm install --prefix tests/.npm gltf-validator)');
  process.exit(77);
}

async function validate(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
      fs.readFile(path.join(path.dirname(file), decodeURIComponent(uri)), (err, data) => {
        if (err) reject(err.toString()); else resolve(new Uint8Array(data));
      });
    }),
  });
  const issues = report.issues;
  for (const m of issues.messages) {
    if (m.severity <= 1)
      console.log(`${file}: ${m.severity === 0 ? 'error' : 'warning'}: ${m.code}: ${m.message} (${m.pointer || ''})`);
  }
  return issues.numErrors;
}

(async () => {
  const files = process.argv.slice(2);
  let bad = 0;
  for (const f of files) {
    try {
      if (await validate(f) > 0) bad++;
    } catch (e) {
      console.log(`${f}: error: ${e}`);
      bad++;
    }
  }
  console.log(`${files.length - bad} passed, ${bad} failed`);
  process.exit(bad > 0 ? 1 : 0);
})();
