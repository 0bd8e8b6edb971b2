// Draws the cross board in SVG from a position alone: track, safe squares, coloured starts and
// home columns, bases, pieces with their owner marks (yellow ○, blue □, red △, green ✚).

const SVG = 'http://www.w3.org/2000/svg';
export const COLOURS = ['yellow', 'blue', 'red', 'green'];
const FILL = { yellow: '#f2c200', blue: '#1f6fd1', red: '#d3322f', green: '#1c9a4b' };
const MARK = { yellow: '○', blue: '□', red: '△', green: '✚' };
const CELL = 40;

/** Turns a grid cell a quarter clockwise round the 15×15 board, `times` times. */
function turn([r, c], times) {
  for (let i = 0; i < times; i++) [r, c] = [c, 14 - r];
  return [r, c];
}

// Arm 0's track squares from its start, then its home column; the other arms are turned. The
// Ludo board brings 13 squares an arm and a finish in the centre; the horse board (cờ cá ngựa)
// 14, the inner corners included, and six home cells reaching the centre.
const LAYOUTS = {
  ludo: {
    arm: [[6, 1], [6, 2], [6, 3], [6, 4], [6, 5], [5, 6], [4, 6], [3, 6], [2, 6], [1, 6],
      [0, 6], [0, 7], [0, 8]],
    home: [[7, 1], [7, 2], [7, 3], [7, 4], [7, 5]],
    centre: true,
  },
  horse: {
    arm: [[6, 0], [6, 1], [6, 2], [6, 3], [6, 4], [6, 5], [6, 6], [5, 6], [4, 6], [3, 6],
      [2, 6], [1, 6], [0, 6], [0, 7]],
    home: [[7, 1], [7, 2], [7, 3], [7, 4], [7, 5], [7, 6]],
    centre: false,
  },
};
const BASE = [[1.5, 1.5], [1.5, 3.5], [3.5, 1.5], [3.5, 3.5]];

/** The drawing of a board whose numbers the engine gave (`engine.board(position)`). */
export function layoutOf(geometry) {
  const shape = LAYOUTS[geometry.board] ?? LAYOUTS.ludo;
  const track = [0, 1, 2, 3].flatMap((arm) => shape.arm.map((cell) => turn(cell, arm)));
  return { ...geometry, shape, track };
}

/** Where a piece of the seat on `arm` at `progress` stands, in grid cells. */
export function cellOf(layout, arm, progress, index, finishedBefore = 0) {
  if (progress === 'base') return turn(BASE[index], arm);
  if (progress <= layout.door) return layout.track[(layout.arm_len * arm + progress) % layout.track_len];
  const home = layout.shape.home[progress - layout.door - 1];
  if (home) return turn(home, arm);
  const spot = [[7, 6.2], [6.6, 6.6], [7.4, 6.6], [7, 7]][finishedBefore % 4];
  return turn(spot, arm);
}

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  parent?.append(node);
  return node;
}

function square(parent, [r, c], fill, label) {
  el('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill, stroke: '#555',
    'stroke-width': 1 }, parent);
  if (label) {
    const t = el('text', { x: c * CELL + CELL / 2, y: r * CELL + CELL * 0.68,
      'text-anchor': 'middle', 'font-size': CELL * 0.5, fill: '#777' }, parent);
    t.textContent = label;
  }
}

/**
 * Draws `position` into `svg`. `legal` moves are highlighted; `onPick(piece)` is called when the
 * player picks one of them. Returns nothing: the SVG is redrawn from the position every time.
 */
