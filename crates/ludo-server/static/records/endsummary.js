// The analysis on a game's end card: the person's best move and most costly one, in one line
// with the way to the whole analysis under the replay. Loaded when an end card shows; the game's
// record comes from the replay link's `record()` (a local game, which has no page of its own) or
// from the server (an online game's `/games/<id>`). Only a game the Expert CPU has a network for
// (a preset without house rules, for the number of seats) with one person to speak to is summed
// up; otherwise the line stays hidden.

import { t } from '../i18n/i18n.js';
import { element } from '../dom.js';
import { analyse } from '../engine/cpu.js';
import { summarySentence } from './analysis.js';
import { expertPlays } from '../home/home.js';
import { myId } from '../home/ranked.js';

/** The record the end card's replay link leads to, or null. */
async function recordOf(link) {
  if (link.record) return link.record();
  const id = link.getAttribute('href')?.match(/^\/games\/(\w+)$/)?.[1];
  if (!id) return null;
  const response = await fetch(`/api/games/${id}`);
  return response.ok ? response.json() : null;
}

/** The seat of the person the card speaks to: this device's player, or a local game's one person. */
function personSeat(record) {
  const people = Object.entries(record.players ?? {}).filter(([, who]) => who.kind === 'person');
  const mine = people.find(([, who]) => who.id && who.id === myId());
  if (mine) return mine[0];
  return record.game_id?.startsWith('local-') && people.length === 1 ? people[0][0] : null;
}

/**
 * Writes into `line` (hidden until then) the person's best and most costly moves of the game
 * `link` leads to, with a link to the whole analysis; leaves it hidden when there is nothing to
 * say. `engine` is the page's (its worker makes the analysis).
 */
export async function summariseEnd(engine, line, link) {
  line.hidden = true;
  const record = await recordOf(link).catch(() => null);
  // A game saved without its actions (resumed from a position) has nothing to sum up.
  if (!Array.isArray(record?.seats) || !Array.isArray(record.actions)) return;
  const seat = record && personSeat(record);
  // Nothing is fetched for a game the network does not know.
  if (!seat || !expertPlays(record.rules, record.seats.length)) return;
  const analysis = await analyse(engine, record).catch(() => null);
  if (!analysis?.summary?.[seat]) return;
  const text = summarySentence(analysis, record, seat, t('analysis.you'), t);
  const more = element('a', { href: link.href, textContent: link.textContent, onclick: (event) => {
    event.preventDefault();
    link.click();
  } });
  line.replaceChildren(text, ' ', more);
  line.hidden = false;
}
