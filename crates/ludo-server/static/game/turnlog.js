// What happened in a turn, in the words players use: "red △ brings a piece out", "blue □ moves 5
// and captures yellow ○", "green ✚ moves 2 and reaches the finish (3 of 4)", "yellow ○ threw 3 —
// no move". Local games, online games and the replay viewer all say it the same way; at an online
// table a seat a person plays is named by them and its mark ("Ana ○ moves 5 and captures Bo △"),
// as they are named to each other.
//
// Each function takes a `voice` (see `voice`): the page's texts and how the log names a seat.

import { MARK } from './board.js';

const dicesText = (dice) => dice.join(' + ');

/**
 * How a log speaks: `t`, the page's texts, and `seat(colour)`, the words for a seat: a person's
 * name and the seat's mark where `nameOf(colour)` gives one ("Ana ○"), else the seat's colour and
 * mark ("yellow ○"). Every language's log texts read with either.
 */
export function voice(t, nameOf = () => null) {
  return {
    t,
    seat: (colour) => {
      const name = nameOf(colour);
      return name ? `${name} ${MARK[colour]}` : t(`seat.${colour}`);
    },
  };
}

/** Whether a throw of `dice` is a bonus throw under `options` (the rules in force). */
function isBonus(options, dice) {
  const double = dice.length === 2 && dice[0] === dice[1];
  return (options.bonus_on_double && double) || dice.some((d) => options.bonus_values?.includes(d));
}

/**
 * What a throw of `dice` by `seat` did, from the positions `before` and `after` it and the rules
 * in force (`options`): `kind` is `rolloff`, `move` (a move is to be chosen), `auto` (a piece came
 * out by itself), `again` (no move, the seat throws again), `forfeit` (a third bonus throw ended
 * the turn) or `none` (no move; the turn passes); `line` is its log line, or null for `move`,
 * whose move says it.
 */
export function throwOutcome({ t, seat: named }, seat, dice, before, after, options = {}) {
  const words = { seat: named(seat), dice: dicesText(dice) };
  const line = (key) => ({ text: t(key, words), kind: 'throw' });
  if (before.turn.phase === 'rolloff') return { kind: 'rolloff', line: line('log.rolloff') };
  if (after.turn.phase === 'move' && after.turn.seat === seat) return { kind: 'move', line: null };
  const moved = JSON.stringify(before.pieces[seat]) !== JSON.stringify(after.pieces[seat]);
  if (moved) return { kind: 'auto', line: line('log.autoExit') };
  if (after.turn.seat === seat && after.turn.phase !== 'over') return { kind: 'again', line: line('log.again') };
  if (options.three_bonus_forfeit && before.turn.bonus_streak === 2 && isBonus(options, dice)) {
    return { kind: 'forfeit', line: line('log.forfeit') };
  }
  return { kind: 'none', line: line('log.noMove') };
}

/**
 * The log line of a move the engine played for `seat`: where it went, what it captured, and the
 * finish when the piece reached it (`finishedFrom` is the engine's lowest finished progress;
 * `after` the position after the move).
 */
export function moveLine({ t, seat: named }, seat, move, after, finishedFrom) {
  const who = named(seat);
  let text = move.from === 'base' ? t('log.out', { seat: who })
    : t('log.moves', { seat: who, n: move.to - move.from });
  const victims = [...new Set(move.captures.map((c) => named(c.seat)))];
  if (victims.length) text = t('log.captures', { line: text, victims: victims.join(', ') });
  const finished = move.to >= finishedFrom;
  if (finished) {
    const home = after.pieces[seat].filter((p) => p !== 'base' && p >= finishedFrom).length;
    text = t('log.reaches', { line: text, k: home, all: after.pieces[seat].length });
  }
  return { text, kind: victims.length ? 'capture' : finished ? 'finish' : 'move', finished };
}

/**
 * The log lines of a move: its own (see `moveLine`), then, when it earned another throw (a bonus
 * face, a capture, a finish), that the seat throws again, so that it is not a surprise.
 */
