// The rules pages' picture: the preset's board drawn by the board's own code, with one piece's
// way round it (yellow's, from its start to the finish) and numbered marks on the places the
// rules speak of (base, start, star, home column, finish), named below the board in the words of
// the page's vocabulary.

import { CELL, cellOf, centreOf, drawBoard, pathOf } from '../game/board.js';
import { svgElement as el } from '../dom.js';

/** The seat whose way is drawn. */
const SEAT = 'yellow';

/**
 * The places the picture of a board under `options` marks, as vocabulary terms in the order they
 * are numbered: the star only where stars are safe squares, the finish only where the board has a
 * centre (the Ludo board's). Known before the board is drawn, so that the caption can be.
 */
export function landmarkTerms(options) {
  const ludo = options.board === 'ludo';
  return ['term.base', 'term.start', ...(ludo && options.safe === 'starts_and_stars' ? ['term.star'] : []),
    'term.home', ...(ludo ? ['term.finish'] : [])];
}

/**
 * The places the picture marks on `layout` (the board `drawBoard` drew), for `options`: each a
 * vocabulary term of [`landmarkTerms`], the point its number stands at and the cells it outlines.
 * A number stands on a square's corner, so that the square's own mark (the star) stays seen.
 */
export function landmarks(layout, options) {
  const arm = layout.seat_arms[SEAT];
  const cell = (progress, index = 0) => cellOf(layout, arm, progress, index);
  // Yellow's arm is drawn on the left: a square's top right corner is inside the board, and
  // clear of the home column beneath the start.
  const corner = ([r, c]) => [(c + 1) * CELL, r * CELL];
  const spots = [0, 1, 2, 3].map((i) => centreOf(cell('base', i)));
  const mean = (k) => spots.reduce((sum, p) => sum + p[k], 0) / spots.length;
  const column = [];
  for (let p = layout.door + 1; p <= layout.last - (layout.shape.centre ? 1 : 0); p++) column.push(cell(p));
  const marks = {
    'term.base': () => ({ at: [mean(0), mean(1)], cells: [] }),
    'term.start': () => ({ at: corner(cell(0)), cells: [cell(0)] }),
    'term.star': () => ({ at: corner(cell(8)), cells: [cell(8)] }),
    'term.home': () => ({ at: centreOf(column[column.length >> 1]), cells: column }),
    'term.finish': () => ({ at: centreOf(cell(layout.last)), cells: [] }),
  };
  return landmarkTerms(options).map((term) => ({ term, ...marks[term]() }));
}

/**
 * A figure for the rules page of `preset` with `options`: the board of a four-player game, the
 * way of a yellow piece drawn as a line with an arrow, the landmarks numbered, and a caption
 * naming them; `t` says the words. The caption is written at once and the board, whose room is
 * kept (rulespage.css), is drawn once `engineLoaded` gives the engine.
 */
export function rulesPicture(preset, options, engineLoaded, t) {
  const figure = document.createElement('figure');
  figure.className = 'rules-picture';
  const svg = el('svg', { 'aria-hidden': 'true' }, figure);
  engineLoaded.then((engine) => drawPicture(svg, preset, options, engine, t), () => {});
  const caption = document.createElement('figcaption');
  const intro = document.createElement('p');
  intro.textContent = t('rules.picture');
  const names = document.createElement('ol');
  for (const term of landmarkTerms(options)) {
    const item = document.createElement('li');
    item.textContent = t(term);
    item.dataset.term = term;
    names.append(item);
  }
  caption.append(intro, names);
  figure.append(caption);
  return figure;
}

/** Draws into `svg` the board, the way and the numbered landmarks of [`rulesPicture`]. */
function drawPicture(svg, preset, options, engine, t) {
  const position = engine.newGame({ preset }, ['yellow', 'blue', 'red', 'green']);
  const layout = drawBoard(svg, position, engine.board(position), { t });
  const arm = layout.seat_arms[SEAT];
  const way = pathOf(layout, arm, 0, 0, layout.last).map(centreOf);
  const defs = el('defs', {}, svg);
  const arrow = el('marker', { id: 'way-arrow', viewBox: '0 0 10 10', refX: '5', refY: '5', markerWidth: '4',
    markerHeight: '4', orient: 'auto-start-reverse' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'way-arrow' }, arrow);
  el('polyline', { points: way.map(([x, y]) => `${x},${y}`).join(' '), class: 'way',
    'marker-end': 'url(#way-arrow)' }, svg);
  landmarks(layout, options).forEach(({ term, at: [x, y], cells }, i) => {
    const mark = el('g', { class: 'landmark', 'data-term': term }, svg);
    for (const [r, c] of cells) {
      el('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: 'landmark-cell' }, mark);
    }
    el('circle', { cx: x, cy: y, r: CELL * 0.32 }, mark);
    el('text', { x, y, 'dominant-baseline': 'central', 'text-anchor': 'middle', 'font-size': CELL * 0.42 },
      mark).textContent = String(i + 1);
  });
}
