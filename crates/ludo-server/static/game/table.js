// The table: the one way a game is shown, for local games, hot-seat games and online rooms alike.
// Throws and moves arrive as events and are shown one after another on a single timeline: the
// dice roll in the thrower's base and land, the result shows, the piece walks, and only then do
// the status line, the highlighted seat and the dice pass to the next seat. A throw that leaves
// no move says so for a moment. Events that arrive meanwhile (CPU players, other people) wait
// their turn; a hidden tab, or one far behind, catches up at once instead of replaying minutes of
// moves. Under reduced motion the order and the pauses stay, and nothing moves.
//
// The table decides no rule: what can be played comes from the engine or the server, and a
// choice is handed back through `act`. Who sits where is the owner's to say (`setSeats`).

import { COLOURS, MARK, drawBoard, drawPreview, drawRulesInForce, placeText, statusText, turnBoard } from './board.js';
import { either } from '../rulebook/options.js';
import { drawDice, rollDice } from './dice.js';
import { reducedMotion, showMove, STEP_MS } from './animate.js';
import { byCpu, drawLog, moveLines, throwOutcome, voice } from './turnlog.js';
import { noMoveHint } from './nomove.js';
import { drawPlaces } from './places.js';
import { focusEnd, followFocus, holdFocus, playByKeys } from './keys.js';
import { Countdown } from './clock.js';
import * as sound from './sound.js';
import { setBoard } from '../i18n/i18n.js';
import { element } from '../dom.js';

/**
 * A seat as the table shows it (see `SeatsState`); a member left out is false or null.
 * @typedef {object} Seat
 * @property {string} name who plays it, in words ('' for a person of a hot-seat game, or nobody)
 * @property {boolean} [playedHere] whether the person on this device plays it
 * @property {string|null} [logName] the person the log names for it (null: the seat's colour)
 * @property {string|null} [cpu] the level of the CPU playing it
 * @property {boolean} [away] its person is away (the CPU plays their turns meanwhile)
 * @property {boolean} [left] its person left the game (the CPU plays it to the end)
 * @property {string|null} [rating] in a ranked game, the rating its person brought ("1532", "1500?")
 * @property {Element|null} [bubble] what its person just said, shown on the seat
 */

/**
 * Who sits at the table, given by its owner (a local game, an online room) when the table is made
 * and whenever it changes (`Table.setSeats`).
 * @typedef {object} SeatsState
 * @property {string|null} you the person's own seat (null in hot-seat games and for watchers)
 * @property {number|null} clockMs the turn clock's length in ms (null without one)
 * @property {Object<string, Seat>} seats by colour; a colour left out is nobody's
 */

/** A seat nobody sits at: every member a seat may leave out. */
const NOBODY = Object.freeze({ name: '', playedHere: false, logName: null, cpu: null, away: false, left: false,
  rating: null, bubble: null });

/** `state` (a `SeatsState`) with every colour's seat given in full. */
function wholeSeats({ you = null, clockMs = null, seats = {} }) {
  return { you: you ?? null, clockMs: clockMs ?? null,
    seats: Object.fromEntries(COLOURS.map((colour) => [colour, { ...NOBODY, ...seats[colour] }])) };
}

/** Whether two seats states given in full (`wholeSeats`) show the same. */
function sameSeats(a, b) {
  return a.you === b.you && a.clockMs === b.clockMs && COLOURS.every((colour) =>
    Object.keys(NOBODY).every((member) => a.seats[colour][member] === b.seats[colour][member]));
}

/** A status line (see `Table.showStatus`) as one string, as it is announced. */
const statusString = (status) => (typeof status === 'string' ? status : `${status.text}. ${status.hint}`);

const PACE_KEY = 'ludo.pace';
const AUTOPLAY_KEY = 'ludo.autoplay';

/** The event sent on `window` when the person throws (`detail` "throw") or moves ("move"). */
export const ACTED = 'ludo-acted';

/**
 * How fast the timeline runs, as a factor of every pause and animation: 1 normally, 0.4 for the
 * person who chose "Fast" in the table's settings (remembered in this browser); `?pace=0` (or the
 * same in local storage) shows every event at once, in order, for tests that play whole games.
 */
export function pace() {
  const value = Number(new URLSearchParams(location.search).get('pace') ?? localStorage.getItem(PACE_KEY) ?? 1);
  return Number.isFinite(value) && value >= 0 ? value : 1;
}

/** Sets how fast the timeline runs from now on (see `pace`), remembered in this browser. */
export function setPace(value) {
  localStorage.setItem(PACE_KEY, String(value));
}

/** How long the dice roll before they land. */
const ROLL_MS = 450;
/** How long a throw's result shows before anything else happens. */
const LANDED_MS = 550;
/** How long "4 — no move" shows before the turn passes, when this device plays the seat. */
const NO_MOVE_MS = 1000;
/**
 * The same for a seat played elsewhere (the CPU, a friend online): the throw and its result are
 * seen on that seat's base, and the person waits for their own turn no longer than that takes.
 */
