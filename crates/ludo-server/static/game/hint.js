// A hint, when asked: in a local game (against the CPU, or on one device), a Hint button under the
// throw button whenever a person chooses between two different moves or more. Tapped, it shows on
// the board the move the strongest CPU for the game would make (a ghost where it goes, a ring on
// the piece) and says why in one line, in a polite live region: what it captures, that it
// finishes, brings a piece out, leaves the reach of another colour, goes to a safe square or enters
// the home column, else that it is that CPU's choice. The CPU asked is `expert` where its network
// plays (a preset without house rules, for the number of seats: `expertPlays`), else `hard`; it
// thinks in the CPU players' worker (cpu.js). The hint goes once a move is made.
//
// Loaded only once hints are turned on in the table's settings (app.js), with its words
// (hinttext.js); never offered in online rooms.

import { choose } from '../engine/cpu.js';
import { CELL, cellOf, centreOf, drawPreview, onSafeSquare, placeText } from './board.js';
import { ACTED, distinctMoves } from './table.js';
import { expertPlays } from '../home/home.js';
import { addTexts } from '../i18n/i18n.js';
import { element, svgElement } from '../dom.js';
import { HINT_TEXTS } from './hinttext.js';

addTexts(HINT_TEXTS);

/** How long the hint may think before the line says it is thinking. */
const THINKING_MS = 300;

/** The level of CPU whose choice the hint shows in a game of `position`'s rules and seats. */
export function hintLevel(position) {
  return expertPlays(position.rules, position.seats.length) ? 'expert' : 'hard';
}

/** The square of the track a piece of the seat on `arm` at `progress` stands on (numbers only). */
const trackSquare = (layout, arm, progress) => (layout.starts[arm] + progress) % layout.track_len;

/** Whether a piece at `progress` is on the track, where another colour may capture it. */
const onTrack = (layout, progress) => typeof progress === 'number' && progress <= layout.door;

/**
 * The seats, other than `seat`, with a piece on the track 1 to 6 squares behind a piece of
 * `seat` at `progress` that could go that far before its home column (`pieces`: every seat's, by
 * colour); none where that piece is off the track or on a safe square.
 */
export function chasers(layout, pieces, seat, progress) {
  const arm = layout.seat_arms[seat];
  if (!onTrack(layout, progress) || onSafeSquare(layout, arm, progress)) return [];
  const square = trackSquare(layout, arm, progress);
  const reaches = (other, at) => {
    if (!onTrack(layout, at)) return false;
    const behind = (square - trackSquare(layout, layout.seat_arms[other], at) + layout.track_len) % layout.track_len;
    return behind >= 1 && behind <= 6 && at + behind <= layout.door;
  };
  return Object.keys(pieces).filter((other) => other !== seat && pieces[other].some((at) => reaches(other, at)));
}

/**
 * Why a CPU plays `move` of `seat`, in words (`before` and `after`: every seat's pieces before
 * and after it), or null when none of the reasons a hint gives applies.
 */
export function reason(t, layout, seat, move, before, after) {
  const seats = (list) => [...new Set(list)].map((s) => t(`seat.${s}`)).join(', ');
  if (move.captures.length) return t('hint.captures', { seats: seats(move.captures.map((c) => c.seat)) });
  if (move.to >= layout.finished_from) return t('hint.finishes');
  if (move.from === 'base') return t('hint.out');
  const threats = chasers(layout, before, seat, move.from);
  if (threats.length && !chasers(layout, after, seat, move.to).length) return t('hint.escapes', { seats: seats(threats) });
  if (onSafeSquare(layout, layout.seat_arms[seat], move.to)) return t('hint.safe');
  if (move.from <= layout.door && move.to > layout.door) return t('hint.homeColumn');
  return null;
}

/** The hint's line: which piece to move, where it is, and why. */
export function hintWords(t, layout, seat, move, before, after, level) {
  const place = placeText(layout, layout.seat_arms[seat], move.from, t);
  const why = reason(t, layout, seat, move, before, after) ?? t('hint.choice', { level: t(`level.${level}`) });
  return t('hint.line', { piece: move.piece + 1, place, why });
}

/**
 * Shows `move` of `colour` on the board drawn with `layout`: a ghost where it goes (what it
 * captures crossed) and a ring round the piece. Unlike a preview, it stays while other moves are
 * previewed, until the board is drawn again or the hint goes (`clearGhost`).
 */
function drawGhost(svg, layout, colour, move) {
  clearGhost(svg);
  const ghost = drawPreview(svg, layout, colour, move, true);
  ghost.setAttribute('class', 'hint-ghost');
  ghost.setAttribute('pointer-events', 'none');
  const [cx, cy] = centreOf(cellOf(layout, layout.seat_arms[colour], move.from, move.piece));
  svgElement('circle', { cx, cy, r: CELL * 0.75, fill: 'none', stroke: '#000', 'stroke-width': 3,
    'stroke-dasharray': '5 4' }, ghost);
}

