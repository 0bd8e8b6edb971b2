// Draws a board in SVG from a position and the numbers the engine gives for its board: track,
// safe squares, coloured starts and home columns, bases, pieces with their owner marks (yellow ○,
// blue □, red △, green ✚). The cross, the horse board, and the Ludo board with one arm per seat:
// two arms side by side (horizontal) or three in a T.

import { optionLabel, ordered, valueLabel } from '../rulebook/options.js';
import { svgElement as el } from '../dom.js';
import { handledByGesture, setTargets } from './gestures.js';

export const COLOURS = ['yellow', 'blue', 'red', 'green'];
/** Each colour's paint, on the board and wherever a seat is shown in colour. */
export const FILL = { yellow: '#f2c200', blue: '#1f6fd1', red: '#d3322f', green: '#1c9a4b' };
/** The owner marks that tell the seats apart without colour. */
export const MARK = { yellow: '○', blue: '□', red: '△', green: '✚' };
/** A square's side, in the SVG's units. */
export const CELL = 40;

/** Turns a grid cell (or a point, with `size` 15) a quarter clockwise round the board. */
function turn([r, c], times, size = 14) {
  for (let i = 0; i < times; i++) [r, c] = [c, size - r];
  return [r, c];
}

// One arm of the board drawn on the left, its track squares in the order pieces travel them,
// from where the track comes in to where it leaves; `start` is the index of the arm's start.
// The other arms are this one turned. The Ludo board brings 13 squares an arm and a finish in
// the centre; the horse board (cờ cá ngựa) 14, the inner corners included, and six home cells
// reaching the centre. A base is a rectangle of cells (top, left, bottom, right) with spots for
// four pieces; boards with one arm per seat have flat bases beside their arms.
const SHAPES = {
  ludo: {
    ring: [[8, 5], [8, 4], [8, 3], [8, 2], [8, 1], [8, 0], [7, 0], [6, 0], [6, 1], [6, 2], [6, 3],
      [6, 4], [6, 5]],
    start: 8,
    home: [[7, 1], [7, 2], [7, 3], [7, 4], [7, 5]],
    centre: true,
  },
  horse: {
    ring: [[6, 0], [6, 1], [6, 2], [6, 3], [6, 4], [6, 5], [6, 6], [5, 6], [4, 6], [3, 6], [2, 6],
      [1, 6], [0, 6], [0, 7]],
    start: 0,
    home: [[7, 1], [7, 2], [7, 3], [7, 4], [7, 5], [7, 6]],
    centre: false,
  },
};
// `dice` is where the die (or the two dice) of the seat to play stand, between the spots of a
// square yard, beside the two-by-two spots of a flat one, on the side facing the centre.
const CORNER_BASE = { rect: [0, 0, 5, 5], inset: 1, spots: [[1.5, 1.5], [1.5, 3.5], [3.5, 1.5], [3.5, 3.5]],
  dice: [2.5, 2.5] };
const FLAT_BASE = { rect: [3, 0, 5, 5], inset: 0.5, spots: [[3.55, 0.6], [3.55, 1.6], [4.45, 0.6], [4.45, 1.6]],
  dice: [4, 3.4] };

// Which quarter turns of the left arm are drawn, by number of arms: the cross, a horizontal
// board (left and right), and a T (left, right and bottom), arms numbered clockwise.
const TURNS = { 2: [0, 2], 3: [0, 2, 3], 4: [0, 1, 2, 3] };

/**
 * The drawing of a board whose numbers the engine gave (`engine.board(position)`): for each of
 * its arms the quarter turn it is drawn at and its colour, and every track square's cell.
 */
export function layoutOf(geometry) {
  const shape = SHAPES[geometry.board] ?? SHAPES.ludo;
  const turns = TURNS[geometry.arms] ?? TURNS[4];
  const ring = turns.flatMap((k) => shape.ring.map((cell) => turn(cell, k)));
  const track = ring.map((_, square) => ring[(square + shape.start) % ring.length]);
  const base = geometry.arms === 4 ? CORNER_BASE : FLAT_BASE;
  // On the cross colours sit on fixed arms; with one arm per seat, the seats' colours.
  const colours = turns.map((_, arm) => COLOURS[arm]);
  for (const [colour, arm] of Object.entries(geometry.seat_arms)) colours[arm] = colour;
  return { ...geometry, shape, turns, track, base, colours };
}

