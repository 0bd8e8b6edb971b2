// The browser's engine module, answering over standard input and output for a test written in
// Rust: each line in is `{"method": "roll", "args": [position, [6]]}` (any method of `Engine`),
// each line out is `{"ok": answer}`, `{"refused": {message, code, params, option}}` when the
// engine answered an `EngineError`, or `{"broken": "…"}` for anything else (a method the module
// lacks, an exception that is not the engine's), which the Rust side treats as a failure.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadEngine, EngineError } from '../../static/engine/engine.js';

const engine = await loadEngine(readFileSync(process.env.LUDO_WASM));

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  let answer;
  try {
    const { method, args } = JSON.parse(line);
    if (typeof engine[method] !== 'function' || method === 'call') {
      throw new TypeError(`the engine module has no method ${JSON.stringify(method)}`);
    }
    answer = { ok: engine[method](...args) };
  } catch (error) {
    answer = error instanceof EngineError
      ? { refused: { message: error.message, code: error.code, params: error.params, option: error.option } }
      : { broken: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
