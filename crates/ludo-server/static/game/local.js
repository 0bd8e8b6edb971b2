// A local game in the browser against CPU players, or hot-seat between people on one device:
// the engine decides everything, the page only throws the dice (from the browser's
// cryptographic generator) and hands every action to the table, which shows it. The game is
// kept in this browser (saves.js) from its start and after every action, and survives a reload.
// CPU players think in a worker (cpu.js), so the page stays responsive meanwhile.

import { Table, pace } from './table.js';
import { localName } from '../room/identity.js';
import { keep } from '../home/saves.js';
import { errorWords } from '../i18n/i18n.js';

/**
 * How long a CPU player waits before acting, once the table has shown everything (at normal
 * speed, see `pace`): `?cpu-delay=MS`.
 */
const CPU_DELAY_MS = Number(new URLSearchParams(location.search).get('cpu-delay') ?? 350);

/** A fair die from the browser's cryptographic generator (rejection keeps it unbiased). */
export function die() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte); while (byte[0] >= 252);
  return (byte[0] % 6) + 1;
}

/**
 * cpu.js (loaded with the first CPU move), or, should it not load, a stand-in that chooses on the
 * page's thread.
 */
let cpu = null;

/** The move a CPU player chooses (cpu.js's `choose`). */
function cpuChoice(...asked) {
  cpu ??= import('../engine/cpu.js').catch((error) => {
    console.warn('CPU players choose on the page\'s thread:', error);
    return { choose: async (engine, position, level, seed) => engine.bot(position, level, seed) };
  });
  return cpu.then(({ choose }) => choose(...asked));
}

export class LocalGame {
  /**
   * @param engine the WebAssembly engine
   * @param game `{position, players: {colour: 'human' | level}, log: [], rules, seats, actions}`
   * @param view the table's elements and the translator `t` (see `Table`)
   */
  constructor(engine, game, view) {
    this.engine = engine;
    this.game = game;
    this.view = view;
    this.seed = Date.now() % 1_000_000;
    /** Aborts the CPU's turn being prepared (its pause, its thinking). */
    this.thinking = null;
    const people = Object.keys(game.players).filter((seat) => game.players[seat] === 'human');
    /** The person's seat: with one person at the table the game speaks to them; in hot-seat games, to each seat. */
    this.you = people.length === 1 ? people[0] : null;
    this.table = new Table(engine, view, this.seats(), { roll: () => this.roll(), move: (piece) => this.move(piece) });
    this.table.onIdle = () => this.cpuLater();
  }

  static start(engine, rules, players, view) {
    const seats = Object.keys(players);
    const position = engine.newGame(rules, seats);
    // `touched`: whether a person has thrown or moved in it yet (saves.js).
    const game = { position, players, log: [], rules, seats, actions: [], started_at: Date.now(), touched: false };
    return new LocalGame(engine, game, view);
  }

  /**
   * A game saved in this browser, read by the engine first: an `EngineError` if it no longer reads
   * (saved by another version of the rules).
   */
  static resume(engine, saved, view) {
    engine.options(saved.position);
    return new LocalGame(engine, saved, view);
  }

  /**
   * Shows the game as it stands and lets whoever is to play act. A new game is kept from now on; a
   * game continued is kept again at its next action (so opening it alone does not make it the
   * last played).
   */
  begin() {
    this.table.reset(this.stateOf(this.position), this.game.log ?? []);
    if (!this.game.id) this.save();
  }

  /**
   * Plays this game as a lesson: `lesson.nextDie(seat, position)` gives the dice it arranges for teaching
   * (null for a fair one), and `lesson.seen(state)` hears of every position the table settles
   * on, to coach on it. Called before `begin`.
   */
  teach(lesson) {
    this.lesson = lesson;
    const idle = this.table.onIdle;
    this.table.onIdle = () => {
      idle();
      lesson.seen(this.stateOf(this.position));
    };
  }