/**
 * Where the left arm's finished pieces stand, in grid cells, the first finished first: inside
 * the arm's own triangle in the middle (its corners at cells (5.5, 5.5), (8.5, 5.5), (7, 7)), three
 * along its wide side and one nearer the point, apart enough that each piece of radius 0.2 shows
 * whole. No two colours share a spot, so finished pieces never cover one another.
 */
const FINISHED_SPOTS = [[7, 5.85], [6.56, 5.85], [7.44, 5.85], [7, 6.35]];

/** Where a piece of the seat on `arm` at `progress` stands, in grid cells. */
export function cellOf(layout, arm, progress, index, finishedBefore = 0) {
  const k = layout.turns[arm];
  if (progress === 'base') return turn(layout.base.spots[index], k);
  if (progress <= layout.door) return layout.track[(layout.starts[arm] + progress) % layout.track_len];
  const home = layout.shape.home[progress - layout.door - 1];
  if (home) return turn(home, k);
  return turn(FINISHED_SPOTS[finishedBefore % FINISHED_SPOTS.length], k);
}

/**
 * The cells a piece passes through moving from progress `from` to `to` (a move the engine
 * played): its base spot and start for an exit, else every square from `from` to `to`.
 */
export function pathOf(layout, arm, index, from, to) {
  if (from === 'base') return [cellOf(layout, arm, 'base', index), cellOf(layout, arm, to, index)];
  const cells = [];
  for (let p = from; p <= to; p++) cells.push(cellOf(layout, arm, p, index));
  return cells;
}

/** The centre of a cell in the SVG's units. */
export function centreOf([r, c]) {
  return [(c + 0.5) * CELL, (r + 0.5) * CELL];
}

/**
 * One square of the board; `kind` (its class: `start`, `safe`, `home`, and its colour as
 * `data-colour`) lets the first-game guide point at it.
 */
function square(parent, [r, c], fill, label, labelClass = '', kind = {}) {
  el('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill, stroke: '#555',
    'stroke-width': 1, ...kind }, parent);
  if (label) {
    const t = el('text', { x: c * CELL + CELL / 2, y: r * CELL + CELL * 0.68,
      'text-anchor': 'middle', 'font-size': CELL * 0.5, fill: '#777', class: labelClass,
      'aria-hidden': 'true' }, parent);
    t.textContent = label;
  }
}

/** The rectangle of cells `[top, left, bottom, right]` turned `k` quarters. */
function turnRect([r0, c0, r1, c1], k) {
  const [a, b] = [turn([r0, c0], k), turn([r1, c1], k)];
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
}

/** The rows and columns the board covers: the whole square, or less when arms are missing. */
function bounds(layout) {
  const cells = [...layout.track, ...layout.turns.flatMap((k) => {
    const [r0, c0, r1, c1] = turnRect(layout.base.rect, k);
    return [[r0, c0], [r1, c1]];
  })];
  const rows = cells.map(([r]) => r);
  const cols = cells.map(([, c]) => c);
  return [Math.min(...rows), Math.min(...cols), Math.max(...rows), Math.max(...cols)];
}

/** The rectangle `[top, left, bottom, right]` of the base of the seat on `arm`, in cells. */
function baseRect(layout, arm) {
  return turnRect(layout.base.rect, layout.turns[arm]);
}

/**
 * The bases and home columns. `marks.active` is the seat to play (its base outlined), and
 * `marks.you` the person's own seat (its base labelled `marks.youLabel`). The horse board's home
 * cells carry their numbers, 1 by the track to 6 by the centre, as players of cờ cá ngựa count them.
 */