export function moveLines(voiced, seat, move, after, finishedFrom) {
  const lines = [moveLine(voiced, seat, move, after, finishedFrom)];
  if (after.turn.seat === seat && after.turn.phase === 'roll') {
    lines.push({ text: voiced.t('log.throwsAgain', { seat: voiced.seat(seat) }), kind: 'throw' });
  }
  return lines;
}

/**
 * The log of the first `count` actions of a game (`rules`, `seats`, `actions` and `stand_ins` as
 * in its record), replayed with the engine: what a page that was not there sees of the game so
 * far, the actions the CPU played for a person marked as the live log marks them. Each line names
 * the `seat` that acted, and a line the CPU played for a person its `standIn` reason.
 */
export function recordLines(engine, voiced, { rules, seats, actions, stand_ins: standIns = {} },
  count = actions.length) {
  let position = engine.newGame(rules, seats);
  const { options } = engine.options(position);
  const { finished_from: finishedFrom } = engine.board(position);
  const lines = [];
  actions.slice(0, count).forEach((action, index) => {
    const seat = position.turn.seat;
    let said;
    if ('throw' in action) {
      const after = engine.roll(position, action.throw);
      const { line } = throwOutcome(voiced, seat, action.throw, position, after, options);
      said = line ? [line] : [];
      position = after;
    } else {
      const { position: after, move } = engine.move(position, action.move);
      said = moveLines(voiced, seat, move, after, finishedFrom);
      position = after;
    }
    const marked = index in standIns ? said.map((line) => byCpu(voiced.t, line, standIns[index])) : said;
    lines.push(...marked.map((line) => ({ ...line, seat })));
  });
  return lines;
}

/** A log line marked as played by the CPU for a person. */
export function byCpu(t, line, standIn = undefined) {
  return { ...line, text: t('log.byCpu', { line: line.text }), cpu: true, standIn };
}

/** A seat's mark and the letter before it (the end of "yellow ○", "Ana ○"). */
const MARKED_WORD = new RegExp(`(\\S [${Object.values(MARK).join('')}])`, 'u');

/**
 * `text` as nodes where each seat's mark stays on one line with the end of the word before it,
 * so that a narrow log never starts a line with a lone "○" (while a long name may still break
 * before its last letter); the text reads the same.
 */
function keepMarksWithWords(text) {
  // Split by a capturing pattern: the parts at odd places are the marked words.
  return text.split(MARKED_WORD).map((part, i) => {
    if (i % 2 === 0) return part;
    const words = document.createElement('span');
    words.className = 'seat-words';
    words.textContent = part;
    return words;
  }).filter((part) => part !== '');
}

/** The logs whose newest line is to be brought into view at the next frame. */
const toScroll = new Set();

/**
 * Brings `log`'s newest line into view at the next frame, when the browser lays the page out
 * anyway: reading its height at once would lay out the page again for every line added (on a
 * phone, the largest part of the time a CPU's turn took).
 */
function scrollToNewest(log) {
  if (!toScroll.size) {
    requestAnimationFrame(() => {
      for (const each of toScroll) each.scrollTop = each.scrollHeight;
      toScroll.clear();
    });
  }
  toScroll.add(log);
}

/**
 * Fills the list `log` with `lines` (newest last) and keeps its newest line in view. Only the
 * lines not drawn yet are added, so a long game's log costs nothing per action, and a log with
 * nothing new is not touched.
 */
export function drawLog(log, lines) {
  if (log.childElementCount === lines.length) return;
  if (log.childElementCount > lines.length) log.replaceChildren();
  for (const line of lines.slice(log.childElementCount)) {
    const { text, kind, cpu } = typeof line === 'string' ? { text: line, kind: '' } : line;
    const li = document.createElement('li');
    li.append(...keepMarksWithWords(text));
    if (kind) li.className = kind;
    if (cpu) li.classList.add('by-cpu');
    log.append(li);
  }
  scrollToNewest(log);
}
