// The rules engine and the CPU players, compiled to WebAssembly from the same Rust code the
// server runs. JSON goes in and out; no rule is decided in JavaScript.

const OPS = { new: 1, roll: 2, legal: 3, move: 4, bot: 5, verify: 6, dice: 7, board: 8, options: 9, rules: 10, expert: 11, whyNoMove: 12 };

/**
 * An error the engine answered with: an illegal action, a position that cannot occur, or rules
 * whose options contradict each other. `message` is English, for logs; `code` names the kind of
 * error and `params` the values it speaks of (a seat, a piece, the field at fault…), and for a
 * contradiction between options `option` names the one at fault, for the page to say it in the
 * reader's words (`errorText` in texts-errors.js).
 */
export class EngineError extends Error {
  constructor(message, code = null, params = {}, option = null) {
    super(message);
    this.code = code;
    this.params = params;
    this.option = option;
  }
}

/**
 * Loads the engine. `source` is a URL (default `/engine.wasm`), the module's bytes, or a module
 * already compiled (an engine's `module`, handed to a worker so that it compiles nothing).
 * @returns {Promise<Engine>}
 */
export async function loadEngine(source = '/engine.wasm') {
  if (source instanceof WebAssembly.Module) {
    return new Engine((await WebAssembly.instantiate(source, {})).exports, source);
  }
  const { instance, module } =
    typeof source === 'string'
      ? await WebAssembly.instantiateStreaming(fetch(source), {})
      : await WebAssembly.instantiate(source, {});
  return new Engine(instance.exports, module);
}

export class Engine {
  constructor(exports, module) {
    this.exports = exports;
    /** The compiled module, which a worker can be handed. */
    this.module = module;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  /** Runs `op` on `request` (JSON; bytes as they are, for the expert's network). */
  call(op, request) {
    const bytes = request instanceof Uint8Array ? request : this.encoder.encode(JSON.stringify(request));
    const at = this.exports.input(bytes.length);
    new Uint8Array(this.exports.memory.buffer, at, bytes.length).set(bytes);
    const length = this.exports.call(op);
    const out = new Uint8Array(this.exports.memory.buffer, this.exports.output(), length);
    const answer = JSON.parse(this.decoder.decode(out));
    if ('error' in answer) throw new EngineError(answer.error, answer.code, answer.params, answer.option);
    return answer.ok;
  }

  /** Checks rules (a preset name or object): the rules as written, or an `EngineError` with a code. */
  checkRules(rules) {
    return this.call(OPS.rules, rules);
  }

  /** The starting position for these rules (a preset name or object) and seats. */
  newGame(rules, seats) {
    return this.call(OPS.new, { rules, seats });
  }

  /** The position after a throw (one or two dice, 1 to 6). */
  roll(position, dice) {
    return this.call(OPS.roll, { position, dice });
  }

  /** How many dice the seat to act throws now (one in a roll-off). */
  diceToThrow(position) {
    return this.call(OPS.dice, position);
  }

  /**
   * The board's numbers, for drawing: kind, arms, squares an arm, track length, door, last
   * progress, each arm's start square, safe squares, the lowest finished progress, seats' arms.
   */
  board(position) {
    return this.call(OPS.board, position);
  }

  /** Every option in force in a position's game, and the preset it starts from. */
  options(position) {
    return this.call(OPS.options, position);
  }

  /** The legal moves of a position in phase move. */
  legal(position) {
    return this.call(OPS.legal, position);
  }

  /**
   * Why throwing `dice` in `position` (the position the throw was made in) gives the pieces of
   * the seat to act no move, as the engine's own checks refuse them:
   * `{forfeit, pieces: [{piece, reason, ...values}]}`, one entry for each piece that cannot move
   * (a piece left out can). `forfeit` is true when the throw itself ends the turn (the third 6 in
   * a row), and then no piece is listed. The reasons: `in_base` (the throw brings no piece out;
   * `exit_values` and `exit_on_double` say what does), `finished`, `exact_count` (`needs`: the
   * exact count that would finish it), `blockade` (an opponent blockade on its way or where it
   * would land), `in_the_way` (a piece it may not pass), `own_piece` (it would land on its own).
   */
  whyNoMove(position, dice) {
    return this.call(OPS.whyNoMove, { position, dice });
  }

  /** `{position, move}` after moving `piece`. */
  move(position, piece) {
    return this.call(OPS.move, { position, piece });
  }

  /** The move a CPU player of `level` chooses. */
  bot(position, level, seed) {
    return this.call(OPS.bot, { position, level, seed });
  }

  /**
   * Hands the `expert` CPU a network (the bytes of one of `/expert/<name>.bin`, which says what
   * game it is for); until then an expert plays that game as `hard` would.
   */
  installExpert(bytes) {
    return this.call(OPS.expert, new Uint8Array(bytes));
  }

  /** Checks a finished game's record: its seed against the commitment, and every throw. */
  verify(record) {
    return this.call(OPS.verify, record);
  }
}

// Which games the `expert` CPU has a value network for, and where the page fetches it: one per
// preset, number of seats and board (the cross, or one arm per seat), without house rules
// (docs/cpu-players.md). Elsewhere `expert` is not offered.

/** The games with a network, as `<preset>-<seats>`, with `-by_players` on a board of one arm per seat. */
const TRAINED = new Set([
  'qdan-4', 'qdan-2', 'qdan-3', 'classic-2', 'classic-3', 'classic-4', 'vietnamese-2',
  'qdan-2-by_players', 'qdan-3-by_players', 'classic-2-by_players', 'classic-3-by_players'
]);

/**
 * The name of the network `expert` plays a game of `rules` (a preset's name, or `{preset, ...}`
 * with any house rule changed) with `seats` seats with, or null where there is none. The layout
 * is no house rule here: one arm per seat is a board of its own, and with four seats the cross.
 */
export function expertNetwork(rules, seats) {
  const { preset, layout = 'cross', ...changes } = typeof rules === 'string' ? { preset: rules } : rules ?? {};
  const board = layout === 'by_players' && seats !== 4 ? '-by_players' : '';
  const name = `${preset}-${seats}${board}`;
  return !Object.keys(changes).length && TRAINED.has(name) ? name : null;
}

/** Where the network `name` is served. */
export function networkUrl(name) {
  return `/expert/${name}.bin`;
}
