// What the tests of a game at the table share: playing the person's turn in a local game, starting
// a room against a CPU, the page's own words, holding server messages back, and where screenshots
// go.
import { mkdirSync } from 'node:fs';
import { personsTurn } from './browser.mjs';

/** Where screenshots go: LUDO_SHOTS, else a directory of the system's. */
export const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });

/** How many actions the local game saved on `page` holds. */
const savedActions = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].actions.length);

/**
 * Plays the person's next turn in a local game, once it comes: throws, or plays the first piece
 * offered; waits until the action is saved. Says `over` when the game ended instead.
 */
export async function playPersonsTurn(page) {
  const turn = await personsTurn(page);
  if (turn === 'over') return turn;
  const before = await savedActions(page);
  await page.click(turn === 'throw' ? '#roll' : '#board .piece.legal');
  await page.waitForFunction((n) => JSON.parse(localStorage.getItem('ludo.games'))[0].actions.length > n, before);
  return turn;
}

/** In the room open on `page`, its host (named Ana) sits at yellow, puts a CPU at red and starts. */
export async function startWithCpu(page) {
  // The host is seated at yellow when the room is made.
  await page.waitForSelector('#seats li[data-seat=yellow] .badge');
  await page.waitForFunction(() => document.querySelector('#seats li').textContent.includes('Ana'));
  // Red's second button adds a CPU, in any language.
  await page.click('#seats li:nth-child(3) button >> nth=1');
  await page.waitForSelector('#start:not([disabled])');
  await page.click('#start');
}

/** The words of the page's language for `key` (with `values`), from its own tables. */
export const words = (page, key, values = {}) => page.evaluate(async ([k, v]) => (await import('/i18n/i18n.js')).t(k, v),
  [key, values]);

/** Lets every server message through to the page except those `drop` picks. */
export async function filterServer(page, drop) {
  await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      if (!drop(JSON.parse(message))) ws.send(message);
    });
  });
}