function drawBases(svg, layout, seats, t, marks) {
  layout.turns.forEach((k, arm) => {
    const colour = layout.colours[arm];
    const [r0, c0, r1, c1] = turnRect(layout.base.rect, k);
    const inset = layout.base.inset;
    const active = marks.active === colour;
    el('rect', { x: c0 * CELL, y: r0 * CELL, width: (c1 - c0 + 1) * CELL,
      height: (r1 - r0 + 1) * CELL, fill: FILL[colour],
      opacity: seats.includes(colour) ? 0.9 : 0.25, class: active ? 'base active' : 'base',
      'data-colour': colour }, svg);
    const yard = el('rect', { x: (c0 + inset) * CELL, y: (r0 + inset) * CELL,
      width: (c1 - c0 + 1 - 2 * inset) * CELL, height: (r1 - r0 + 1 - 2 * inset) * CELL,
      fill: '#fff', rx: 8 }, svg);
    yard.setAttribute('role', 'img');
    yard.setAttribute('aria-label', t(`seat.${colour}`));
    // The seat's mark in the yard, faint: between the spots of a square yard, behind the row of
    // spots of a flat one.
    const roomy = Math.min(r1 - r0, c1 - c0) >= 5;
    const size = roomy ? 1.2 : 2;
    const mark = el('text', { x: ((c0 + c1 + 1) / 2) * CELL, y: ((r0 + r1 + 1) / 2 + size * 0.3) * CELL,
      'text-anchor': 'middle', 'font-size': CELL * size, fill: FILL[colour],
      opacity: roomy ? 0.35 : 0.2, 'aria-hidden': 'true' }, svg);
    mark.textContent = MARK[colour];
    if (marks.you === colour) {
      // "you" on the base's coloured band, along its longer side.
      const band = inset * CELL;
      const label = el('text', { x: ((c0 + c1 + 1) / 2) * CELL, y: r0 * CELL + band * 0.78,
        'text-anchor': 'middle', 'font-size': band * 0.8, class: 'you-label', 'aria-hidden': 'true',
        'data-colour': colour }, svg);
      label.textContent = marks.youLabel;
    }
    const numbered = layout.board === 'horse';
    layout.shape.home.forEach((cell, i) => square(svg, turn(cell, k), FILL[colour],
      numbered ? String(i + 1) : MARK[colour], numbered ? 'home-number' : '',
      { class: 'home', 'data-colour': colour }));
  });
}

function drawTrack(svg, layout) {
  const safe = new Set(layout.safe);
  const starts = new Map(layout.starts.map((square, arm) => [square, arm]));
  layout.track.forEach((cell, i) => {
    const arm = starts.get(i);
    const fill = arm === undefined ? '#fff' : FILL[layout.colours[arm]];
    const kind = arm === undefined ? {} : { class: 'start', 'data-colour': layout.colours[arm] };
    if (safe.has(i)) kind.class = kind.class ? `${kind.class} safe` : 'safe';
    square(svg, cell, fill, safe.has(i) && arm === undefined ? '★' : '', '', kind);
  });
}

function drawCentre(svg, layout) {
  if (!layout.shape.centre) {
    el('rect', { x: 7 * CELL, y: 7 * CELL, width: CELL, height: CELL, fill: '#eee',
      stroke: '#555' }, svg);
    return;
  }
  el('rect', { x: 6 * CELL, y: 6 * CELL, width: 3 * CELL, height: 3 * CELL, fill: '#eee',
    stroke: '#555' }, svg);
  // Each arm's finish: a triangle of its colour pointing to the middle.
  layout.turns.forEach((k, arm) => {
    const points = [[6, 6], [9, 6], [7.5, 7.5]].map((p) => turn(p, k, 15))
      .map(([r, c]) => `${c * CELL},${r * CELL}`).join(' ');
    el('polygon', { points, fill: FILL[layout.colours[arm]], opacity: 0.55, stroke: '#555' }, svg);
  });
  // Where arms meet across the centre, a dashed line shows the track goes straight on.
  layout.track.forEach((cell, i) => {
    const next = layout.track[(i + 1) % layout.track.length];
    if (Math.max(Math.abs(next[0] - cell[0]), Math.abs(next[1] - cell[1])) <= 1) return;
    const [x1, y1] = centreOf(cell);
    const [x2, y2] = centreOf(next);
    el('line', { x1, y1, x2, y2, stroke: '#888', 'stroke-width': 2, 'stroke-dasharray': '6 6',
      class: 'link' }, svg);
  });
}

/** The tap target, in CSS pixels, of anything a finger picks on the board: above the 44 px minimum. */
const TARGET_PX = 48;

