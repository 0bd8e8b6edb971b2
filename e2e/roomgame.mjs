// A room's game played to its end over the protocol, from a page of the site: for the tests of
// what is shown of a stored game (its replay, its analysis).
import { url } from './browser.mjs';

/**
 * Plays a game in a room from a page of the site opened in `browser`, over the protocol, under
 * `rules`: `name` (a person, at yellow) against the CPUs `cpus` (by colour, their levels), taking
 * the first legal move each time. The game's id, and the position the server announced at each
 * version (after that many actions).
 */
export async function playRoomGame(browser, rules, cpus, name = 'Ana') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url + '/');
  await page.waitForSelector('body[data-ready=true]');
  const game = await page.evaluate(async ({ rules, cpus, name }) => {
    const device = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, '0')).join('');
    const response = await fetch('/api/rooms', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ device, name, rules }),
    });
    const room = await response.json();
    if (!response.ok) throw new Error(`no room: ${JSON.stringify(room)}`);
    const socket = new WebSocket(`ws://${location.host}/ws`);
    const send = (message) => socket.send(JSON.stringify(message));
    return new Promise((resolve, reject) => {
      const positions = {};
      let started = false;
      socket.onopen = () => send({ t: 'hello', room: room.code, device, name });
      socket.onerror = () => reject(new Error('the socket failed'));
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.t === 'error') {
          reject(new Error(`refused: ${event.data}`));
        } else if (message.t === 'welcome') {
          send({ t: 'sit', colour: 'yellow' });
          for (const [colour, level] of Object.entries(cpus)) send({ t: 'add_cpu', colour, level });
        } else if (message.t === 'room' && !started
          && Object.keys(message.room.seats).length === Object.keys(cpus).length + 1) {
          started = true;
          send({ t: 'start' });
        } else if (message.t === 'game' || message.t === 'action') {
          const { id, version, position, legal } = message.game;
          positions[version] = position;
          if (position.turn.phase === 'over') {
            socket.close();
            resolve({ id, positions });
          } else if (position.turn.seat === 'yellow') {
            if (position.turn.phase === 'move') send({ t: 'move', piece: legal[0].piece, version });
            else send({ t: 'roll', version });
          }
        }
      };
    });
  }, { rules, cpus, name });
  await context.close();
  return game;
}