const OTHERS_NO_MOVE_MS = 450;
/** The pause after a move. */
const MOVED_MS = 250;
/** How long a move that plays itself shows where it goes first. */
const AUTOPLAY_MS = 700;
/** How long a notice stays over the board, unless the person acts first. */
const NOTICE_MS = 8000;
/** How long the final board shows before a phone's page goes down to the places. */
const END_MS = 1500;
/** Events waiting beyond this many are shown at once, without animation. */
const BACKLOG = 3;

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a move with no choice plays itself (the person's setting; on unless turned off). */
const TURN_KEY = 'ludo.turnBoard';
const TURN_HOT_SEAT_KEY = 'ludo.turnBoardHotSeat';

/**
 * Whether the board turns so that the person's corner is at the bottom (on unless turned off);
 * in a game on one device for several people (`hotSeat`), to the corner of the seat to play (off
 * unless turned on: a phone passed round likes it, a tablet on the table does not).
 */
export function boardTurns(hotSeat) {
  const chosen = localStorage.getItem(hotSeat ? TURN_HOT_SEAT_KEY : TURN_KEY);
  return hotSeat ? chosen === 'yes' : chosen !== 'no';
}

/** Turns the board's turning on or off, for games on one device or the others, remembered here. */
export function setBoardTurns(hotSeat, on) {
  localStorage.setItem(hotSeat ? TURN_HOT_SEAT_KEY : TURN_KEY, on ? 'yes' : 'no');
}

export function autoplayOn() {
  return localStorage.getItem(AUTOPLAY_KEY) !== 'no';
}

/** Turns single moves playing themselves on or off, remembered in this browser. */
export function setAutoplay(on) {
  localStorage.setItem(AUTOPLAY_KEY, on ? 'yes' : 'no');
}

/** The moves on offer, one per distinct move (pieces on one square, or in the base, are one). */
export function distinctMoves(legal) {
  const seen = new Map();
  for (const move of legal) if (!seen.has(String(move.from))) seen.set(String(move.from), move);
  return [...seen.values()];
}

/** The ordinal of a place, in words ("2nd"). */
const ordinal = (t, place) => t(`ordinal.${place}`);

export class Table {
  /**
   * @param engine the WebAssembly engine (the board's numbers, the rules in force)
   * @param view the page's elements: `board`, `status`, `roll` (the throw button), `players` (the
   *   seats strip), `log`, `places`, `end`, `notice`, `announce(text)`, and the translator `t`
   * @param {SeatsState} seats who sits where, until `setSeats` says otherwise
   * @param act `{roll(), move(piece)}`: what the person chose
   */
  constructor(engine, view, seats, act) {
    this.engine = engine;
    this.view = view;
    this.seats = wholeSeats(seats);
    this.act = act;
    this.queue = [];
    this.running = false;
    this.generation = 0;
    this.holdUntil = 0;
    this.lines = [];
    this.shownLines = 0;
    this.countdown = new Countdown();
    this.onIdle = () => {};
    this.pending = false;
    this.offline = false;
    this.autoplayTimer = null;
    this.settledState = null;
    this.turnSeat = null;
    this.caches = new Map();
    this.spoken = [];
    view.roll.onclick = () => this.throwPressed();
    playByKeys(() => view.board.isConnected && view.board.checkVisibility?.() !== false, {
      throwDice: () => this.throwPressed(),
      pickPiece: (piece) => this.pickByKey(piece),
      sayWhere: () => this.sayWhere(),
    });
    view.notice.onclick = () => this.clearNotice();
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) document.title = view.t('title');
    });
  }

  // --- what arrives ---------------------------------------------------------------------------

  /**
   * Shows `state` (`{position, legal, deadline}`) at once, dropping whatever was still to be
   * shown: a game just loaded, resumed or started. `lines` is its log so far.
   */
  reset(state, lines = []) {
    this.generation++;
    this.queue = [];
    this.running = false;
    this.pending = false;
    this.standingIn = null;
    this.state = state;
    this.latest = state;
    this.lines = [...lines];
    this.shownLines = this.lines.length;
    this.view.log.replaceChildren();
    // From here on the texts speak of this board's pieces (see `numbers`).
    const { inForce, presetOptions } = this.numbers(state.position);
    this.view.board.setAttribute('aria-label', this.view.t('board'));
    drawRulesInForce(this.view.rulesInForce, inForce, this.view.t, presetOptions);
    this.spoken = [];
    this.settledState = null;
    this.settle();
  }

  /**
   * Queues what a seat did: `{seat, dice}` (a throw) or `{seat, move}` (the move the engine
   * played), with `after` (the state it led to) and `standIn` (`clock`, `away` or `left` when the
   * CPU played it for a person). Its log lines are written now, in order, whatever is still showing.
   */
  push(event) {
    const before = this.latest;
    event.before = before;
    event.lines = this.describe(event, before.position, event.after.position);
    this.lines.push(...event.lines);
    this.latest = event.after;
    this.pending = false;
    this.queue.push(event);
    this.pump();
  }

  /**
   * Writes a line that no action wrote (someone left, a phrase said) in the log, after whatever is
   * still to be shown.
   */
  note(line) {
    this.lines.push(line);
    if (this.running || this.queue.length) {
      this.queue.push({ note: true, lines: [line] });
      this.pump();
      return;
    }
    this.shownLines++;
    drawLog(this.view.log, this.lines.slice(0, this.shownLines));
    this.view.announce(line.text);
  }

  /** Puts the lines of what happened before this page joined the game at the top of its log. */
  prependLog(lines) {
    this.lines = [...lines, ...this.lines];
    this.shownLines += lines.length;
    this.view.log.replaceChildren();
    drawLog(this.view.log, this.lines.slice(0, this.shownLines));
  }

  /** Stops showing anything: the game was left or replaced. */
  stop() {
    this.generation++;
    this.queue = [];
    clearTimeout(this.autoplayTimer);
    this.countdown.stop();
  }

  /** Every log line of the game so far, including those still to be shown. */
  get log() {
    return this.lines;
  }

  /** Shows `text` by the table's controls (a refusal, the clock running out), until the next action. */
  notice(text) {
    this.pending = false;
    this.view.notice.textContent = text;
    this.view.notice.hidden = !text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.clearNotice(), NOTICE_MS);
    if (text) this.view.announce(text);
    if (!this.running) this.render({ interactive: true });
  }

  /**
   * Who sits at the table now (see `SeatsState`): someone came, left, was renamed or said
   * something. What shows them is drawn again if anything of it changed.
   */
  setSeats(seats) {
    const whole = wholeSeats(seats);
    if (sameSeats(whole, this.seats)) return;
    this.seats = whole;
    this.redrawSeats();
  }

  /** The person's own seat (see `SeatsState`), or null. */
  get you() {
    return this.seats.you;
  }

  /** Who sits at `colour` (see `Seat`), every member given. */
  seatAt(colour) {
    return this.seats.seats[colour] ?? NOBODY;
  }

  /**
   * Draws the seats strip again, as last drawn (the seat to play keeps its clock counting), and
   * the end's words and places, which name the seats too.
   */
  redrawSeats() {
    if (!this.seatsShown) return;
    this.drawPlayers(...this.seatsShown);
    if (!this.view.end.hidden) this.drawEnd(this.seatsShown[0], true);
  }

  // --- the timeline ---------------------------------------------------------------------------

  async pump() {
    if (this.running) return;
    this.running = true;
    const generation = this.generation;
    const current = () => generation === this.generation;
    while (this.queue.length && current()) {
      const fast = pace() === 0 || document.hidden || this.queue.length > BACKLOG;
      const event = this.queue.shift();
      if (event.note) {
        this.shownLines++;
        drawLog(this.view.log, this.lines.slice(0, this.shownLines));
        this.view.announce(event.lines[0].text);
        continue;
      }
      if (fast) {
        // Shown at once: its lines join the log, and what it did is said when all have been.
        this.apply(event);
        this.shownLines += event.lines.length;
        this.spoken.push(...(event.lines.length ? event.lines.map((l) => l.text)
          : [this.throwWords(event.seat, event.dice)]));
        continue;
      }
      const hold = this.holdUntil - performance.now();
      if (hold > 0) await wait(hold);
      if (!current()) return;
      if (event.dice) await this.showThrow(event, current);
      else await this.showMoveEvent(event, current);
    }
    if (!current()) return;
    this.running = false;
    this.settle();
  }

  /** Takes an event's result in: the state after it, and whether the CPU stood in. */
  apply(event) {
    this.state = event.after;
    // The CPU plays the rest of a turn it stood in for: the person's controls wait for the next.
    this.standingIn = event.standIn ? event.seat : null;
    this.standInNotice(event);
  }

  async showThrow(event, current) {
    const { seat, dice } = event;
    const before = this.state;
    // The dice roll in the thrower's base; everything else still shows the position before.
    this.render({ state: before, diceSeat: seat, diceValues: null, interactive: false });
    sound.play('throw');
    const group = this.view.board.querySelector('.dice');
    if (group && !reducedMotion() && pace() > 0) await rollDice(group, dice, ROLL_MS * pace());
    if (!current()) return;
    // Landed: the result shows, and with it the state after the throw.
    this.apply(event);
    this.shownLines += event.lines.length;
    const outcome = event.outcome;
    if (outcome.kind === 'move') {
      this.holdUntil = performance.now() + LANDED_MS * pace();
      // Said together with what the thrower is to do next, when the table settles on it.
      if (!this.queue.length) {
        this.spoken.push(this.throwWords(seat, dice));
        this.settle();
      } else {
        this.saidLast = this.throwWords(seat, dice);
        this.view.announce(this.saidLast);
        this.render({ interactive: false });
      }
      return;
    }
    // No move (or a roll-off, or a piece that came out by itself): said on the thrower's base
    // for a moment before the turn passes.
    const words = outcome.kind === 'rolloff' ? event.lines[0].text : this.noMoveWords(seat, dice, outcome, before);
    this.render({ diceSeat: seat, diceValues: dice, status: words, interactive: false });
    this.saidLast = statusString(words);
    this.view.announce(this.saidLast);
    const shown = outcome.kind === 'rolloff' ? LANDED_MS : this.plays(seat) ? NO_MOVE_MS : OTHERS_NO_MOVE_MS;
    await wait(shown * pace());
  }

  async showMoveEvent(event, current) {
    const { seat, move } = event;
    const roll = this.state.position.turn.roll;
    this.apply(event);
    // The piece walks on the board after the move; the status and the dice stay with the mover
    // until it arrives.
    const layout = this.render({ diceSeat: seat, diceValues: roll, status: this.shownStatus,
      interactive: false });
    const { finished } = event.lines[0];
    const walk = showMove(this.view.board, layout, seat, move, finished, pace());
    const steps = Math.max(1, walk.steps);
    if (walk.ms > 0) {
      for (let i = 0; i < steps; i++) setTimeout(() => sound.play('step'), (i * walk.ms) / steps);
    }
    await wait(walk.ms);
    if (!current()) return;
    sound.play(move.captures.length ? 'capture' : finished ? 'finish' : 'step');
    // A piece of the person's sent back is said over the board, not only in a log line that a
    // phone soon scrolls away.
    const you = this.you;
    if (you && seat !== you && move.captures.some((c) => c.seat === you)) {
      this.notice(this.view.t('notice.captured', { seat: this.voice.seat(seat) }));
    }
    // The game ended before the person's eyes: the end may be celebrated once the piece rests.
    if (event.after.position.turn.phase === 'over') this.endSeen = event.after;
    this.shownLines += event.lines.length;
    drawLog(this.view.log, this.lines.slice(0, this.shownLines));
    this.saidLast = event.lines.map((l) => l.text).join('. ');
    this.view.announce(this.saidLast);
    // The piece rests on its square (a capture or a finish ringed) before anything else happens.
    await wait(MOVED_MS * pace());
  }

  /** The latest state is on screen and nothing waits: the person may act. */
  settle() {
    const state = this.state;
    const first = this.settledState !== state;
    this.settledState = state;
    this.render({ interactive: true });
    const p = state.position;
    const over = p.turn.phase === 'over';
    const yours = !over && this.plays(p.turn.seat);
    // What happened, then, when the person is to act, what for: "Your turn — throw" (said with
    // the move just said, which it would otherwise cut short).
    if (first && yours) {
      if (!this.spoken.length && this.saidLast) this.spoken.push(this.saidLast);
      this.spoken.push(statusString(this.statusWords(p)));
    }
    this.saidLast = null;
    if (this.spoken.length) this.view.announce(this.spoken.join('. '));
    this.spoken = [];
    if (!first) return;
    if (yours && this.turnSeat !== p.turn.seat && this.you) {
      sound.play('turn');
      this.tellHidden();
    }
    this.turnSeat = yours ? p.turn.seat : null;
    if (over && this.endAnnounced !== state) {
      this.endAnnounced = state;
      this.view.announce(this.endWords(p));
      if (this.endSeen === state) {
        this.celebrateWin(p);
        this.bringEndIntoView();
      }
    }
    this.autoplay(state);
    this.onIdle();
  }

  /**
   * Where the places are below the board (a phone), the page goes down to them once the final
   * board has been seen; where they are beside it, nothing moves.
   */
  bringEndIntoView() {
    const end = this.view.end;
    setTimeout(() => {
      if (end.hidden || end.getBoundingClientRect().top < innerHeight * 0.75) return;
      end.scrollIntoView({ behavior: reducedMotion() ? 'auto' : 'smooth', block: 'start' });
    }, END_MS * pace());
  }

  /** A win by a person playing on this device is celebrated; a CPU's or another device's is not. */
  celebrateWin(p) {
    const winners = p.seats.filter((seat) => p.places?.[seat] === 1 && this.seatAt(seat).playedHere
      && !this.seatAt(seat).cpu);
    // Fetched when first needed: no part of the first load is spent on an end not yet reached.
    if (winners.length) import('./celebrate.js').then(({ celebrate }) => celebrate(winners));
  }

  /** A move with no choice plays itself, once the throw has been seen and where it goes shown. */
  autoplay(state) {
    clearTimeout(this.autoplayTimer);
    const p = state.position;
    if (p.turn.phase !== 'move' || !this.plays(p.turn.seat) || !autoplayOn()) return;
    const moves = distinctMoves(state.legal);
    if (moves.length !== 1) return;
    this.autoplaying = state;
    this.render({ interactive: true });
    drawPreview(this.view.board, this.layout, p.turn.seat, moves[0]);
    this.autoplayTimer = setTimeout(() => {
      if (this.state !== state || this.autoplaying !== state) return;
      this.autoplaying = null;
      this.pick(moves[0].piece);
    }, AUTOPLAY_MS * pace());
  }

  /** When the page is hidden and it becomes the person's turn: the tab's title, a notification. */
  tellHidden() {
    if (!document.hidden) return;
    const { t } = this.view;
    document.title = t('title.yourTurn');
    if (globalThis.Notification?.permission === 'granted') {
      try {
        new Notification(t('title.yourTurn'), { tag: 'ludo-turn', icon: '/icon.svg' });
      } catch {
        // Some browsers only notify from a service worker; the title still says it.
      }
    }
  }

  // --- the person's choices -------------------------------------------------------------------

  /** Whether the person on this device plays `seat` now (not while the CPU finishes their turn). */
  plays(seat) {
    return !this.offline && this.seatAt(seat).playedHere && this.standingIn !== seat;
  }

  /**
   * Whether the connection to the room is down: nothing the person did would arrive, so the
   * controls wait and the status says so until it is back.
   */
  setOffline(offline) {
    if (this.offline === offline) return;
    this.offline = offline;
    if (this.state && !this.running) this.render({ interactive: true });
  }

  canThrow() {
    const p = this.state?.position;
    return Boolean(p) && !this.running && !this.pending && !this.queue.length
      && ['roll', 'rolloff'].includes(p.turn.phase) && this.plays(p.turn.seat);
  }

  throwPressed() {
    if (!this.canThrow()) return;
    this.clearNotice();
    this.pending = true;
    this.render({ interactive: false, status: this.shownStatus });
    dispatchEvent(new CustomEvent(ACTED, { detail: 'throw' }));
    this.act.roll();
  }

  /**
   * A piece named by its number from the keyboard: it plays when it may move now (a piece of a
   * stack or of the base that makes the same move as its target plays that move).
   */
  pickByKey(piece) {
    const p = this.state?.position;
    if (!p || this.running || this.pending || p.turn.phase !== 'move' || !this.plays(p.turn.seat)) return;
    if (this.state.legal.some((m) => m.piece === piece)) this.pick(piece);
  }

  /**
   * Says where everyone is, seat by seat in play order: how many pieces in the base and finished,
   * and where each of the others is, in the words a piece's button uses ("where is everyone").
   */
  sayWhere() {
    const p = this.state?.position;
    if (!p || !this.layout) return;
    const { t } = this.view;
    const seats = p.seats.map((seat) => {
      const arm = this.layout.seat_arms[seat];
      const pieces = p.pieces[seat];
      const inBase = pieces.filter((x) => x === 'base').length;
      const done = pieces.filter((x) => typeof x === 'number' && x >= this.layout.finished_from).length;
      const parts = [
        ...(inBase ? [t('where.base', { n: inBase })] : []),
        ...pieces.map((x, i) => [x, i]).filter(([x]) => typeof x === 'number' && x < this.layout.finished_from)
          .map(([x, i]) => t('where.piece', { piece: i + 1, where: placeText(this.layout, arm, x, t) })),
        ...(done ? [t('where.finished', { n: done })] : []),
      ];
      const who = seat === this.you ? `${t(`seat.${seat}`)} (${t('you')})` : t(`seat.${seat}`);
      return `${who}: ${parts.join(', ')}`;
    });
    this.view.announce(seats.join('. '));
  }

  /** A piece picked (one tap, a drag onto where it goes, a click or a key): it plays. */
  pick(piece) {
    const p = this.state.position;
    if (this.running || this.pending || p.turn.phase !== 'move' || !this.plays(p.turn.seat)) return;
    this.autoplaying = null;
    this.clearNotice();
    this.pending = true;
    // The status stays as it is while the move is sent.
    this.render({ interactive: false, status: this.shownStatus });
    dispatchEvent(new CustomEvent(ACTED, { detail: 'move' }));
    this.act.move(piece);
  }

  preview(piece) {
    const p = this.state.position;
    const move = piece === null ? null : this.state.legal.find((m) => m.piece === piece);
    drawPreview(this.view.board, this.layout, p.turn.seat, move ?? null);
  }

  /** The person's request was refused: their controls come back, with the reason shown. */
  refused(text) {
    this.notice(text);
  }

  clearNotice() {
    this.view.notice.textContent = '';
    this.view.notice.hidden = true;
  }

  // --- drawing --------------------------------------------------------------------------------

  /**
   * The engine's numbers for a position's board and its rules in force, once per game. Every
   * text the table writes about a position asks for them first, so the texts speak of that
   * board's pieces (horses on the horse board) even after a rules page of another board.
   */
  numbers(position) {
    const key = JSON.stringify([position.rules, position.seats]);
    if (!this.caches.has(key)) {
      const inForce = this.engine.options(position);
      // The preset's own options, to tell the house rules changed from it.
      const presetOptions = this.engine.options(this.engine.newGame(inForce.preset, position.seats)).options;
      this.caches.set(key, { geometry: this.engine.board(position), inForce, presetOptions });
    }
    const numbers = this.caches.get(key);
    setBoard(numbers.geometry.board);
    return numbers;
  }

  /**
   * Draws the table: `state` (default the one shown), the dice in `diceSeat`'s base showing
   * `diceValues`, the status line (default from the state), and whether the person may act.
   * Returns the board's layout.
   */
  render({ state = this.state, diceSeat, diceValues, status, interactive }) {
    const { t } = this.view;
    const p = state.position;
    const { geometry } = this.numbers(p);
    const over = p.turn.phase === 'over';
    const seat = diceSeat ?? p.turn.seat;
    const mine = interactive && !over && !this.pending && !this.queue.length && this.plays(p.turn.seat);
    const choosing = mine && p.turn.phase === 'move' && this.autoplaying !== state;
    const held = holdFocus(this.view.board, this.view.roll);
    this.layout = drawBoard(this.view.board, p, geometry, {
      legal: choosing ? state.legal : [],
      onPick: (piece) => this.pick(piece),
      onPreview: (piece) => this.preview(piece),
      active: over ? null : seat,
      you: this.you,
      youLabel: t('you'),
      t,
    });
    turnBoard(this.view.board, this.layout, this.turnedToward(p));
    this.showTurnSetting();
    const canThrow = mine && ['roll', 'rolloff'].includes(p.turn.phase);
    // "Throw the die" or "the dice", as many as these rules throw.
    const rollKey = this.numbers(p).inForce.options.dice === 2 ? 'roll.two' : 'roll';
    this.view.roll.dataset.t = rollKey;
    this.view.roll.textContent = t(rollKey);
    if (!over) {
      const values = diceValues !== undefined ? diceValues : p.turn.phase === 'move' ? p.turn.roll : null;
      const count = values?.length ?? this.engine.diceToThrow(p);
      drawDice(this.view.board, this.layout, seat, count, values, {
        onThrow: canThrow ? () => this.throwPressed() : null, label: t(rollKey), ready: canThrow,
      });
    }
    // Unavailable, yet focusable: whoever threw keeps their place while the throw is shown (see keys.js).
    this.view.roll.setAttribute('aria-disabled', String(!canThrow));
    // The end shows once the last move has been seen, never under it. Then there is nothing to
    // throw: the button goes, and the end's own buttons remain (it stays until then, holding the
    // focus of whoever played the last move by keyboard).
    const endShown = over && interactive && !this.running;
    this.view.roll.hidden = endShown;
    this.showStatus(status ?? this.statusWords(p));
    this.view.status.classList.toggle('yours', mine);
    this.drawPlayers(p, seat, state.deadline);
    drawLog(this.view.log, this.lines.slice(0, this.shownLines));
    this.drawEnd(p, endShown);
    if (endShown) focusEnd(this.view.end, this.view.roll);
    else if (interactive) followFocus(this.view.board, this.view.roll, held);
    return this.layout;
  }

  /** Whether several people play on this device, each their own seats. */
  get hotSeat() {
    return !this.you && (this.state?.position.seats ?? []).filter((s) => this.seatAt(s).playedHere).length > 1;
  }

  /** The seat whose corner the board turns to the bottom (see `boardTurns`), or null. */
  turnedToward(p) {
    if (this.you) return boardTurns(false) ? this.you : null;
    if (!this.hotSeat || !boardTurns(true)) return null;
    // The corner of the person to play; while a CPU plays, the board stays as it was.
    if (this.seatAt(p.turn.seat).playedHere) this.lastPersonSeat = p.turn.seat;
    return this.lastPersonSeat ?? null;
  }

  /** The setting that turns the board, said for this kind of game and showing its choice. */
  showTurnSetting() {
    const { turnBoard: box, turnBoardWords: words, t } = this.view;
    if (!box) return;
    const hotSeat = this.hotSeat;
    box.checked = boardTurns(hotSeat);
    if (words) words.textContent = t(hotSeat ? 'settings.turnBoardHotSeat' : 'settings.turnBoard');
    box.onchange = () => {
      setBoardTurns(hotSeat, box.checked);
      if (this.layout && this.state) turnBoard(this.view.board, this.layout, this.turnedToward(this.state.position));
    };
  }

  /** The seats in play order: mark, who plays it, "you", the seat to play highlighted with its clock. */
  drawPlayers(p, active, deadline = null) {
    this.seatsShown = [p, active, deadline];
    const over = p.turn.phase === 'over';
    // A seat done while others play on is greyed; at the end no one is (the winner least of all).
    const items = p.seats.map((seat) => this.seatItem(seat, { active: !over && seat === active,
      done: !over && Boolean(p.done?.includes(seat)) }));
    this.view.players.replaceChildren(...items);
    // Room for a clock at every seat of a table that has one, so that no seat grows when it shows.
    this.view.players.classList.toggle('clocked', Boolean(this.seats.clockMs));
    // The clock runs on a person's own turn only: never for a CPU, nor while the CPU stands in.
    const ticking = !over && deadline && p.turn.seat === active && !this.seatAt(active).cpu
      && this.standingIn !== active;
    const clockBox = items.find((li) => li.dataset.seat === active)?.querySelector('.seat-clock');
    const yours = p.turn.seat === this.you;
    this.countdown.show(ticking ? clockBox : null, deadline, this.seats.clockMs ?? deadline - Date.now(),
      () => yours && sound.play('warning'), () => yours && this.timeUp(p.turn.seat));
  }

  /**
   * One seat of the strip: its colour (the chip's edge), who plays it, and what is said of them
   * (their rating, "you", a CPU, away or left), with room for the clock and what they just said.
   */
  seatItem(seat, { active, done }) {
    const { t } = this.view;
    const { name, cpu, rating, away, left, bubble } = this.seatAt(seat);
    // A CPU is named by its level, with "CPU" beside it, so narrow chips keep the level.
    const player = cpu ? t(`level.${cpu}`) : name;
    // The seat's mark and who plays it are the words, its colour in full for screen readers.
    const mark = element('span', { textContent: player ? `${MARK[seat]} ` : '' });
    mark.setAttribute('aria-hidden', 'true');
    const who = element('span', { className: 'who' }, mark,
      element('span', { className: player ? 'visually-hidden' : '', textContent: `${t(`seat.${seat}`)} ` }), player);
    const tags = [
      // A ranked game's players with the rating each brought to it.
      rating && element('span', { className: 'rating' },
        element('span', { className: 'visually-hidden', textContent: `${t('records.rating')} ` }), rating),
      seat === this.you && element('span', { className: 'badge', textContent: t('you') }),
      cpu && element('span', { className: 'cpu-tag', textContent: t('cpu') }),
      away && element('span', { className: 'away', textContent: t('online.away') }),
      left && element('span', { className: 'left-tag', textContent: `${t('seat.left')} · ${t('cpu')}` }),
    ].filter(Boolean);
    const classes = [`seat-${seat}`, active && 'active', done && 'done', seat === this.you && 'you', cpu && 'cpu',
      left && 'left'].filter(Boolean);
    const li = element('li', { className: classes.join(' ') }, who,
      element('span', { className: 'meta' }, ...tags, element('span', { className: 'seat-clock' })),
      ...(bubble ? [bubble] : []));
    li.dataset.seat = seat;
    return li;
  }

  /**
   * The person's clock ran out here: the server's CPU plays this turn, so the controls go and the
   * status says so at once, not "your turn" until the CPU's first throw arrives. Should the
   * server have taken the person's last action in time, that action's event gives the turn back.
   */
  timeUp(seat) {
    if (this.running || this.pending || !this.plays(seat)) return;
    this.standingIn = seat;
    this.render({ interactive: true });
    this.view.announce(this.view.t('status.cpuForYou'));
  }

  /** At the end: the words for the person, and the places with "you" marked. */
  drawEnd(p, shown) {
    this.view.end.hidden = !shown;
    if (!shown) return;
    drawPlaces(this.view.places, p, this.seats, this.view.t);
    this.view.end.querySelector('h2').textContent = this.endWords(p);
    // Where the game stopped at its first finisher, how the others were placed: "4th" with pieces
    // still out needs saying (not with two seats, where the other is simply second).
    const rule = this.view.end.querySelector('#places-rule');
    const stoppedAtFirst = p.turn.phase === 'over' && !this.numbers(p).inForce.options.rank_everyone
      && p.seats.length > 2;
    rule.hidden = !stoppedAtFirst;
    rule.textContent = stoppedAtFirst ? this.view.t('places.byProgress') : '';
  }

  // --- words ----------------------------------------------------------------------------------

  /** How the log speaks (see `voice` in turnlog.js): people by name where their seat's `logName` says it. */
  get voice() {
    return voice(this.view.t, (seat) => this.seatAt(seat).logName);
  }

  describe(event, before, after) {
    const { t } = this.view;
    let lines;
    if (event.dice) {
      const { inForce } = this.numbers(before);
      event.outcome = throwOutcome(this.voice, event.seat, event.dice, before, after, inForce.options);
      lines = event.outcome.line ? [event.outcome.line] : [];
    } else {
      const { geometry } = this.numbers(after);
      lines = moveLines(this.voice, event.seat, event.move, after, geometry.finished_from);
    }
    return event.standIn ? lines.map((line) => byCpu(t, line)) : lines;
  }

  statusWords(p) {
    const { t } = this.view;
    if (p.turn.phase === 'over') return this.endWords(p);
    if (this.offline) return t('online.reconnecting');
    const seat = p.turn.seat;
    const phase = p.turn.phase;
    // The person's turn goes on without them: not "your turn" with controls they cannot use.
    if (seat === this.you && this.standingIn === seat) return t('status.cpuForYou');
    if (this.plays(seat) && this.autoplaying === this.state && phase === 'move') return t('status.autoplay');
    if (this.plays(seat) && seat === this.you) return t(`status.you.${phase}`);
    if (this.plays(seat)) return t(`status.hot.${phase}`, { seat: t(`seat.${seat}`) });
    return statusText(p, t, (turn) => (this.seatAt(turn).cpu || this.plays(turn) ? null : this.seatAt(turn).name));
  }

  throwWords(seat, dice) {
    const { t } = this.view;
    // A seat is named as the log names it: a person by name and mark, a CPU by its colour.
    const words = { seat: this.voice.seat(seat), dice: dice.join(' + ') };
    if (this.standingIn === seat) return t('log.byCpu', { line: t('status.threw', words) });
    return seat === this.you ? t('status.youThrew', words) : t('status.threw', words);
  }

  /**
   * What a throw with no move did, and for a person whose pieces cannot leave the base, why. A
   * throw the CPU made for a person is told of the seat, marked as the log marks it: never "throw
   * again" to someone whose turn the CPU is playing.
   */
  noMoveWords(seat, dice, outcome, before) {
    const { t } = this.view;
    const words = { seat: this.voice.seat(seat), dice: dice.join(' + ') };
    if (this.standingIn === seat) return t('log.byCpu', { line: t(`status.${outcome.kind}`, words) });
    const you = seat === this.you ? 'you.' : '';
    const text = t(`status.${you}${outcome.kind}`, words);
    const hint = this.plays(seat) && outcome.kind !== 'auto' ? this.exitHint(before.position, seat, dice) : null;
    return hint ? { text, hint } : text;
  }

  /**
   * Writes the status line: words, or `{ text, hint }`, the hint after the words in smaller,
   * lighter type, so that on a phone the two keep to the line's two rows and the board does not
   * move. Kept as given, for the renders that leave the status as it is.
   */
  showStatus(status) {
    this.shownStatus = status;
    const line = this.view.status;
    if (typeof status === 'string') {
      line.textContent = status;
      return;
    }
    const hint = document.createElement('small');
    hint.className = 'hint';
    hint.textContent = status.hint;
    line.replaceChildren(`${status.text}. `, hint);
  }

  /**
   * For a person thrown dice that move no piece, why, as the engine says it (`noMoveHint`): the
   * piece that needs the exact count, the one a blockade stops… or, with every piece in the base,
   * the faces that bring one out ("A piece leaves the base only on a 6").
   */
  exitHint(position, seat, dice) {
    return noMoveHint(this.view.t, this.engine.whyNoMove(position, dice), position.pieces[seat], dice);
  }

  /**
   * How a piece leaves the base under this game's rules, in a sentence ("A piece leaves the base
   * only on a 6."), for the first-game guide.
   */
  exitRule() {
    const { t } = this.view;
    const { options } = this.numbers(this.state.position).inForce;
    const exits = options.exit_values ?? [];
    const faces = either(exits);
    // The engine refuses rules without a way out, and a double with one die.
    if (options.dice === 1) return exits.length ? `${t('hint.exit', { faces })}.` : '';
    if (!exits.length) return t('guide.exit.double');
    return t(options.exit_on_double ? 'guide.exit.eitherOrDouble' : 'guide.exit.either', { faces });
  }

  /** "You won!", "You came 2nd", or who won, for hot-seat games and watchers. */
  endWords(p) {
    const { t } = this.view;
    const you = this.you;
    if (you && p.places?.[you] === 1) return t('end.youWon');
    if (you && p.places?.[you]) return t('end.youCame', { place: ordinal(t, p.places[you]) });
    const winners = p.seats.filter((s) => p.places?.[s] === 1);
    const names = winners.map((s) => `${t(`seat.${s}`)} ${this.seatAt(s).name}`.trim()).join(', ');
    return t('end.won', { names });
  }

  /**
   * The CPU played for the person: said where they will see it. `event` is an action, or a line
   * of a log rebuilt from the game's record; both name their `seat` and `standIn` reason.
   */
  standInNotice(event) {
    if (!['clock', 'away'].includes(event.standIn) || event.seat !== this.you) return;
    const text = this.view.t(event.standIn === 'clock' ? 'clock.ranOut' : 'away.played');
    if (this.view.notice.textContent !== text) this.notice(text);
  }
}