/**
 * What stays drawn in an SVG between two positions of one game, by SVG: the board's own squares
 * (bases, track, centre), drawn once for a game's `geometry` and `key` (its seats and who "you"
 * are) as the first `count` children (the last of them `last`), and the width the board is shown
 * at (kept by a `ResizeObserver`, so that drawing never asks the browser to lay the page out).
 */
const kept = new WeakMap();

/** SVG units in one CSS pixel of the board as it is shown (1 while it is not shown). */
function unitsPerPixel(svg, width) {
  let shown = kept.get(svg)?.shown;
  if (shown === undefined) shown = svg.getBoundingClientRect?.().width;
  return shown ? width / shown : 1;
}

/**
 * Draws the board's own squares into `svg` for `geometry` (laid out as `layout`), unless they are
 * there already from the last position drawn, in which case only what was drawn after them goes.
 * The seat to play (`marks.active`) is outlined either way.
 */
function drawSquares(svg, geometry, layout, seats, t, marks) {
  const key = [seats.join(), marks.you ?? '', marks.youLabel ?? ''].join('|');
  const before = kept.get(svg);
  const same = before?.geometry === geometry && before.key === key && before.last?.parentNode === svg
    && svg.children[before.count - 1] === before.last;
  if (same) {
    while (svg.lastElementChild !== before.last) svg.lastElementChild.remove();
    for (const base of svg.querySelectorAll(':scope > rect.base')) {
      base.classList.toggle('active', base.dataset.colour === marks.active);
    }
    return;
  }
  svg.replaceChildren();
  const [top, left, bottom, right] = bounds(layout);
  const width = (right - left + 1) * CELL;
  svg.setAttribute('viewBox', `${left * CELL} ${top * CELL} ${width} ${(bottom - top + 1) * CELL}`);
  svg.dataset.arms = String(layout.arms);
  drawBases(svg, layout, seats, t, marks);
  drawTrack(svg, layout);
  drawCentre(svg, layout);
  const record = { geometry, key, count: svg.childElementCount, last: svg.lastElementChild, shown: before?.shown };
  if (!before && globalThis.ResizeObserver) {
    new ResizeObserver(([entry]) => {
      const now = kept.get(svg);
      if (now) now.shown = entry.target.getBoundingClientRect().width;
    }).observe(svg);
  }
  kept.set(svg, record);
}

/** A piece's radius at full size, in cells: about 26 CSS px on a 360 px phone. */
const PIECE = 0.58;
/**
 * Where the stacks of up to four colours sharing a square stand, in cells from its centre (row,
 * column): apart enough that each shows its mark and its count, which sits on its outer side.
 */
const FAN = {
  1: [[0, 0]],
  2: [[-0.36, -0.36], [0.36, 0.36]],
  3: [[-0.4, -0.4], [-0.4, 0.4], [0.4, 0]],
  4: [[-0.4, -0.4], [-0.4, 0.4], [0.4, -0.4], [0.4, 0.4]],
};

/**
 * Where every piece is drawn, and how big: each colour's pieces on one square make one stack,
 * drawn as one piece at full size with a count (`count` on the piece on top, the one that answers
 * for the stack); stacks of different colours on one square are fanned out (a little smaller when
 * three or four share it). Finished pieces stand on their own spots in the middle, small enough
 * that they can be counted; a flat base's spots are closer than a square yard's.
 */
