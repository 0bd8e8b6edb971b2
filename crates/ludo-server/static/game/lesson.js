// "Learn by playing": a first game against one gentle CPU, set up and with dice arranged so that
// each thing a new player must know comes up in a few turns: a 6 to bring a piece out (and the
// throw it gives again), a capture, a safe square, the home column, the exact count to finish.
// The table says what is happening in words under its controls, each lesson once, as it comes up
// (whatever the person chose before); the rules stay the engine's. Once the dice arranged are
// used, they are fair again and the game goes on as any other. A lesson is never saved among the
// games.

import { element } from '../dom.js';
import { onSafeSquare } from './board.js';
import { addTexts } from '../i18n/i18n.js';
import { LESSON_TEXTS } from './lessontext.js';

addTexts(LESSON_TEXTS);

/** The standard rules, two seats: the person plays yellow against an easy CPU at red. */
export const LESSON_PLAYERS = { yellow: 'human', red: 'easy' };

/**
 * Where the lesson starts: two of yellow's pieces on the way (one three squares behind red's only
 * piece out, one about to reach its home column), red's piece on its fifth square.
 */
export function lessonPosition(engine) {
  const position = engine.newGame({ preset: 'qdan' }, ['yellow', 'red']);
  position.pieces.yellow = ['base', 'base', 27, 46];
  position.pieces.red = [4, 'base', 'base', 'base'];
  return position;
}

/**
 * The count a yellow piece in the home column needs to finish, in `position` (`board` its
 * numbers); null when none is there.
 */
function exactCount(position, board) {
  const inColumn = position.pieces.yellow.filter((p) => typeof p === 'number' && p > board.door
    && p < board.finished_from);
  return inColumn.length ? board.finished_from - Math.max(...inColumn) : null;
}

/**
 * The dice each seat throws, in order: yellow a 6 (a piece out, and another throw), a 3 (the
 * capture), a 1 (onto a star), a 5 (into the home column), a 6 (too many to finish) and then
 * exactly what its piece in the home column needs, whichever piece went in; red throws without a
 * 6, so its pieces stay home meanwhile. A die is a number, or what the position calls for.
 */
const DICE = { yellow: [6, 3, 1, 5, 6, exactCount], red: [4, 2, 3] };

/**
 * Each lesson, in the order they are given when several apply: its text's key and when it
 * applies, from the position the table settled on, the moves on offer and the board's numbers.
 */
const LESSONS = [
  { key: 'lesson.leave', when: ({ legal }) => legal.some((m) => m.from === 'base') },
  { key: 'lesson.capture', when: ({ legal }) => legal.some((m) => m.captures.length) },
  { key: 'lesson.finish', when: ({ legal, board }) => legal.some((m) => m.to >= board.finished_from) },
  { key: 'lesson.exact', when: ({ position, legal, board }) => position.turn.phase === 'move'
    && position.pieces.yellow.some((p, i) => typeof p === 'number' && p > board.door
      && p < board.finished_from && !legal.some((m) => m.piece === i)) },
  { key: 'lesson.homeColumn', when: ({ legal, board }) => legal.some((m) => m.to > board.door
    && m.to < board.finished_from && (m.from === 'base' || m.from <= board.door)) },
  { key: 'lesson.safe', when: ({ legal, board }) => legal.some((m) => onSafeSquare(board, board.seat_arms.yellow, m.to)) },
];

export class Lesson {
  /**
   * @param engine the WebAssembly engine
   * @param place where the coaching shows (an element it fills, under the table's controls)
   * @param t the page's texts
   * @param announce says a text to screen readers
   */
  constructor(engine, place, { t, announce }) {
    Object.assign(this, { engine, t, announce });
    this.dice = { yellow: [...DICE.yellow], red: [...DICE.red] };
    this.taught = new Set();
    this.box = element('p', { id: 'coach', className: 'coach' });
    this.box.setAttribute('role', 'status');
    place.replaceChildren(this.box);
    place.hidden = false;
    this.say('lesson.throw');
  }

  /** The die arranged for `seat`'s next throw in `position`, or null once the lesson's dice are used. */
  nextDie(seat, position) {
    const die = this.dice[seat]?.shift() ?? null;
    return typeof die === 'function' ? die(position, this.engine.board(position)) : die;
  }

  /** The table settled on `state` (`{position, legal}`): what to learn from it, if anything new. */
  seen({ position, legal }) {
    if (position.turn.phase === 'over') return;
    const mine = position.turn.seat === 'yellow';
    const board = this.engine.board(position);
    const lesson = mine && LESSONS.find((l) => !this.taught.has(l.key) && l.when({ position, legal, board }));
    if (lesson) {
      this.taught.add(lesson.key);
      this.say(lesson.key);
    } else if (this.taught.has('lesson.finish') && !this.taught.has('lesson.done')) {
      this.taught.add('lesson.done');
      this.say('lesson.done');
    }
  }

  say(key) {
    this.box.textContent = this.t(key);
    this.announce(this.box.textContent);
  }
}
