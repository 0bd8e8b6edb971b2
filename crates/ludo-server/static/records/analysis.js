// A finished game's analysis, under its replay (replay.js loads this once the replay is drawn):
// each seat's chance to win after every step, by the Expert CPU's network, computed in the CPU
// worker with a progress bar; a chart of those chances in the board's colours, with each seat's
// mark and its own line pattern so that it reads without colour, and the same figures as a table
// for screen readers; the turning points; each person's moves where the Expert CPU would have
// moved another piece and it mattered, each shown on the board when picked (the move made and the
// one suggested); and a sentence per person. Only games a network knows are analysed (a preset
// without house rules, for the number of seats: `expertPlays`); elsewhere the section says so.

import { FILL, MARK, drawPreview, placeText } from '../game/board.js';
import { addTexts } from '../i18n/i18n.js';
import { errorText } from '../i18n/texts-errors.js';
import { element, svgElement } from '../dom.js';
import { analyse } from '../engine/cpu.js';
import { expertPlays } from '../home/home.js';
import { ANALYSIS_TEXTS } from './analysistext.js';

addTexts(ANALYSIS_TEXTS);

/** The chart's drawing area, in SVG units. */
const WIDTH = 320;
const HEIGHT = 120;
/** Each seat's line pattern, so that the lines differ without their colours. */
const DASHES = { yellow: '', blue: '7 3', red: '2 3', green: '9 3 2 3' };
/** Rows of the table of figures besides the start and the end: one every tenth of the game. */
const TABLE_ROWS = 10;

/** `chance` (0 to 1) as a whole percentage, in the page's words. */
const percent = (t, chance) => t('analysis.percent', { n: Math.round(chance * 100) });
/** A chance's difference in whole points. */
const points = (difference) => Math.round(Math.abs(difference) * 100);

/**
 * Shows the analysis of `record` in `container`: `replay` is what `showReplay` returned (its
 * steps, `go`, `board`, `layout` and `onStep`), `voiced` names the seats as the replay's log
 * does, `describe(step)` says what happened at a step, `viewer` is the seat of the person
 * watching, if they played.
 */
export async function showAnalysis(engine, record, { replay, voiced, describe, viewer }, container, t) {
  const title = element('h3', { textContent: t('analysis.title') });
  // A game the network does not know is said so at once, with nothing fetched.
  if (!expertPlays(record.rules, record.seats.length)) {
    container.replaceChildren(title, element('p', { className: 'analysis-unavailable', textContent: t('analysis.unavailable') }));
    return null;
  }
  const progress = element('progress', { max: 1, value: 0 });
  progress.setAttribute('aria-label', t('analysis.working'));
  const working = element('p', { className: 'analysis-working', textContent: t('analysis.working') });
  container.replaceChildren(title, working, progress);
  container.setAttribute('aria-busy', 'true');
  let analysis;
  try {
    analysis = await analyse(engine, record, (done, total) => {
      progress.max = total;
      progress.value = done;
    });
  } catch (error) {
    const said = { analysis_unavailable: 'analysis.unavailable', no_network: 'analysis.offline' }[error?.code];
    const why = said ? t(said) : t('analysis.failed', { why: errorText(error, t) });
    container.replaceChildren(title, element('p', { className: 'analysis-unavailable', textContent: why }));
    container.removeAttribute('aria-busy');
    return null;
  }
  const seats = record.seats;
  const chart = chanceChart(analysis.chances, seats, replay, t);
  const parts = [
    title,
    ...summaries(analysis, record, viewer, voiced, t),
    chart.figure,
    chanceTable(analysis.chances, seats, voiced, t),
    turningPoints(analysis, replay, voiced, describe, t),
    costlyMoves(analysis, record, replay, voiced, describe, engine, t),
  ];
  container.replaceChildren(...parts);
  container.removeAttribute('aria-busy');
  container.dataset.analysed = 'true';
  return analysis;
}

/** The people's seats of `record`, the viewer's first. */
function peopleSeats(record, viewer) {
  const people = record.seats.filter((seat) => record.players?.[seat]?.kind === 'person');
  return viewer ? [viewer, ...people.filter((s) => s !== viewer)] : people;
}

/** The choices the Expert CPU disagreed with that were a person's own (not played for them). */
function costlyOf(analysis, record, seat) {
  const standIns = record.stand_ins ?? {};
  return analysis.costly.filter((c) => c.seat === seat && !(c.action in standIns));
}