function placePieces(layout, position, targetOf) {
  const placed = [];
  for (const colour of position.seats) {
    const arm = layout.seat_arms[colour];
    let finished = 0;
    position.pieces[colour].forEach((progress, index) => {
      const isFinished = progress === layout.last && layout.shape.centre;
      const cell = cellOf(layout, arm, progress, index, isFinished ? finished++ : 0);
      placed.push({ colour, index, progress, cell, finished: isFinished });
    });
  }
  const squares = new Map();
  for (const p of placed) {
    const key = p.cell.join(',');
    if (!squares.has(key)) squares.set(key, new Map());
    const stacks = squares.get(key);
    stacks.set(p.colour, [...(stacks.get(p.colour) ?? []), p]);
  }
  const drawn = [];
  for (const stacks of squares.values()) {
    const fan = FAN[Math.min(stacks.size, 4)];
    [...stacks.values()].forEach((stack, i) => {
      const [r, c] = stack[0].cell;
      // A finished piece has a spot of its own (FINISHED_SPOTS): it stands on it as it is.
      const [dr, dc] = stack[0].finished ? [0, 0] : fan[i];
      const centre = [(c + 0.5 + dc) * CELL, (r + 0.5 + dr) * CELL];
      const size = stack[0].finished ? 0.2 : stack[0].progress === 'base' && layout.arms !== 4 ? 0.46
        : stacks.size > 2 ? 0.44 : PIECE;
      const targetOfPiece = (p) => (p.colour === position.turn.seat ? targetOf.get(p.index) : undefined);
      // On top: the piece whose move the stack makes, else its first.
      const top = stack.find((p) => targetOfPiece(p)?.pieces[0] === p.index) ?? stack[0];
      // The count on the stack's outer side (top right when it stands alone).
      const away = Math.hypot(dr, dc) || 1;
      const badge = fan.length === 1 ? [-0.7, 0.7] : [(dr / away) * 0.7, (dc / away) * 0.7];
      for (const p of stack) {
        drawn.push({ p, centre, radius: CELL * size, target: targetOfPiece(p),
          count: p === top ? stack.length : 0, badge });
      }
    });
  }
  return drawn;
}

/**
 * Draws `position` into `svg` and returns the layout drawn: the pieces, their targets and all that
 * goes with them are drawn afresh from the position every time, the board's squares once a game
 * (see `drawSquares`). `how`:
 * - `legal`: the moves on offer; pieces with the same move (all in the base, or stacked on one
 *   square) are one target, the first of them, with a hit area of at least 44 CSS px;
 * - `onPick(piece)`: a target picked (one tap, a drag onto its destination, a click, Enter or
 *   Space: see gestures.js), `onPreview(piece)` when a target is pointed at, held, dragged or
 *   focused, and `onPreview(null)` when it no longer is;
 * - `active`: the seat to play, its base outlined; `you` and `youLabel`: the person's seat, its
 *   base labelled;
 * - `t`: the translator.
 */
export function drawBoard(svg, position, geometry, how = {}) {
  const { legal = [], onPick = null, onPreview = null, t = (k) => k } = how;
  const layout = layoutOf(geometry);
  drawSquares(svg, geometry, layout, position.seats, t, { active: how.active, you: how.you, youLabel: how.youLabel });
  const [, left, , right] = bounds(layout);
  layout.unitsPerPixel = unitsPerPixel(svg, (right - left + 1) * CELL);
  // One target for each distinct move: the first piece of those that make it.
  const targets = new Map();
  for (const move of legal) {
    const key = String(move.from);
    if (!targets.has(key)) targets.set(key, { move, pieces: [] });
    targets.get(key).pieces.push(move.piece);
  }
  const targetOf = new Map([...targets.values()].flatMap((g) => g.pieces.map((p) => [p, g])));
  const drawn = placePieces(layout, position, targetOf);
  // The pieces that can move are drawn last, on top, so nothing covers them; in a stack, the one
  // that answers for it (with the count) on top of the others.
  drawn.sort((a, b) => Number(Boolean(a.target)) - Number(Boolean(b.target)) || a.count - b.count);
  const centres = new Map(drawn.map((d) => [`${d.p.colour}/${d.p.index}`, d]));
  const hits = [];
  const destinations = new Map();
  const roleOf = (d) => (!d.target ? 'still' : d.target.pieces[0] === d.p.index ? 'target' : 'same');
  for (const d of drawn) {
    if (roleOf(d) !== 'target' || !onPick) continue;
    hits.push(hitArea(d.target.pieces.map((i) => centres.get(`${d.p.colour}/${i}`)), d.p.index, layout));
    const move = d.target.move;
    destinations.set(d.p.index, centreOf(cellOf(layout, layout.seat_arms[d.p.colour], move.to, move.piece)));
  }
  drawHits(svg, hits);
  const markers = new Map();
  for (const d of drawn) {
    const g = drawPiece(svg, layout, d, roleOf(d), d.target?.move, { onPick, onPreview, t });
    if (roleOf(d) === 'target') markers.set(d.p.index, g);
  }
  setTargets(svg, { hits: onPick ? hits : [], destinations, marker: (piece) => markers.get(piece),
    onPick: (piece) => onPick?.(piece), onPreview: (piece) => onPreview?.(piece) });
  return layout;
}