/** Takes the hint's ghost off the board. */
function clearGhost(svg) {
  for (const node of svg.querySelectorAll('.hint-ghost')) node.remove();
}

/** The hint offered now, if any (one game at a time). */
let current = null;

/**
 * Offers hints in `game` (a `LocalGame`) while `on`, from now on: the Hint button shows whenever
 * its person chooses between moves. Off, or for another game, the hints offered before go.
 */
export function offerHints(game, on) {
  if (current && (!on || current.game !== game)) {
    current.stop();
    current = null;
  }
  if (!on) return;
  current ??= new Hints(game);
  current.update();
}

/** The hints of one local game: its Hint button and line, and the move last hinted. */
class Hints {
  constructor(game) {
    this.game = game;
    this.table = game.table;
    const { t, roll } = game.view;
    // A row of its own under the table's controls, so that none of them moves when it shows.
    document.getElementById('hint-row')?.remove();
    this.button = element('button', { id: 'hint', type: 'button', textContent: t('hint.button'), hidden: true,
      onclick: () => this.ask() });
    this.line = element('span', { id: 'hint-line' });
    this.line.setAttribute('role', 'status');
    roll.closest('.controls').after(element('div', { id: 'hint-row', className: 'controls' }, this.button, this.line));
    this.hinted = null;
    // Shown or hidden each time the table settles on a new state; gone at once when a move is made.
    const idle = this.table.onIdle;
    this.idle = idle;
    this.following = () => {
      idle();
      this.update();
    };
    this.table.onIdle = this.following;
    this.acted = () => this.hide();
    addEventListener(ACTED, this.acted);
  }

  /** The state shown if its person chooses now between two different moves or more; else null. */
  choosing() {
    const { table } = this;
    const state = table.state;
    const p = state?.position;
    const ready = p && !table.running && !table.pending && !table.queue.length && p.turn.phase === 'move';
    return ready && table.plays(p.turn.seat) && distinctMoves(state.legal).length > 1 ? state : null;
  }

  /** Shows the Hint button if its person is choosing; else the hint goes. */
  update() {
    const state = this.choosing();
    if (!state) {
      this.hide();
      return;
    }
    if (this.hinted?.state !== state) this.clear();
    this.button.hidden = false;
  }

  /** The button, the line and the ghost go. */
  hide() {
    this.button.hidden = true;
    this.clear();
  }

  /** The line and the ghost go, and any hint still being thought is dropped. */
  clear() {
    this.thinking?.abort();
    clearTimeout(this.thinkingTimer);
    this.asking = null;
    this.hinted = null;
    this.line.textContent = '';
    clearGhost(this.game.view.board);
  }

  /** The person asked: the CPU's choice, shown and said (at once if already known). */
  async ask() {
    const state = this.choosing();
    // A second tap while the CPU thinks waits for the same answer.
    if (!state || this.asking === state) return;
    if (this.hinted?.state !== state) {
      this.clear();
      this.asking = state;
      const { signal } = (this.thinking = new AbortController());
      this.thinkingTimer = setTimeout(() => { this.line.textContent = this.game.view.t('hint.thinking'); }, THINKING_MS);
      const level = hintLevel(state.position);
      let piece;
      try {
        ({ piece } = await choose(this.table.engine, state.position, level, Date.now() % 1_000_000, signal));
      } catch (error) {
        if (!signal.aborted) {
          console.warn('no hint:', error);
          this.line.textContent = '';
        }
        return;
      } finally {
        clearTimeout(this.thinkingTimer);
        if (this.asking === state) this.asking = null;
      }
      if (signal.aborted || this.choosing() !== state) return;
      this.hinted = { state, ...this.words(state, piece, level) };
    }
    drawGhost(this.game.view.board, this.table.layout, state.position.turn.seat, this.hinted.move);
    this.line.textContent = this.hinted.words;
  }

  /** The move of `piece` in `state`, and the hint's line for it. */
  words(state, piece, level) {
    const p = state.position;
    const move = state.legal.find((m) => m.piece === piece);
    const after = this.table.engine.move(p, piece).position.pieces;
    return { move, words: hintWords(this.game.view.t, this.table.layout, p.turn.seat, move, p.pieces, after, level) };
  }

  /** No more hints in this game: its button and line go, and the table is no longer followed. */
  stop() {
    this.hide();
    removeEventListener(ACTED, this.acted);
    // A game stopped meanwhile keeps its table silent.
    if (this.table.onIdle === this.following) this.table.onIdle = this.idle;
  }
}
