// The CPU players' thinking, off the page's thread (a module worker started by cpu.js): the same
// engine as the page's, instantiated from the module the page compiled (or, if it hands none,
// loaded here from `/engine.wasm`, which the service worker keeps for offline play); answers each
// request in the order asked. The `expert` CPU's network is fetched the first time an expert
// plays.
//
// In:  `{module}` first (a `WebAssembly.Module`, or null), then `{id, choose: {position, level,
//      seed}}`, or `{id, analyse: {record, chunk}}` (a game's analysis, `chunk` actions at a time:
//      100 unless given).
// Out: `{id, ok: choice}` (what `Engine.bot` answers), or `{id, error: {message, code, params,
//      option}}` (what it refused, as `EngineError` carries it); `{failed: message}` once, if the
//      engine cannot be loaded here (the page then chooses on its own thread). An analysis first
//      answers `{id, progress: {done, total, part}}` after each chunk (`part`: what
//      `Engine.analyse` answers for those actions, for a chart drawn as it comes), then
//      `{id, ok: analysis}`, the whole game's, with its turning points and costly moves.

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

/**
 * The analysis of `record`, its progress posted chunk by chunk first. The whole game's analysis
 * is then asked for in one call: only it has the turning points and costly moves (a whole game
 * takes tens of milliseconds, so asking twice costs little).
 */
function analysed(loaded, id, { record, chunk = 100 }) {
  const total = record.actions.length;
  for (let from = 0; from < total; from += chunk) {
    const part = loaded.analyse(record, from, from + chunk);
    postMessage({ id, progress: { done: Math.min(from + chunk, total), total, part } });
  }
  return loaded.analyse(record);
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
  const { id, choose, analyse } = data ?? {};
  if (id === undefined || !(choose || analyse)) return;
  engine ??= load();
  let loaded;
  try {
    loaded = await engine;
  } catch {
    return; // Said once, above.
  }
  if (analyse || choose.level === 'expert') await installExpert(loaded);
  try {
    const { position, level, seed } = choose ?? {};
    postMessage({ id, ok: analyse ? analysed(loaded, id, analyse) : loaded.bot(position, level, seed) });
  } catch (error) {
    const { message = String(error), code = null, params = {}, option = null } = error ?? {};
    postMessage({ id, error: { message, code, params, option } });
  }
});