/** One sentence per person: their best move and their most costly one. */
function summaries(analysis, record, viewer, voiced, t) {
  return peopleSeats(record, viewer).map((seat) => {
    const who = seat === viewer ? t('analysis.you') : voiced.seat(seat);
    return element('p', { className: 'analysis-summary', textContent: summarySentence(analysis, record, seat, who, t) });
  });
}

/**
 * The sentence that sums the game up for the person at `seat`, named `who`: their best move and
 * their own most costly one (the end card says it too, see endsummary.js).
 */
export function summarySentence(analysis, record, seat, who, t) {
  const { best = null } = analysis.summary?.[seat] ?? {};
  const worst = costlyOf(analysis, record, seat).reduce((w, c) => (!w || cost(c) > cost(w) ? c : w), null);
  const costliest = worst
    ? t('analysis.costliestStep', { n: worst.action + 1, cost: points(cost(worst)) })
    : t('analysis.noCostly');
  return best === null
    ? t('analysis.summaryNoBest', { who, costliest })
    : t('analysis.summary', { who, best: best + 1, costliest });
}

/** How much chance a choice gave away. */
const cost = (choice) => choice.best_chance - choice.played_chance;

/**
 * The chart of each seat's chance after every step: a line per seat (its colour, its pattern,
 * its mark at the end), a cursor at the step the replay shows; a tap moves the replay there.
 */
function chanceChart(chances, seats, replay, t) {
  const last = Math.max(1, chances.length - 1);
  const x = (step) => (step / last) * WIDTH;
  const y = (chance) => HEIGHT - chance * HEIGHT;
  const svg = svgElement('svg', { viewBox: `-4 -6 ${WIDTH + 22} ${HEIGHT + 12}`, class: 'analysis-chart',
    role: 'img', 'aria-label': t('analysis.chart') });
  for (const level of [0, 0.5, 1]) {
    svgElement('line', { x1: 0, x2: WIDTH, y1: y(level), y2: y(level), class: 'grid' }, svg);
  }
  seats.forEach((seat, i) => {
    const line = chances.map((row, step) => `${x(step).toFixed(1)},${y(row[i]).toFixed(1)}`).join(' ');
    svgElement('polyline', { points: line, fill: 'none', stroke: FILL[seat], 'stroke-width': 2.2,
      'stroke-dasharray': DASHES[seat], 'stroke-linejoin': 'round', 'data-seat': seat }, svg);
    const end = chances[chances.length - 1][i];
    const mark = svgElement('text', { x: WIDTH + 4, y: y(end) + 4, 'font-size': 11, fill: FILL[seat],
      stroke: '#000', 'stroke-width': 0.3, 'aria-hidden': 'true' }, svg);
    mark.textContent = MARK[seat];
  });
  const cursor = svgElement('line', { y1: 0, y2: HEIGHT, class: 'cursor' }, svg);
  const moveCursor = (step) => {
    cursor.setAttribute('x1', x(step));
    cursor.setAttribute('x2', x(step));
  };
  replay.onStep(moveCursor);
  moveCursor(replay.at());
  svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    const units = ((event.clientX - box.left) / box.width) * (WIDTH + 22) - 4;
    replay.go(Math.round(Math.max(0, Math.min(WIDTH, units)) / WIDTH * last));
  });
  const hint = element('figcaption', { textContent: `${t('analysis.chart')}. ${t('analysis.chartHint')}` });
  return { figure: element('figure', { className: 'analysis-figure' }, svg, hint) };
}

/** The chances in figures: at the start, every tenth of the game and the end, one column a seat. */
function chanceTable(chances, seats, voiced, t) {
  const last = chances.length - 1;
  const steps = [...new Set([0, ...Array.from({ length: TABLE_ROWS }, (_, i) => Math.round((i + 1) * last / (TABLE_ROWS + 1))), last])];
  const head = element('tr', {}, element('th', { scope: 'col', textContent: t('analysis.step') }),
    ...seats.map((seat) => element('th', { scope: 'col', textContent: voiced.seat(seat) })));
  const rows = steps.map((step) => element('tr', {}, element('th', { scope: 'row', textContent: String(step) }),
    ...chances[step].map((chance) => element('td', { textContent: percent(t, chance) }))));
  const table = element('table', { className: 'analysis-table' }, element('thead', {}, head), element('tbody', {}, ...rows));
  return element('details', {}, element('summary', { textContent: t('analysis.table') }), table);
}

