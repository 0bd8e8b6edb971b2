// The CPU players' thinking, off the page's thread (a module worker started by cpu.js): the same
// engine as the page's, loaded here from `/engine.wasm` (the service worker keeps it for offline
// play), answers each request in the order asked.
//
// In:  `{id, choose: {position, level, seed}}`.
// Out: `{id, ok: choice}` (what `Engine.bot` answers), or `{id, error: {message, code, params,
//      option}}` (what it refused, as `EngineError` carries it); `{failed: message}` once, if the
//      engine cannot be loaded here (the page then chooses on its own thread).

import { loadEngine } from './engine.js';

const engine = loadEngine();
engine.catch((error) => postMessage({ failed: String(error?.message ?? error) }));

addEventListener('message', async ({ data }) => {
  const { id, choose } = data ?? {};
  if (id === undefined || !choose) return;
  let loaded;
  try {
    loaded = await engine;
  } catch {
    return; // Said once, above.
  }
  try {
    postMessage({ id, ok: loaded.bot(choose.position, choose.level, choose.seed) });
  } catch (error) {
    const { message = String(error), code = null, params = {}, option = null } = error ?? {};
    postMessage({ id, error: { message, code, params, option } });
  }
});
