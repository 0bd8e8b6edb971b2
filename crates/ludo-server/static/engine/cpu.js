// The CPU players' choices, and finished games' analyses, made in a worker (cpu-worker.js) so that
// the page stays responsive while one thinks (loaded by local.js with the first CPU move, and by
// the analysis under a replay, so the first load stays small).
// Every request carries an id; one given up (its `signal` aborted: the game was
// left, restarted or has moved on) is forgotten, and its answer, when it comes, is dropped. A
// worker that cannot be had (it does not load, or cannot load the engine) is said in the console
// once, and the page's own engine chooses from then on: slower to the eye, but the game plays.
//
// For tests and profiles, each choice leaves a User Timing mark: `ludo.cpu.worker` (the worker
// chose), `ludo.cpu.page` (the page's thread did) or `ludo.cpu.stale` (an answer was dropped).

import { EngineError, expertNetwork, loadEngine, networkUrl } from './engine.js';

/** The worker, once started; null before, or once it failed. */
let worker = null;
/** Why the worker could not be had, once it could not: the page's thread chooses. */
let failure = null;
let lastId = 0;
/** Requests the worker has not answered yet, by id: `{resolve, reject, ask}`. */
const waiting = new Map();

/**
 * The worker, started at the first request and handed the page's compiled engine (so that it
 * fetches and compiles nothing); null once it failed.
 */
function theWorker(engine) {
  if (worker || failure) return worker;
  try {
    worker = new Worker(new URL('./cpu-worker.js', import.meta.url), { type: 'module', name: 'cpu' });
  } catch (error) {
    giveUp(error?.message ?? String(error));
    return null;
  }
  worker.addEventListener('message', ({ data }) => answered(data));
  // A script that does not load (or throws) says no more than that.
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    giveUp(event.message || 'cpu-worker.js did not load');
  });
  // Without it (an engine given as bytes), the worker loads `/engine.wasm` itself.
  worker.postMessage({ module: engine.module ?? null });
  return worker;
}

/** The worker failed: said once, and what it had not answered is chosen on the page's thread. */
function giveUp(why) {
  if (failure) return;
  failure = why;
  console.warn(`CPU players choose on the page's thread: their worker failed (${why})`);
  worker?.terminate();
  worker = null;
  const left = [...waiting.values()];
  waiting.clear();
  for (const request of left) request.ask();
}

/** What the worker answered: a choice, an error, or that it cannot load the engine. */
function answered(data) {
  if (data?.failed !== undefined) {
    giveUp(data.failed);
    return;
  }
  const request = waiting.get(data?.id);
  if (!request) {
    performance.mark('ludo.cpu.stale', { detail: { id: data?.id } });
    return;
  }
  if (data.progress) {
    request.onProgress?.(data.progress.done, data.progress.total);
    return;
  }
  waiting.delete(data.id);
  if ('ok' in data) {
    performance.mark('ludo.cpu.worker', { detail: { id: data.id } });
    request.resolve(data.ok);
  } else {
    const { message, code, params, option } = data.error;
    request.reject(new EngineError(message, code, params, option));
  }
}

/**
 * The move a CPU player of `level` chooses in `position` (what `Engine.bot` answers), thought in
 * the worker; by `engine`, on the page's thread, when the worker cannot be had. Rejects with the
 * `EngineError` the engine answered with, or with an `AbortError` once `signal` is aborted (its
 * answer, coming later, is then dropped).
 * @param {import('./engine.js').Engine} engine the page's engine
 * @param {AbortSignal} [signal]
 * @returns {Promise<{piece: number}>}
 */
export function choose(engine, position, level, seed, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const id = ++lastId;
    // On the page's thread: the way without a worker.
    const ask = () => {
      signal?.removeEventListener('abort', abort);
      try {
        const choice = engine.bot(position, level, seed);
        performance.mark('ludo.cpu.page', { detail: { id } });
        resolve(choice);
      } catch (error) {
        reject(error);
      }
    };
    const abort = () => {
      waiting.delete(id);
      reject(signal.reason);
    };
    const thinker = theWorker(engine);
    if (!thinker) {
      ask();
      return;
    }
    signal?.addEventListener('abort', abort, { once: true });
    const done = (settle) => (value) => {
      signal?.removeEventListener('abort', abort);
      settle(value);
    };
    waiting.set(id, { resolve: done(resolve), reject: done(reject), ask });
    thinker.postMessage({ id, choose: { position, level, seed } });
  });
}

/**
 * The analysis of the finished game `record` (what `analyse` in analysis.js answers for the whole game),
 * made in the worker by the engine built with it (`/analysis.wasm`) and the `expert` CPU's
 * network, both fetched the first time; `onProgress(done, total)` is told after each chunk of
 * actions. Without a worker, the page's thread loads them and makes it at once. Rejects with the `EngineError` the engine answered with (code
 * `analysis_unavailable` for a game the network does not know).
 */
export function analyse(engine, record, onProgress = () => {}) {
  return new Promise((resolve, reject) => {
    const id = ++lastId;
    const ask = async () => {
      try {
        // A game without a network is left to the analyser, which says so.
        const network = expertNetwork(record.rules, record.seats.length);
        const [analyser, bytes, { analyse: analysed }] = await Promise.all([loadEngine('/analysis.wasm'),
          network && fetch(networkUrl(network)).then((r) => r.arrayBuffer()), import('./analysis.js')]);
        if (bytes) analyser.installExpert(bytes);
        resolve(analysed(analyser, record));
      } catch (error) {
        reject(error);
      }
    };
    const thinker = theWorker(engine);
    if (!thinker) {
      ask();
      return;
    }
    waiting.set(id, { resolve, reject, ask, onProgress });
    thinker.postMessage({ id, analyse: { record: { rules: record.rules, seats: record.seats, actions: record.actions } } });
  });
}
