// A game's analysis, asked of an engine loaded from `/analysis.wasm` (the page's own engine,
// `/engine.wasm`, is built without it: see `ANALYSE` in `crates/ludo-wasm/src/bridge.rs`). Loaded
// by the CPU worker, and by the page's thread only when no worker can be had.

/** The bridge's operation number for an analysis. */
const ANALYSE = 13;

/**
 * The analysis of `record` by the `expert` CPU's network (installed in `engine` first), over
 * actions `from` to `to` (the end when left out): `{chances, start, choices}`, and over the whole
 * game `turning_points`, `costly` and `summary` too. Throws the `EngineError` the engine answers
 * (`analysis_unavailable` for a game the network does not know, `no_network` before it is
 * installed).
 * @param {import('./engine.js').Engine} engine an engine loaded from `/analysis.wasm`
 */
export function analyse(engine, record, from = 0, to = undefined) {
  const { rules, seats, actions } = record;
  return engine.call(ANALYSE, { rules, seats, actions, from, to });
}
