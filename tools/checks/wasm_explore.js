// strided-explore.js (the explorer compiled to WebAssembly) run as the native program is run:
//   node wasm_explore.js MODULE --jsonl          answers standard input's requests, as --jsonl
//   node wasm_explore.js MODULE EXPRESSION [SVG]  the report on standard output, the error on
//                                                 standard error, the picture into SVG when given;
//                                                 exits with the native program's status
// Used by check_wasm_explore.py to compare the two byte for byte. Node's own modules only.
'use strict';
const fs = require('fs');
const path = require('path');

const [modulePath, what, svgPath] = process.argv.slice(2);
require(path.resolve(modulePath))().then((m) => {
  if (what === '--jsonl') {
    const input = fs.readFileSync(0);
    const at = m._malloc(input.length + 1);
    m.HEAPU8.set(input, at);
    const answers = m.ccall('explore_jsonl', 'number', ['number', 'number'], [at, input.length]);
    m._free(at);
    // The answers are UTF-8; read their bytes, not a JavaScript string, so nothing is re-encoded.
    let end = answers;
    while (m.HEAPU8[end] !== 0) end++;
    fs.writeSync(1, Buffer.from(m.HEAPU8.subarray(answers, end)));
    return;
  }
  const answer = JSON.parse(m.UTF8ToString(
      m.ccall('explore_expression', 'number', ['string', 'number'], [what, svgPath ? 1 : 0])));
  fs.writeSync(1, answer.stdout);
  fs.writeSync(2, answer.stderr);
  if (svgPath && answer.status === 0) fs.writeFileSync(svgPath, answer.svg);
  process.exitCode = answer.status;
});