export function drawBoard(svg, position, geometry, legal = [], onPick = null, t = (k) => k) {
  const layout = layoutOf(geometry);
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${15 * CELL} ${15 * CELL}`);
  const seats = position.seats;
  for (let arm = 0; arm < 4; arm++) {
    const colour = COLOURS[arm];
    const [r0, c0] = turn([0, 0], arm);
    const x = Math.min(c0, turn([0, 5], arm)[1], turn([5, 0], arm)[1]);
    const y = Math.min(r0, turn([0, 5], arm)[0], turn([5, 0], arm)[0]);
    el('rect', { x: x * CELL, y: y * CELL, width: 6 * CELL, height: 6 * CELL, fill: FILL[colour],
      opacity: seats.includes(colour) ? 0.9 : 0.25 }, svg);
    const yard = el('rect', { x: (x + 1) * CELL, y: (y + 1) * CELL, width: 4 * CELL,
      height: 4 * CELL, fill: '#fff', rx: 8 }, svg);
    yard.setAttribute('aria-label', t(`seat.${colour}`));
    const mark = el('text', { x: (x + 3) * CELL, y: (y + 3.35) * CELL, 'text-anchor': 'middle',
      'font-size': CELL * 1.2, fill: FILL[colour], opacity: 0.35 }, svg);
    mark.textContent = MARK[colour];
    layout.shape.home.forEach((cell) => square(svg, turn(cell, arm), FILL[colour], MARK[colour]));
  }
  const safe = new Set(layout.safe);
  layout.track.forEach((cell, i) => {
    const arm = Math.floor(i / layout.arm_len);
    const start = i % layout.arm_len === 0;
    const fill = start ? FILL[COLOURS[arm]] : '#fff';
    square(svg, cell, fill, safe.has(i) && !start ? '★' : '');
  });
  if (layout.shape.centre) {
    el('rect', { x: 6 * CELL, y: 6 * CELL, width: 3 * CELL, height: 3 * CELL, fill: '#eee',
      stroke: '#555' }, svg);
  } else {
    el('rect', { x: 7 * CELL, y: 7 * CELL, width: CELL, height: CELL, fill: '#eee',
      stroke: '#555' }, svg);
  }
  const picks = new Map(legal.map((m) => [m.piece, m]));
  // Where every piece stands; pieces sharing a cell are fanned out so each stays visible.
  const placed = [];
  for (const colour of seats) {
    const arm = layout.seat_arms[colour];
    let finished = 0;
    position.pieces[colour].forEach((progress, index) => {
      const isFinished = progress === layout.last && layout.shape.centre;
      const cell = cellOf(layout, arm, progress, index, isFinished ? finished++ : 0);
      placed.push({ colour, index, cell });
    });
  }
  const sharing = new Map();
  for (const p of placed) {
    const key = p.cell.join(',');
    sharing.set(key, [...(sharing.get(key) ?? []), p]);
  }
  const drawn = [];
  for (const group of sharing.values()) {
    group.forEach((p, i) => {
      // Up to four pieces share a cell side by side, without overlapping: a 2×2 fan.
      const n = group.length;
      const offset = n === 1 ? [0, 0]
        : [(i % 2 ? 0.22 : -0.22) * CELL, (n === 2 ? 0 : i < 2 ? -0.22 : 0.22) * CELL];
      const legal = p.colour === position.turn.seat && picks.has(p.index);
      drawn.push({ p, offset, size: n > 1 ? 0.2 : 0.36, legal });
    });
  }
  // The pieces that can move are drawn last, on top, so nothing covers them.
  drawn.sort((a, b) => Number(a.legal) - Number(b.legal));
  for (const { p, offset, size } of drawn) {
    drawPiece(svg, p, offset, size, position, picks, onPick, t);
  }
}

function drawPiece(svg, { colour, index, cell: [r, c] }, [dx, dy], size, position, picks, onPick, t) {
  const mine = colour === position.turn.seat && picks.has(index);
  const g = el('g', { class: mine ? 'piece legal' : 'piece', 'data-colour': colour,
    'data-piece': index }, svg);
  const cx = (c + 0.5) * CELL + dx;
  const cy = (r + 0.5) * CELL + dy;
  el('circle', { cx, cy, r: CELL * size, fill: FILL[colour], stroke: mine ? '#000' : '#333',
    'stroke-width': mine ? 4 : 1.5 }, g);
  const label = el('text', { x: cx, y: cy + CELL * size * 0.45, 'text-anchor': 'middle',
    'font-size': CELL * size * 1.15, fill: '#fff' }, g);
  label.textContent = MARK[colour];
  if (mine && onPick) {
    g.setAttribute('tabindex', '0');
    g.setAttribute('role', 'button');
    g.setAttribute('aria-label', t('piece.move', { colour: t(`seat.${colour}`), piece: index + 1 }));
    g.addEventListener('click', () => onPick(index));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') onPick(index);
    });
  }
}

/** The line that says whose turn it is, or the places at the end. */
export function statusText(position, t, deadline = null) {
  if (position.turn.phase === 'over') {
    const order = [...position.seats].sort((a, b) => position.places[a] - position.places[b]);
    const places = order.map((s) => `${position.places[s]}. ${t(`seat.${s}`)}`).join('  ');
    return `${t('turn.over')}: ${places}`;
  }
  const roll = position.turn.roll ? ` (${position.turn.roll.join(' + ')})` : '';
  const left = deadline ? ` · ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s` : '';
  return t(`turn.${position.turn.phase}`, { seat: t(`seat.${position.turn.seat}`) }) + roll + left;
}

/** Fills `table` with every option in force (`engine.options(position)`), one row each. */
export function drawRulesInForce(table, inForce, t) {
  const rows = Object.entries(inForce.options).map(([name, value]) => {
    const row = document.createElement('tr');
    const label = document.createElement('th');
    label.textContent = t(`option.${name}`);
    const cell = document.createElement('td');
    cell.textContent = typeof value === 'boolean' ? t(value ? 'yes' : 'no')
      : Array.isArray(value) ? value.join(', ') || '—' : t(`value.${value}`);
    row.append(label, cell);
    return row;
  });
  const caption = document.createElement('caption');
  caption.textContent = t(`preset.${inForce.preset}`);
  table.replaceChildren(caption, ...rows);
}
