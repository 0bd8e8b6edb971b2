// The CPU players' thinking, off the page's thread (a module worker started by cpu.js): the same
// engine as the page's, instantiated from the module the page compiled (or, if it hands none,
// loaded here from `/engine.wasm`, which the service worker keeps for offline play); answers each
// request in the order asked. The `expert` CPU's network is fetched the first time an expert
// plays or a game is analysed; a game's analysis runs in the engine built with it,
// `/analysis.wasm`, loaded the first time one is asked for (kept for offline use from then on).
//
// In:  `{module}` first (a `WebAssembly.Module`, or null), then `{id, choose: {position, level,
//      seed}}`, or `{id, analyse: {record, chunk}}` (a game's analysis, `chunk` actions at a time:
//      100 unless given).
// Out: `{id, ok: choice}` (what `Engine.bot` answers), or `{id, error: {message, code, params,
//      option}}` (what it refused, as `EngineError` carries it); `{failed: message}` once, if the
//      engine cannot be loaded here (the page then chooses on its own thread). An analysis first
//      answers `{id, progress: {done, total, part}}` after each chunk (`part`: what
//      `analyse` in analysis.js answers for those actions, for a chart drawn as it comes), then
//      `{id, ok: analysis}`, the whole game's, with its turning points and costly moves.

import { expertNetwork, loadEngine, networkUrl } from './engine.js';
import { analyse } from './analysis.js';

/** The engine, loaded from the first message. */
let engine = null;
/** The engine with a game's analysis, loaded when a game is first analysed. */
let analyser = null;
/**
 * The bytes of the `expert` CPU's networks by name, each fetched from `/expert/<name>.bin` when an
 * expert first plays a game of its kind or one is first analysed (300 KB that no other game
 * needs), and installed in each engine that needs it; a network that cannot be had (offline
 * before it was ever fetched) is said once in the console: the expert then plays as `hard`, and
 * an analysis answers `no_network`.
 */
const networks = new Map();
/** The names of the networks installed, by engine. */
const installed = new WeakMap();
let warned = false;

/** Installs in `loaded` the network for a game of `rules` with `seats` seats, if there is one. */
async function installExpert(loaded, rules, seats) {
  const name = expertNetwork(rules, seats);
  if (!name) return;
  const url = networkUrl(name);
  if (!networks.has(name)) {
    networks.set(name, fetch(url).then((response) => {
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return response.arrayBuffer();
    }));
  }
  try {
    const bytes = await networks.get(name);
    if (!installed.has(loaded)) installed.set(loaded, new Set());
    if (!installed.get(loaded).has(name)) loaded.installExpert(bytes);
    installed.get(loaded).add(name);
  } catch (error) {
    if (!warned) console.warn(`the expert CPU plays as hard: ${error?.message ?? error}`);
    warned = true;
  }
}

/**
 * The analysis of `record`, its progress posted chunk by chunk first. The whole game's analysis
 * is then asked for in one call: only it has the turning points and costly moves (a whole game
 * takes tens of milliseconds, so asking twice costs little).
 */
function analysed(loaded, id, { record, chunk = 100 }) {
  const total = record.actions.length;
  for (let from = 0; from < total; from += chunk) {
    const part = analyse(loaded, record, from, from + chunk);
    postMessage({ id, progress: { done: Math.min(from + chunk, total), total, part } });
  }
  return analyse(loaded, record);
}

function load(module) {
  engine = loadEngine(module ?? undefined);
  engine.catch((error) => postMessage({ failed: String(error?.message ?? error) }));
  return engine;
}

/** Answers request `id` with what `work` gives, or with the error it throws. */
async function answer(id, work) {
  try {
    postMessage({ id, ok: await work() });
  } catch (error) {
    const { message = String(error), code = null, params = {}, option = null } = error ?? {};
    postMessage({ id, error: { message, code, params, option } });
  }
}

addEventListener('message', async ({ data }) => {
  if (data && 'module' in data) {
    engine ??= load(data.module);
    return;
  }
  const { id, choose, analyse } = data ?? {};
  if (id === undefined) return;
  if (analyse) {
    analyser ??= loadEngine('/analysis.wasm');
    answer(id, async () => {
      const loaded = await analyser;
      await installExpert(loaded, analyse.record.rules, analyse.record.seats.length);
      return analysed(loaded, id, analyse);
    });
    return;
  }
  if (!choose) return;
  engine ??= load();
  let loaded;
  try {
    loaded = await engine;
  } catch {
    return; // Said once, above.
  }
  if (choose.level === 'expert') await installExpert(loaded, choose.position.rules, choose.position.seats.length);
  answer(id, () => loaded.bot(choose.position, choose.level, choose.seed));
});