/** The turning points, biggest first: each a button that shows its step. */
function turningPoints(analysis, replay, voiced, describe, t) {
  const list = element('ol', { className: 'analysis-turning' });
  for (const point of analysis.turning_points ?? []) {
    const step = point.action + 1;
    const text = t('analysis.turningLine', { n: step, line: describe(replay.steps[step]),
      seat: voiced.seat(point.seat), before: percent(t, point.before), after: percent(t, point.after) });
    list.append(element('li', {}, element('button', { type: 'button', textContent: text, onclick: () => replay.go(step) })));
  }
  return element('section', {}, element('h4', { textContent: t('analysis.turning') }), list);
}

/**
 * Each person's costly moves, costliest first: picking one shows the position it was made in,
 * with a ghost where the move made went and one where the Expert CPU's would have gone, and says
 * both in words.
 */
function costlyMoves(analysis, record, replay, voiced, describe, engine, t) {
  const section = element('section', {}, element('h4', { textContent: t('analysis.costly') }));
  // What a picked move was, and the Expert CPU's, said right under the board they are drawn on,
  // until another step is shown.
  const shown = element('p', { className: 'analysis-shown' });
  shown.setAttribute('aria-live', 'polite');
  replay.onStep(() => shown.replaceChildren());
  const costly = record.seats.filter((seat) => record.players?.[seat]?.kind === 'person')
    .flatMap((seat) => costlyOf(analysis, record, seat))
    .sort((a, b) => cost(b) - cost(a));
  if (costly.length === 0) {
    section.append(element('p', { textContent: t('analysis.none') }));
    return section;
  }
  const list = element('ol', { className: 'analysis-costly' });
  for (const choice of costly) {
    const text = t('analysis.costlyLine', { n: choice.action + 1, seat: voiced.seat(choice.seat),
      cost: points(cost(choice)) });
    const pick = () => {
      // The position the choice was made in, then both moves drawn on it.
      replay.go(choice.action);
      const before = replay.steps[choice.action].position;
      const played = engine.move(before, choice.played);
      const suggested = engine.move(before, choice.best);
      const layout = replay.layout();
      markSuggested(drawPreview(replay.board, layout, choice.seat, suggested.move));
      drawPreview(replay.board, layout, choice.seat, played.move, true);
      // What the move did, as the log says it, and where it took its piece (the two may both
      // be "moves 6": where they land tells them apart, to a screen reader too).
      const lineOf = (after) => `${describe({ position: after.position, before, action: { move: after.move.piece },
        seat: choice.seat, move: after.move })}, ${placeText(layout, layout.seat_arms[choice.seat], after.move.to, t)}`;
      shown.replaceChildren(
        element('span', { className: 'played', textContent: t('analysis.played', { line: lineOf(played), chance: percent(t, choice.played_chance) }) }),
        element('br'),
        element('span', { className: 'suggested', textContent: t('analysis.suggested', { line: lineOf(suggested), chance: percent(t, choice.best_chance) }) }),
      );
      if (!shown.isConnected) replay.board.parentElement.after(shown);
      replay.board.scrollIntoView?.({ block: 'start' });
    };
    list.append(element('li', {}, element('button', { type: 'button', textContent: text, onclick: pick })));
  }
  section.append(list);
  return section;
}

/**
 * Marks the ghost of the Expert CPU's move apart from the dashed one of the move made, without
 * colour: a solid double ring and a dot.
 */
function markSuggested(ghost) {
  const ring = ghost.querySelector('circle');
  ring.removeAttribute('stroke-dasharray');
  const [x, y, r] = ['cx', 'cy', 'r'].map((a) => Number(ring.getAttribute(a)));
  svgElement('circle', { cx: x, cy: y, r: r * 1.3, fill: 'none', stroke: '#000', 'stroke-width': 2 }, ghost);
  // A dot at its centre: the board may be turned, and a dot reads the same whichever way.
  svgElement('circle', { cx: x, cy: y, r: r * 0.3, fill: '#000' }, ghost);
  ghost.classList.add('suggested');
}
