// Leaderboards and players' pages, drawn from the server's records API.

import { askServer } from '../room/identity.js';
import { element, svgElement } from '../dom.js';

const PRESETS = ['qdan', 'classic', 'vietnamese'];

function link(href, text) {
  return element('a', { href, textContent: text });
}

async function fetchJson(path) {
  const response = await askServer(path);
  const answer = await response.json();
  // The server's refusal by its code (`no_such_player`…), for the page to say it in its words.
  if (!response.ok) throw Object.assign(new Error(answer.message), { code: answer.code });
  return answer;
}

/** A table of `rows` under `headers`, in a box that scrolls sideways rather than the page. */
function table(headers, rows) {
  const t = element('table');
  const head = t.createTHead().insertRow();
  for (const h of headers) head.append(element('th', { scope: 'col', textContent: h }));
  const body = t.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    for (const cell of cells) row.insertCell().append(cell);
  }
  const box = element('div');
  box.className = 'records-table';
  box.append(t);
  return box;
}

const rating = (r) => String(Math.round(r));

/** A rating as the records write it: rounded, with "?" while provisional (`1532`, `1500?`). */
export const ratingText = ({ rating: r, provisional }) => rating(r) + (provisional ? '?' : '');
const date = (ms) => new Date(ms).toLocaleDateString(document.documentElement.lang);

/** The leaderboard of `preset` in `container`, with links to the other presets' boards. */
export async function showLeaderboard(container, preset, t) {
  const board = await fetchJson(`/api/leaderboard/${preset}`);
  const tabs = element('nav');
  tabs.className = 'records-tabs';
  for (const p of PRESETS) {
    const tab = link(`/leaderboard/${p}`, t(`presetName.${p}`));
    if (p === preset) tab.setAttribute('aria-current', 'page');
    tabs.append(tab);
  }
  const rows = board.players.map((p, i) => [
    String(i + 1),
    link(`/players/${p.id}`, p.name),
    ratingText(p),
    String(p.games),
  ]);
  const body = rows.length
    ? table([t('records.rank'), t('records.player'), t('records.rating'), t('records.games')], rows)
    : element('p', { textContent: t('records.empty') });
  // The "?" is explained where one shows.
  const provisional = board.players.some((p) => p.provisional) ? [element('p', { textContent: t('records.provisional') })] : [];
  container.replaceChildren(element('h2', { textContent: t('records.leaderboard') }), tabs, body, ...provisional);
}

/** A line chart of a rating history (`[{at, after}]`), as SVG. */
export function ratingChart(points, t) {
  const width = 320;
  const height = 140;
  const pad = 28;
  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'chart' });
  const values = points.map((p) => p.after);
  svg.setAttribute('aria-label', t('records.chart', {
    n: points.length, first: rating(points[0]?.before ?? 1500), last: rating(values.at(-1) ?? 1500),
  }));
  const all = [points[0]?.before ?? 1500, ...values];
  const low = Math.min(...all) - 10;
  const high = Math.max(...all) + 10;
  // Room on the left for the ratings' labels, set right-aligned clear of the first point.
  const left = 40;
  const x = (i) => left + (i * (width - left - pad)) / Math.max(1, all.length - 1);
  const y = (v) => height - pad + ((v - low) * (2 * pad - height)) / (high - low);
  const add = (tag, attrs, text) => {
    const node = svgElement(tag, attrs, svg);
    if (text !== undefined) node.textContent = text;
  };
  add('line', { x1: left, y1: height - pad, x2: width - pad, y2: height - pad, stroke: '#888' });
  add('text', { x: left - 8, y: y(high - 10) + 4, 'font-size': 12, 'text-anchor': 'end' }, rating(high - 10));
  add('text', { x: left - 8, y: y(low + 10) + 4, 'font-size': 12, 'text-anchor': 'end' }, rating(low + 10));
  add('polyline', {
    points: all.map((v, i) => `${x(i)},${y(v)}`).join(' '),
    fill: 'none', stroke: '#1f6fd1', 'stroke-width': 2,
  });
  all.forEach((v, i) => add('circle', { cx: x(i), cy: y(v), r: 2.5, fill: '#1f6fd1' }));
  return svg;
}

/**
 * A game's players, best place first ("1. Ana, 2. Bo"), each person a link to their page; a person
 * who left before the end, and whose seat the CPU played to it, is marked so ("Bo (left: the CPU
 * finished)"), since the place is the CPU's doing.
 */
function placesOf(seats, t) {
  const line = element('span');
  [...seats].sort((a, b) => (a.place ?? Infinity) - (b.place ?? Infinity)).forEach((seat, i) => {
    const name = seat.id ? link(`/players/${encodeURIComponent(seat.id)}`, seat.name) : seat.name;
    line.append(i ? ', ' : '', `${seat.place ?? '–'}. `, name);
    if (seat.left) line.append(' ', element('span', { className: 'left-game', textContent: t('records.left') }));
  });
  return line;
}

/** A player's page: ratings, rating history, statistics and recent games. */
export async function showPlayer(container, id, t) {
  const player = await fetchJson(`/api/players/${id}`);
  const parts = [element('h2', { textContent: player.name })];
  if (player.ratings.length) {
    parts.push(table([t('records.rules'), t('records.rating'), t('records.games')],
      player.ratings.map((r) => [
        link(`/leaderboard/${r.family}`, t(`presetName.${r.family}`)),
        ratingText(r),
        String(r.games),
      ])));
    // A rating marked "?" is still settling: said here as on the leaderboard.
    if (player.ratings.some((r) => r.provisional)) parts.push(element('p', { textContent: t('records.provisional') }));
  } else {
    parts.push(element('p', { textContent: t('records.unrated') }));
  }
  for (const family of PRESETS) {
    const points = player.history.filter((p) => p.family === family);
    if (points.length) parts.push(element('h3', { textContent: t(`presetName.${family}`) }), ratingChart(points, t));
  }
  const s = player.stats;
  parts.push(element('p', { id: 'player-stats', textContent: t('records.stats', {
    games: s.games, wins: s.wins,
    // In the page's language: "1,50" in French, "1.50" in English.
    mean: s.mean_place === null ? '—' : new Intl.NumberFormat(document.documentElement.lang,
      { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(s.mean_place),
    places: s.places.join(' / '),
  }) }));
  parts.push(element('h3', { textContent: t('records.recent') }));
  if (player.recent.length) {
    parts.push(table([t('records.date'), t('records.rules'), t('records.players'), ''],
      player.recent.map((g) => [
        date(g.finished_at),
        t(`presetName.${g.family}`) + (g.ranked ? ` · ${t('records.ranked')}` : ''),
        // Best place first: the order the game ended in, not the seats'; each person a link to
        // their own page.
        placesOf(g.seats, t),
        link(`/games/${g.id}`, t('records.replay')),
      ])));
  } else {
    parts.push(element('p', { textContent: t('records.noGames') }));
  }
  container.replaceChildren(...parts);
}

/** Fetches a stored game's record. */
export function fetchRecord(id) {
  return fetchJson(`/api/games/${id}`);
}