/**
 * Where a piece at `progress` is, in words that need no numbering of the track: in the base, so
 * many squares before its home column, on a square of its home column, or finished.
 */
function placeWords(layout, progress, t) {
  if (progress === 'base') return t('place.base');
  if (progress >= layout.finished_from) return t('place.finished');
  if (progress > layout.door) return t('place.homeColumn', { n: progress - layout.door });
  return t('place.track', { n: layout.door - progress + 1 });
}

/**
 * Whether a piece of the seat on `arm` at `progress` stands on a safe square of the track
 * (`layout`: the board's numbers, as the engine gives them or as drawn).
 */
export function onSafeSquare(layout, arm, progress) {
  return typeof progress === 'number' && progress <= layout.door
    && (layout.safe ?? []).includes((layout.starts[arm] + progress) % layout.track_len);
}

/** Where a piece of the seat on `arm` at `progress` is, in words, and whether it is safe there. */
export function placeText(layout, arm, progress, t) {
  const place = placeWords(layout, progress, t);
  return onSafeSquare(layout, arm, progress) ? t('place.onSafe', { place }) : place;
}

/** Where `move` takes its piece, in words: the place, and what it captures or that it is safe. */
function destinationText(layout, arm, move, t) {
  const place = placeWords(layout, move.to, t);
  if (move.captures.length) {
    const victims = [...new Set(move.captures.map((c) => t(`seat.${c.seat}`)))].join(', ');
    return t('move.captures', { place, victims });
  }
  return onSafeSquare(layout, arm, move.to) ? t('move.safe', { place }) : place;
}

/**
 * The hit area of a target: a circle round the pieces making its move (`group`, with their
 * centres), at least 48 CSS px across.
 */
function hitArea(group, piece, layout) {
  const x = group.reduce((s, d) => s + d.centre[0], 0) / group.length;
  const y = group.reduce((s, d) => s + d.centre[1], 0) / group.length;
  const reach = Math.max(...group.map((d) => Math.hypot(d.centre[0] - x, d.centre[1] - y) + d.radius));
  return { piece, x, y, r: Math.max(reach, (TARGET_PX / 2) * layout.unitsPerPixel) };
}

/**
 * The hit areas, under every piece: a piece itself always answers for itself, and a press beside
 * the pieces goes to the nearest target whose area it falls in, so targets on neighbouring
 * squares share the space between them fairly (see gestures.js, which reads them).
 */
function drawHits(svg, hits) {
  if (!hits.length) return;
  const layer = el('g', { class: 'hits', 'aria-hidden': 'true' }, svg);
  for (const hit of hits) el('circle', { cx: hit.x, cy: hit.y, r: hit.r, class: 'hit', 'data-piece': hit.piece }, layer);
}

/**
 * One piece. A `target` answers for every piece making its move; a piece of the `same` move is
 * outlined but left to its target (its hit area covers it); a `still` piece is only described.
 */