  /**
   * Keeps the game as it is now, with the log shown (a finished game leaves the saved games); a
   * lesson (see lesson.js) is never kept.
   */
  save() {
    this.game.log = this.table.log;
    if (!this.lesson) keep(this.game);
  }

  /** Marks the game played in once `seat`, which just acted, is a person's. */
  touchedBy(seat) {
    if (this.game.players[seat] === 'human') this.game.touched = true;
  }

  get position() {
    return this.game.position;
  }

  /** What the table needs of a position: it, and the moves on offer. */
  stateOf(position) {
    return { position, legal: position.turn.phase === 'move' ? this.engine.legal(position) : [], deadline: null };
  }

  roll() {
    const seat = this.position.turn.seat;
    const dice = Array.from({ length: this.engine.diceToThrow(this.position) },
      () => this.lesson?.nextDie(seat, this.position) ?? die());
    this.game.position = this.engine.roll(this.position, dice);
    this.game.actions?.push({ throw: dice });
    this.touchedBy(seat);
    this.table.push({ seat, dice, after: this.stateOf(this.position) });
    this.save();
  }

  move(piece) {
    const seat = this.position.turn.seat;
    const { position, move } = this.engine.move(this.position, piece);
    this.game.position = position;
    this.game.actions?.push({ move: piece });
    this.touchedBy(seat);
    this.table.push({ seat, move, after: this.stateOf(position) });
    this.save();
  }

  /**
   * Once the table has shown everything: a CPU whose turn it is acts after a short pause, its
   * move thought meanwhile (in a worker). What it chose is played only in the position it was
   * asked about, and only while this game is played.
   */
  cpuLater() {
    this.thinking?.abort();
    const asked = this.position;
    const level = this.game.players[asked.turn.seat];
    if (asked.turn.phase === 'over' || !level || level === 'human') return;
    const { signal } = (this.thinking = new AbortController());
    const choice = asked.turn.phase === 'move' && cpuChoice(this.engine, asked, level, this.seed++, signal);
    const pause = new Promise((resolve) => setTimeout(resolve, CPU_DELAY_MS * pace()));
    Promise.all([choice, pause]).then(([chosen]) => {
      if (signal.aborted || this.position !== asked) return;
      if (chosen) this.move(chosen.piece);
      else this.roll();
    }, (error) => {
      if (signal.aborted) return;
      // The engine refused its own game: a fault of the page, said and logged.
      console.error('a CPU player could not choose', error);
      errorWords(error, this.view.t).then((text) => this.table.notice(text));
    });
  }

  /** Stops the CPU players (the game is left): a move still being thought is dropped. */
  stop() {
    this.thinking?.abort();
    this.table.onIdle = () => {};
    this.table.stop();
  }

  /**
   * Who sits where, for the table (see `SeatsState` in table.js): the people play their seats on
   * this device, named only when one person plays (in hot-seat games a seat goes by its colour),
   * and each CPU by its level. There is no clock.
   */
  seats() {
    const { t } = this.view;
    const seat = (colour, who) => (who === 'human'
      ? { name: colour === this.you ? localName() : '', playedHere: true }
      : { name: t('cpu.named', { level: t(`level.${who}`) }), cpu: who });
    return { you: this.you, clockMs: null,
      seats: Object.fromEntries(Object.entries(this.game.players).map(([colour, who]) => [colour, seat(colour, who)])) };
  }

  /**
   * A new game with the same players and rules. With `rotate`, the seat after the one that
   * started this game starts the next (the seats stay in clockwise order).
   */
  again(rotate) {
    this.stop();
    const seats = this.game.seats ?? Object.keys(this.game.players);
    const order = rotate ? [...seats.slice(1), seats[0]] : seats;
    const players = Object.fromEntries(order.map((seat) => [seat, this.game.players[seat]]));
    return LocalGame.start(this.engine, this.game.rules ?? this.position.rules, players, this.view);
  }
}
