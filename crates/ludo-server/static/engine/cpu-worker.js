// The CPU players' thinking, off the page's thread (a module worker started by cpu.js): the same
// engine as the page's, instantiated from the module the page compiled (or, if it hands none,
// loaded here from `/engine.wasm`, which the service worker keeps for offline play); answers each
// request in the order asked. The `expert` CPU's network is fetched the first time an expert
// plays.
//
// In:  `{module}` first (a `WebAssembly.Module`, or null), then `{id, choose: {position, level,
//      seed}}`.
// Out: `{id, ok: choice}` (what `Engine.bot` answers), or `{id, error: {message, code, params,
//      option}}` (what it refused, as `EngineError` carries it); `{failed: message}` once, if the
//      engine cannot be loaded here (the page then chooses on its own thread).

import { loadEngine } from './engine.js';

/** The engine, loaded from the first message. */
let engine = null;
/**
 * The `expert` CPU's network, fetched from `/expert.bin` when an expert first plays (300 KB that
 * no other game needs) and installed in the engine; a network that cannot be had (offline
 * before it was ever fetched) is said once in the console, and the expert then plays as `hard`.
 */
let expert = null;

function installExpert(loaded) {
  expert ??= fetch('/expert.bin')
    .then((response) => {
      if (!response.ok) throw new Error(`/expert.bin: ${response.status}`);
      return response.arrayBuffer();
    })
    .then((bytes) => loaded.installExpert(bytes))
    .catch((error) => console.warn(`the expert CPU plays as hard: ${error?.message ?? error}`));
  return expert;
}

function load(module) {
  engine = loadEngine(module ?? undefined);
  engine.catch((error) => postMessage({ failed: String(error?.message ?? error) }));
  return engine;
}

addEventListener('message', async ({ data }) => {
  if (data && 'module' in data) {
    engine ??= load(data.module);
    return;
  }
  const { id, choose } = data ?? {};
  if (id === undefined || !choose) return;
  engine ??= load();
  let loaded;
  try {
    loaded = await engine;
  } catch {
    return; // Said once, above.
  }
  if (choose.level === 'expert') await installExpert(loaded);
  try {
    postMessage({ id, ok: loaded.bot(choose.position, choose.level, choose.seed) });
  } catch (error) {
    const { message = String(error), code = null, params = {}, option = null } = error ?? {};
    postMessage({ id, error: { message, code, params, option } });
  }
});