function drawPiece(svg, layout, { p, centre: [cx, cy], radius, count, badge }, role, move, how) {
  const { colour, index, progress } = p;
  const { onPick, onPreview, t } = how;
  const offered = role !== 'still';
  const g = el('g', { class: role === 'target' ? 'piece legal' : offered ? 'piece same-move' : 'piece',
    'data-colour': colour, 'data-piece': index }, svg);
  // A white ring inside a dark edge: a piece stands out from a square of its own colour.
  el('circle', { cx, cy, r: radius, fill: FILL[colour], stroke: offered ? '#000' : '#222',
    'stroke-width': offered ? 4 : 2 }, g);
  el('circle', { cx, cy, r: radius * 0.78, fill: 'none', stroke: '#fff', 'stroke-width': radius * 0.12,
    'aria-hidden': 'true' }, g);
  const label = el('text', { x: cx, y: cy + radius * 0.38, 'text-anchor': 'middle',
    'font-size': radius * 1.05, fill: '#fff', 'aria-hidden': 'true', class: 'mark' }, g);
  label.textContent = MARK[colour];
  if (count > 1) drawCount(g, cx + radius * badge[1], cy + radius * badge[0], count);
  const arm = layout.seat_arms[colour];
  const names = { colour: t(`seat.${colour}`), piece: index + 1, where: placeText(layout, arm, progress, t) };
  g.dataset.progress = String(progress);
  if (role !== 'target' || !onPick) {
    g.setAttribute('role', 'img');
    g.setAttribute('aria-label', t('piece.at', names));
    return g;
  }
  g.setAttribute('tabindex', '0');
  g.setAttribute('role', 'button');
  g.setAttribute('aria-label', t('piece.move', { ...names, to: destinationText(layout, arm, move, t) }));
  // A click that ends a tap or a drag was handled as one (gestures.js); a click alone (a screen
  // reader's activation) picks.
  g.addEventListener('click', () => {
    if (!handledByGesture(svg)) onPick(index);
  });
  g.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onPick(index);
  });
  if (onPreview) {
    g.addEventListener('pointerenter', (e) => e.pointerType !== 'touch' && onPreview(index));
    g.addEventListener('pointerleave', (e) => e.pointerType !== 'touch' && onPreview(null));
    g.addEventListener('focus', () => onPreview(index));
    g.addEventListener('blur', () => onPreview(null));
  }
  return g;
}

/** The number of pieces in a stack, on a white disc at the edge of the piece on top. */
function drawCount(g, x, y, count) {
  el('circle', { cx: x, cy: y, r: CELL * 0.3, fill: '#fff', stroke: '#111', 'stroke-width': 2,
    'aria-hidden': 'true', class: 'count' }, g);
  const number = el('text', { x, y: y + CELL * 0.14, 'text-anchor': 'middle', 'font-size': CELL * 0.42,
    'font-weight': 700, fill: '#111', 'aria-hidden': 'true', class: 'count' }, g);
  number.textContent = String(count);
}

/**
 * Shows where `move` (of a piece of `colour`) would go on the board `layout` was drawn for: a
 * ghost of the piece on its destination, and a cross over every piece it would capture; the
 * ghost's group. `null` clears it. With `keep`, the ghosts shown stay (two moves compared).
 */
export function drawPreview(svg, layout, colour, move, keep = false) {
  if (!keep) for (const node of svg.querySelectorAll('.preview')) node.remove();
  if (!move) return null;
  const arm = layout.seat_arms[colour];
  const [x, y] = centreOf(cellOf(layout, arm, move.to, move.piece));
  const ghost = el('g', { class: 'preview', 'aria-hidden': 'true' }, svg);
  el('circle', { cx: x, cy: y, r: CELL * 0.4, fill: FILL[colour], 'fill-opacity': 0.35,
    stroke: '#000', 'stroke-width': 3, 'stroke-dasharray': '5 4' }, ghost);
  if (move.captures.length) {
    el('circle', { cx: x, cy: y, r: CELL * 0.5, class: 'preview-capture' }, ghost);
    const d = CELL * 0.3;
    el('path', { d: `M${x - d} ${y - d}L${x + d} ${y + d}M${x + d} ${y - d}L${x - d} ${y + d}`,
      class: 'preview-capture' }, ghost);
  }
  // The ghost never takes a tap meant for the pieces under it.
  svg.append(ghost);
  return ghost;
}

/** The centre, in SVG units, of where the dice of the seat on `arm` stand, and the base round it. */
export function diceSpot(layout, arm) {
  const [r0, c0, r1, c1] = baseRect(layout, arm);
  return { centre: centreOf(turn(layout.base.dice, layout.turns[arm])),
    base: { x: c0 * CELL, y: r0 * CELL, width: (c1 - c0 + 1) * CELL, height: (r1 - r0 + 1) * CELL } };
}

/**
 * Turns the board drawn in `svg` so that the base of `colour` is at the bottom left, as far as the
 * board's shape allows (a cross any quarter; the horizontal and T boards, which are not square,
 * only half a turn), or shows it as drawn when `colour` is null. The whole drawing turns, pieces,
 * dice and targets with it (a pointer's place is read through the turn); its marks, numbers and
 * words stay upright (app.css, `#board[data-turn]`). Returns the quarter turns, clockwise.
 */
export function turnBoard(svg, layout, colour) {
  const arm = colour === null ? undefined : layout.seat_arms[colour];
  let best = 0;
  if (arm !== undefined) {
    const { base } = diceSpot(layout, arm);
    const [x, y, width, height] = svg.getAttribute('viewBox').split(' ').map(Number);
    // The base's centre from the board's: turned a quarter clockwise, (dx, dy) becomes (-dy, dx).
    let [dx, dy] = [base.x + base.width / 2 - (x + width / 2), base.y + base.height / 2 - (y + height / 2)];
    const allowed = layout.arms === 4 ? [0, 1, 2, 3] : [0, 2];
    let score = -Infinity;
    for (let q = 0; q < 4; q++) {
      if (allowed.includes(q) && dy - dx > score + 1e-9) [best, score] = [q, dy - dx];
      [dx, dy] = [-dy, dx];
    }
  }
  svg.dataset.turn = String(best);
  svg.style.transform = best ? `rotate(${best * 90}deg)` : '';
  const label = svg.querySelector('.you-label');
  if (label) labelOnTop(label, layout, best);
  return best;
}

/**
 * Puts the "you" on its base's band that the turn brings to the top of the screen (the top band
 * unturned; the left one after a quarter turn clockwise, and so on), where it reads upright.
 */
function labelOnTop(label, layout, quarters) {
  const { base } = diceSpot(layout, layout.seat_arms[label.dataset.colour]);
  const band = layout.base.inset * CELL;
  const size = Number(label.getAttribute('font-size'));
  const middle = [base.x + base.width / 2, base.y + base.height / 2];
  const [x, y] = [
    [middle[0], base.y + band / 2],
    [base.x + band / 2, middle[1]],
    [middle[0], base.y + base.height - band / 2],
    [base.x + base.width - band / 2, middle[1]],
  ][quarters];
  label.setAttribute('x', x);
  label.setAttribute('y', y + size * 0.35);
}

/** The size of one board cell in SVG units. */
export const CELL_SIZE = CELL;

/** The line that says whose turn it is, or the places at the end (the replay viewer's). */
export function statusText(position, t, nameOf = () => null) {
  if (position.turn.phase === 'over') {
    const order = [...position.seats].sort((a, b) => position.places[a] - position.places[b]);
    const places = order.map((s) => `${position.places[s]}. ${t(`seat.${s}`)}`).join('  ');
    return `${t('turn.over')}: ${places}`;
  }
  const { phase, roll } = position.turn;
  const seat = t(`seat.${position.turn.seat}`);
  // A person at an online table is named with their colour ("Ana (red △) to throw").
  const name = nameOf(position.turn.seat);
  const kind = name ? 'turnOf' : 'turn';
  const words = { seat, name, dice: roll?.join(' + ') };
  // A seat choosing its move: what it threw is said in words, not left as a bare number.
  if (phase === 'move' && roll) return t(`${kind}.moveThrew`, words);
  return t(`${kind}.${phase}`, words);
}

/**
 * Fills `table` with every option in force (`engine.options(position)`), one row each; with the
 * preset's own options (`defaults`), the caption names the preset and how many house rules
 * differ from it, and each of those rows is marked.
 */
export function drawRulesInForce(table, inForce, t, defaults = null) {
  const changed = (name, value) => defaults && JSON.stringify(defaults[name]) !== JSON.stringify(value);
  const rows = ordered(inForce.options).map(([name, value]) => {
    const row = document.createElement('tr');
    const label = document.createElement('th');
    label.textContent = optionLabel(name, t);
    const cell = document.createElement('td');
    cell.textContent = valueLabel(value, t);
    if (changed(name, value)) {
      row.className = 'changed';
      cell.textContent += ` (${t('rules.changedMark')})`;
    }
    row.append(label, cell);
    return row;
  });
  const count = Object.entries(inForce.options).filter(([name, value]) => changed(name, value)).length;
  const caption = document.createElement('caption');
  const preset = t(`presetName.${inForce.preset}`);
  caption.textContent = count === 0 ? preset
    : t(count === 1 ? 'rules.withOneChange' : 'rules.withChanges', { preset, n: count });
  table.replaceChildren(caption, ...rows);
  table.dataset.preset = inForce.preset;
}
