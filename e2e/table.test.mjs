// Playing a game as a person sees it, in a real Chromium: refusals shown translated by the
// control that caused them, targets made for fingers, single moves playing themselves, sound that
// waits for the person, the connection lost and back, the horse board's numbered home cells, no
// serious accessibility violation, and screenshots of every screen at three sizes. What is timed
// (the timeline, the turn clock, a hidden tab) is in table-timing.test.mjs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessibilityViolations, launch, openWay, person, resume, url, yellowToMove,
} from './browser.mjs';
import { filterServer, playPersonsTurn, shots, startWithCpu, words } from './tables.mjs';

const browser = await launch();
after(() => browser.close());

test('while the connection is down the controls wait and the status says so; back, the person plays on', async () => {
  for (const [locale, name] of [['en', 'Ana'], ['pt-PT', 'Ana']]) {
    const host = await person(browser, '/', { locale, viewport: { width: 360, height: 640 } });
    // The page's connections go through here: while `down`, the one open is closed and every new
    // one refused, as when the network drops.
    let down = false;
    const open = [];
    await host.page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
      if (down) {
        ws.close();
        return;
      }
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => ws.send(message));
      open.push(ws);
    });
    await openWay(host.page, 'friends');
    await host.page.fill('#friends input[name=name]', name);
    await host.page.click('#friends button[type=submit]');
    await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
    await startWithCpu(host.page);
    const yourTurn = await words(host.page, 'status.you.roll');
    await host.page.waitForFunction((text) => document.getElementById('status').textContent === text
      && document.getElementById('roll').getAttribute('aria-disabled') !== 'true', yourTurn, { timeout: 15000 });
    down = true;
    for (const ws of open.splice(0)) ws.close();
    const lost = await words(host.page, 'online.reconnecting');
    await host.page.waitForFunction((text) => document.getElementById('status').textContent === text, lost);
    assert.ok(await host.page.isDisabled('#roll'), `${locale}: no throw that would not arrive`);
    assert.equal(await host.page.$('#die.ready'), null, `${locale}: the dice wait too`);
    await host.page.screenshot({ path: `${shots}/online-connection-lost-360x640-${locale}.png` });
    down = false;
    // Back, the person plays on: a throw, or a move if the CPU standing in for the time away had
    // thrown just before (the person takes the seat back at once, in the middle of the turn). The
    // test server's CPUs play without delay, so on a busy machine the CPU standing in may even
    // have finished the game by then: the page then shows its end.
    const yourMove = await words(host.page, 'status.you.move');
    const back = await (await host.page.waitForFunction(([roll, move]) => {
      if (!document.getElementById('end').hidden) return 'over';
      const status = document.getElementById('status').textContent;
      if (status === roll && document.getElementById('roll').getAttribute('aria-disabled') !== 'true') return 'throw';
      return status === move && document.querySelector('#board .piece.legal') && 'move';
    }, [yourTurn, yourMove], { timeout: 15000 })).jsonValue();
    if (back === 'over') {
      assert.ok(await host.page.isVisible('#end'), `${locale}: the game's end shows`);
    } else {
      // What the person does reaches the server and its answer the page: its line in the log
      // (the turn may be the person's again by the time it is drawn), pieces to choose from, or,
      // had the CPU's stand-in for the time away just played, the refusal saying the game moved on.
      const lines = await host.page.$$eval('#log li', (items) => items.length);
      await host.page.click(back === 'throw' ? '#roll' : '#board .piece.legal');
      await host.page.waitForFunction((before) => document.querySelectorAll('#log li').length > before
        || document.querySelector('#board .piece.legal') || !document.getElementById('notice').hidden,
      lines, { timeout: 15000 });
    }
    assert.deepEqual(host.errors, []);
    await host.page.context().close();
  }
});

test('a piece of the person\'s captured is said over the board, not only in the log', async () => {
  for (const [locale, words] of [['en', 'red △ captured your piece: it goes back to your base'],
    ['fr-FR', 'rouge △ a capturé votre pièce : elle retourne à votre base']]) {
    // Every die shows 3 (the browser's random bytes are fixed): red's piece on its progress 1
    // lands on yellow's, on yellow's progress 30, the same square.
    const context = await browser.newContext({ locale, viewport: { width: 360, height: 640 } });
    await context.addInitScript(() => {
      crypto.getRandomValues = (bytes) => bytes.fill(2);
    });
    const position = yellowToMove(30, 1);
    position.turn = { seat: 'red', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 };
    const { page, errors } = await resume(context, position, { players: { yellow: 'human', red: 'random' } });
    await page.waitForSelector('#notice:not([hidden])', { timeout: 15000 });
    assert.equal(await page.textContent('#notice'), words, locale);
    await page.screenshot({ path: `${shots}/captured-notice-360x640-${locale}.png` });
    // Gone once the person plays on.
    await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 15000 });
    await page.click('#roll');
    await page.waitForSelector('#notice', { state: 'hidden' });
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('refusals are shown in the reader’s language by the control that caused them', async () => {
  const french = { locale: 'fr-FR' };
  const host = await person(browser, '/', french);
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  const link = new URL(host.page.url()).pathname;
  await host.page.waitForSelector('#seats li[data-seat=yellow] .badge');
  // A guest whose page misses the table's changes offers a seat that is no longer free.
  const guest = await person(browser, '/', french);
  await filterServer(guest.page, (m) => m.t === 'room');
  await guest.page.goto(url + link);
  await guest.page.waitForSelector('#seats li:nth-child(3) button');
  // The host puts a CPU in red's seat (the second button there).
  await host.page.click('#seats li:nth-child(3) button >> nth=1');
  await host.page.waitForFunction(() => document.querySelectorAll('#seats li:nth-child(3) button').length === 1);
  await guest.page.click('#seats li:nth-child(3) button:first-of-type');
  await guest.page.waitForSelector('#lobby-notice:not(:empty)');
  const taken = await words(guest.page, 'refusal.seat_taken');
  assert.equal(await guest.page.textContent('#lobby-notice'), taken);
  assert.notEqual(taken, 'Someone already sits there.', 'not English');
  // A second tab of the host's that missed a throw: its own throw is refused, said by the dice.
  const tab = await host.page.context().newPage();
  await filterServer(tab, (m) => m.t === 'action');
  await tab.goto(url + link);
  await tab.waitForSelector('body[data-ready=true]');
  await host.page.click('#start');
  await tab.waitForSelector('#roll:not([aria-disabled=true])');
  await host.page.click('#roll');
  await host.page.waitForSelector('#log li, #die[data-values]:not([data-values=""])');
  await tab.click('#roll');
  await tab.waitForSelector('#notice:not([hidden])');
  const notice = await tab.textContent('#notice');
  const refusals = await Promise.all(['refusal.stale_version', 'refusal.not_your_turn', 'refusal.illegal_move']
    .map((key) => words(tab, key)));
  assert.ok(refusals.includes(notice), `a translated refusal: ${notice}`);
  assert.ok(!/[a-z]+_[a-z]+|the game is at version/.test(notice), 'no code and no server English');
  // The notice sits right under the board, by the dice that caused it.
  const [board, box] = [await tab.$eval('#board', (b) => b.getBoundingClientRect().bottom),
    await tab.$eval('#notice', (n) => n.getBoundingClientRect().top)];
  assert.ok(box - board < 20, 'the notice is by the board');
  assert.deepEqual([...host.errors, ...guest.errors], []);
});

test('a room with friends plays the house rules chosen, and says which differ from the preset', async () => {
  const host = await person(browser, '/');
  await openWay(host.page, 'friends');
  await host.page.click('#house-rules summary');
  await host.page.selectOption('select[data-option=passing]', '"free"');
  await host.page.selectOption('select[data-option=safe]', '"none"');
  await host.page.uncheck('#rotate');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  const code = host.page.url().split('/').pop();
  const room = await (await fetch(`${url}/api/rooms/${code}`)).json();
  assert.deepEqual(room.settings.rules, { preset: 'qdan', safe: 'none', passing: 'free' });
  assert.equal(room.settings.rotate, false, 'the same seat starts every game, as chosen');
  await startWithCpu(host.page);
  await host.page.waitForSelector('#players li');
  await host.page.click('#game-rules summary');
  assert.equal(await host.page.textContent('#rules-in-force caption'), 'Standard rules, 2 house rules changed');
  const changed = await host.page.$$eval('#rules-in-force tr.changed', (rows) => rows.map((r) => r.textContent));
  assert.deepEqual(changed, ['Safe squaresNone (changed)', 'What blocks a pieceNothing (changed)']);
  // A contradictory mix is refused before any room is made, in the reader's words.
  const again = await person(browser, '/');
  await openWay(again.page, 'friends');
  await again.page.click('#house-rules summary');
  await again.page.selectOption('select[data-option=dice]', '2');
  await again.page.fill('#friends input[name=name]', 'Bo');
  await again.page.click('#friends button[type=submit]');
  await again.page.waitForSelector('#friends-error:not(:empty)');
  assert.match(await again.page.textContent('#friends-error'), /^With two dice/);
  assert.deepEqual([...host.errors, ...again.errors], []);
});

test('a ranked table offers no CPU, and no start before two people sit', async () => {
  const host = await person(browser, '/');
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  // A ranked game with a friend: the host makes the table ranked in its settings, and it always
  // has a turn clock.
  await host.page.check('#room-settings input[name=ranked]');
  await host.page.waitForFunction(() => document.querySelector('#room-settings input[name=ranked]')?.checked
    && document.querySelector('#room-settings select[name=clock] option[value=""]')?.disabled);
  await host.page.waitForSelector('#seats li[data-seat=yellow] .badge');
  await host.page.waitForSelector('#seats .badge');
  const buttons = await host.page.$$eval('#seats button', (b) => b.map((n) => n.textContent));
  assert.ok(!buttons.includes('Add a CPU'), buttons.join(', '));
  assert.ok(await host.page.isDisabled('#start'), 'one seat cannot start');
  assert.equal(await host.page.textContent('#lobby-notice'), '');
  assert.deepEqual(host.errors, []);
});

test('house rules that contradict each other are refused in the reader’s language', async () => {
  const { page, errors } = await person(browser, '/', { locale: 'ru-RU' });
  await openWay(page, 'hot-seat');
  await page.click('#house-rules summary');
  await page.selectOption('select[name=preset]', 'vietnamese');
  await page.click('#house-rules input[data-option=exact_finish]');
  await page.click('#hot-seat button[type=submit]');
  const option = await words(page, 'option.exact_finish');
  const expected = await words(page, 'rules.error.horse_inexact_finish', { option });
  await page.waitForSelector('#options-error:not(:empty)');
  assert.equal(await page.textContent('#options-error'), expected);
  assert.match(expected, /[а-я]/, 'in Russian');
  assert.ok(await page.isHidden('#play'), 'no game starts');
  assert.deepEqual(errors, []);
});

test('a move with no choice plays itself after showing where it goes', async () => {
  const context = await browser.newContext();
  const { page, errors } = await resume(context, yellowToMove(20, 'base'), { autoplay: true });
  assert.equal(await page.$$eval('.piece.legal', (p) => p.length), 0, 'nothing to tap');
  assert.ok(await page.$('#board .preview'), 'the destination is previewed');
  assert.equal(await page.textContent('#status'), 'Your only move — it plays itself');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow[0] === 23);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone every target is 44 px or more; one tap plays; a tap on the dice throws', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  // A six with two pieces stacked on one square and two in the base: two moves, two targets.
  const { page, errors } = await resume(context, yellowToMove(20, 'base', [6], [20, 'base', 'base']));
  assert.equal(await page.$$eval('.piece.legal', (n) => n.length), 2,
    'the stacked pieces are one target, the base pieces another');
  const targets = await page.$$eval('#board .hit', (nodes) => nodes.map((n) => {
    const r = n.getBoundingClientRect();
    return [r.width, r.height];
  }));
  assert.equal(targets.length, 2, 'each target has its hit area');
  for (const [w, h] of targets) assert.ok(w >= 44 && h >= 44, `a target of ${w}×${h} px`);
  // One tap, and the piece moves.
  await page.tap('.piece.legal[data-piece="0"]');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow[0] === 26);
  // A six gives another throw: the dice are a target of their own, the whole base with them.
  await page.waitForSelector('#die.ready');
  const die = await page.$eval('#die', (d) => d.getBoundingClientRect());
  assert.ok(die.width >= 44 && die.height >= 44, `the dice's target is ${die.width}×${die.height} px`);
  await page.tap('#die');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.turn.throws === 2
    || JSON.parse(localStorage.getItem('ludo.games'))[0].position.turn.seat === 'red');
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 360×640 phone the board, dice, status and latest log line show without scrolling, and the game says "you"', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  assert.equal(await page.textContent('#status'), 'Your turn — throw');
  assert.equal(await page.textContent('#players li.you .badge'), 'you');
  assert.equal(await page.textContent('#board .you-label'), 'you');
  // The dice are a button: Space on them throws.
  await page.focus('#die');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].actions.length >= 1);
  // Play on until the log has a line (a throw of 6 waits for a move before anything is logged).
  await page.waitForFunction(() => document.querySelector('#log li')
    || document.querySelector('#board .piece.legal') || document.getElementById('roll').getAttribute('aria-disabled') !== 'true');
  while (!(await page.$('#log li'))) await playPersonsTurn(page);
  const boxes = await page.evaluate(() => Object.fromEntries(['#status', '#board', '#die', '#log li:last-child']
    .map((s) => [s, document.querySelector(s)?.getBoundingClientRect().bottom ?? null])));
  for (const [selector, bottom] of Object.entries(boxes)) {
    assert.ok(bottom !== null && bottom <= 640, `${selector} ends at ${bottom} px`);
  }
  assert.equal(await page.evaluate(() => scrollY), 0, 'nothing scrolled');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling (${width}px)`);
  assert.deepEqual(errors, []);
  await context.close();
});


test('at a phone\'s table the longest site name keeps to one line beside the language menu, which keeps its name', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'vi-VN' });
  await context.addInitScript(() => localStorage.setItem('ludo.guide', 'seen'));
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#play-now');
  await page.waitForSelector('#board rect');
  const title = await page.$eval('header h1', (h) => ({ text: h.textContent, lines: h.getClientRects().length,
    height: h.getBoundingClientRect().height, lineHeight: parseFloat(getComputedStyle(h).lineHeight) }));
  assert.equal(title.text, 'Cờ cá ngựa\u00a0· Ludo');
  assert.ok(title.height < 1.5 * title.lineHeight, `one line: ${title.height} px at ${title.lineHeight} px a line`);
  const menu = await page.$eval('#language', (s) => s.labels[0].querySelector('span').textContent);
  assert.equal(menu, 'Ngôn ngữ', 'the menu is still named for screen readers');
  await context.close();
});
test('sound waits for the first tap, and muting is remembered', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    globalThis.audioContexts = 0;
    const Real = globalThis.AudioContext;
    globalThis.AudioContext = class extends Real {
      constructor(...args) { super(...args); globalThis.audioContexts++; }
    };
  });
  const page = await context.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  assert.equal(await page.evaluate(() => globalThis.audioContexts), 0, 'no audio before the person acts');
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  await page.click('#roll');
  await page.waitForFunction(async () => ((await import('/game/sound.js')).played.throw ?? 0) >= 1);
  assert.equal(await page.getAttribute('#sound', 'aria-pressed'), 'true');
  await page.click('#sound');
  assert.equal(await page.getAttribute('#sound', 'aria-label'), 'Sound off');
  // The reload comes back to the game.
  await page.reload();
  await page.waitForSelector('body[data-ready=true] #play:not([hidden])');
  assert.equal(await page.getAttribute('#sound', 'aria-pressed'), 'false', 'still muted after a reload');
  const before = await page.evaluate(async () => (await import('/game/sound.js')).played.throw ?? 0);
  await page.waitForSelector('#roll:not([aria-disabled=true])', { timeout: 20000 });
  await page.click('#roll');
  await page.waitForTimeout(800);
  assert.equal(await page.evaluate(async () => (await import('/game/sound.js')).played.throw ?? 0), before, 'muted: silent');
  await context.close();
});

test('the horse board numbers its home cells 1 to 6', async () => {
  const page = await browser.newPage();
  await page.goto(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  await openWay(page, 'vs-cpu');
  await page.selectOption('select[name=preset]', 'vietnamese');
  await page.selectOption('select[name=opponents]', '1');
  await page.click('#vs-cpu button[type=submit]');
  const numbers = await page.$$eval('#board .home-number', (n) => n.map((t) => t.textContent));
  // Four arms of six cells, each numbered from the track inwards.
  assert.deepEqual(numbers, Array.from({ length: 4 }, () => ['1', '2', '3', '4', '5', '6']).flat());
  await page.close();
});

/** The sizes every screen of the table is photographed at: two phones and a desktop. */
const SIZES = [[360, 640], [390, 844], [1280, 800]];

/**
 * Photographs what `page` shows at every size of `SIZES` as `<name>-<width>x<height>-<language>`
 * (the whole page with `fullPage`), and leaves it at 390×844, the size the accessibility checks
 * read it at.
 */
async function photograph(page, name, language, { fullPage = false } = {}) {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${shots}/${name}-${width}x${height}-${language}.png`, fullPage });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

test('the game, the room and the end screen have no serious accessibility violations, and are photographed', async () => {
  // Each screen is reached once a language and photographed at each size (the page resized), so
  // that the photographs cost one game, one end and one room a language.
  for (const language of ['en', 'fr']) {
    const viewport = { width: 390, height: 844 };
    const context = await browser.newContext({ viewport, locale: language });
    await context.addInitScript(() => localStorage.setItem('ludo.pace', '1'));
    // The game.
    const page = await context.newPage();
    await page.goto(`${url}/?cpu-delay=0`);
    await page.waitForSelector('body[data-ready=true]');
    await photograph(page, 'home', language);
    await openWay(page, 'vs-cpu');
    await page.click('#vs-cpu button[type=submit]');
    for (let i = 0; i < 12; i++) {
      if (await page.isEnabled('#roll')) await page.click('#roll');
      await page.waitForTimeout(250);
    }
    await photograph(page, 'game', language);
    assert.deepEqual(await accessibilityViolations(page), [], `the game (${language})`);
    // The end: one move from winning (in a context of its own, where no other game is saved).
    await page.close();
    const endContext = await browser.newContext({ viewport, locale: language });
    const end = await resume(endContext, yellowToMove(53, 'base', [3], [56, 56, 56]),
      { players: { yellow: 'human', red: 'medium' } });
    await end.page.click('.piece.legal');
    await end.page.waitForSelector('#end:not([hidden])');
    assert.equal(await end.page.textContent('#end h2'), await words(end.page, 'end.youWon'));
    await photograph(end.page, 'end', language, { fullPage: true });
    assert.deepEqual(await accessibilityViolations(end.page), [], `the end (${language})`);
    await endContext.close();
    // A room before its game.
    const room = await context.newPage();
    await room.goto(`${url}/`);
    await room.waitForSelector('body[data-ready=true]');
    await openWay(room, 'friends');
    await room.fill('#friends input[name=name]', 'Ana');
    await room.click('#friends button[type=submit]');
    await room.waitForURL(/\/r\/[a-z0-9]+$/);
    await room.waitForSelector('#seats li[data-seat=yellow] .badge');
    await room.waitForSelector('#seats .badge');
    await photograph(room, 'room', language);
    assert.deepEqual(await accessibilityViolations(room), [], `the room (${language})`);
    await context.close();
  }
});

/** Where the centre of the first element `selector` matches is on the screen. */
const centreOn = (page, selector) => page.$eval(selector, (node) => {
  const r = node.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
});

/** A finger on the touch screen: put down, moved, lifted (Chromium's own touch events). */
async function finger(page) {
  const cdp = await page.context().newCDPSession(page);
  const at = (type, point) => cdp.send('Input.dispatchTouchEvent',
    { type, touchPoints: type === 'touchEnd' ? [] : [{ x: point.x, y: point.y }] });
  return { down: (p) => at('touchStart', p), move: (p) => at('touchMove', p), up: () => at('touchEnd') };
}

test('on a phone, pressing and holding a piece shows where it goes without playing, and a tap elsewhere takes that away', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  const { page, errors } = await resume(context, yellowToMove(20, 'base', [6], [20, 'base', 'base']));
  const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position);
  const before = await saved();
  const hand = await finger(page);
  await hand.down(await centreOn(page, '.piece.legal[data-piece="0"]'));
  // Held until the preview shows, however long a busy machine takes to show it.
  await page.waitForSelector('#board .preview');
  await hand.up();
  assert.ok(await page.$('#board .preview'), 'the preview stays once the finger is lifted');
  assert.deepEqual(await saved(), before, 'a hold plays nothing');
  // A tap on the board away from every piece: the top-left corner of the green base.
  const board = await page.$eval('#board', (b) => b.getBoundingClientRect().toJSON());
  await page.touchscreen.tap(board.x + 8, board.y + board.height - 8);
  await page.waitForFunction(() => !document.querySelector('#board .preview'));
  assert.deepEqual(await saved(), before, 'the tap elsewhere plays nothing either');
  // And one tap on the piece then plays it.
  await page.tap('.piece.legal[data-piece="0"]');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow[0] === 26);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a phone, a piece dragged onto where it goes plays; dropped anywhere else it plays nothing', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true });
  const { page, errors } = await resume(context, yellowToMove(20, 'base', [6], [20, 'base', 'base']));
  const saved = () => page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position);
  const before = await saved();
  const hand = await finger(page);
  const from = await centreOn(page, '.piece.legal[data-piece="0"]');
  // Dropped back where it came from: nothing moves.
  await hand.down(from);
  await hand.move({ x: from.x + 30, y: from.y });
  await page.waitForSelector('#board .carried');
  await hand.move(from);
  await hand.up();
  assert.equal(await page.$('#board .carried'), null, 'the carried piece goes');
  assert.deepEqual(await saved(), before, 'dropped off its destination, it plays nothing');
  // Dragged onto its destination (the preview drawn once it is carried): it plays.
  await hand.down(from);
  await hand.move({ x: from.x + 30, y: from.y });
  await page.waitForSelector('#board .preview');
  await hand.move(await centreOn(page, '#board .preview circle'));
  await hand.up();
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.pieces.yellow[0] === 26);
  assert.deepEqual(errors, []);
  await context.close();
});

test('on a 360 px phone a piece is drawn 26 px or more, and a stack shows as one piece with its count', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  // Two yellow pieces and two blue ones on blue's start (a safe square): two stacks of two.
  const position = yellowToMove(13, 'base', [6], [13, 'base', 'base']);
  position.seats = ['yellow', 'blue'];
  position.pieces = { yellow: [13, 13, 'base', 'base'], blue: [0, 0, 'base', 'base'] };
  const { page, errors } = await resume(context, position, { players: { yellow: 'human', blue: 'human' } });
  await page.waitForSelector('.piece.legal');
  const sizes = await page.$$eval('#board .piece circle:first-child', (cs) => cs.map((c) => c.getBoundingClientRect().width));
  console.log(`piece size at 360 px: ${Math.min(...sizes).toFixed(1)} px`);
  assert.ok(Math.min(...sizes) >= 26, `pieces of ${Math.min(...sizes)} px`);
  const counts = await page.$$eval('#board .piece text.count', (ts) => ts.map((t) => [t.closest('.piece').dataset.colour, t.textContent]));
  assert.deepEqual(counts.sort(), [['blue', '2'], ['yellow', '2']]);
  // Each stack's mark stays in view: the centres of the two stacks are apart by more than a radius.
  const centres = await page.$$eval('#board .piece', (ps) => ps.filter((p) => p.querySelector('.count'))
    .map((p) => { const r = p.querySelector('circle').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.width / 2]; }));
  const [[x1, y1, r], [x2, y2]] = centres;
  assert.ok(Math.hypot(x1 - x2, y1 - y2) > r * 1.5, 'the two stacks are fanned out');
  // Every piece is still said one by one to a screen reader, where it is in words (not a square's
  // number that means another cell for each colour), and where it would go.
  assert.equal(await page.$$eval('#board .piece[aria-label]', (ps) => ps.length), 8);
  assert.equal(await page.getAttribute('#board .piece[data-colour=blue][data-piece="0"]', 'aria-label'),
    'blue □ piece 1: 51 squares before the home column, on a safe square');
  assert.match(await page.getAttribute('#board .piece.legal[data-progress="13"]', 'aria-label'),
    /^Move yellow ○ piece \d, 38 squares before the home column, on a safe square → 32 squares before the home column$/);
  if (shots) await page.screenshot({ path: `${shots}/stacks-360.png` });
  assert.deepEqual(errors, []);
  await context.close();
});

/** Where the base of `colour` shows on the board: `left` or `right`, `top` or `bottom`. */
const baseCorner = (page, colour) => page.evaluate((c) => {
  const board = document.getElementById('board').getBoundingClientRect();
  const base = document.querySelector(`#board rect.base[data-colour=${c}]`).getBoundingClientRect();
  const [x, y] = [base.x + base.width / 2 - board.x, base.y + base.height / 2 - board.y];
  return `${y > board.height / 2 ? 'bottom' : 'top'} ${x > board.width / 2 ? 'right' : 'left'}`;
}, colour);

test('the board turns so that the person’s corner is at the bottom left, upright, unless they turn that off', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: { width: 390, height: 844 } });
  await page.click('#play-now');
  await page.waitForSelector('#board .piece');
  assert.equal(await baseCorner(page, 'yellow'), 'bottom left', 'yellow, the person, at the bottom left');
  // The owner marks still read upright: a mark's box is as it is drawn, not turned on its side.
  const upright = await page.$eval('#board .piece text.mark', (t) => getComputedStyle(t).transform);
  assert.notEqual(upright, 'none', 'the marks are turned back');
  // "you" stays on the board, on the band of its base that shows at the top.
  const you = await page.$eval('#board .you-label', (t) => t.getBoundingClientRect().toJSON());
  const board = await page.$eval('#board', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(you.x >= board.x && you.x + you.width <= board.x + board.width, 'the "you" label is whole');
  if (shots) await page.screenshot({ path: `${shots}/turned-390.png` });
  // Turned off in the settings: the board shows as drawn, yellow's base at the top left.
  await page.click('#table-settings summary');
  await page.uncheck('#turn-board');
  assert.equal(await baseCorner(page, 'yellow'), 'top left');
  await page.reload();
  await page.waitForSelector('#board .piece');
  assert.equal(await baseCorner(page, 'yellow'), 'top left', 'and it stays off');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a game on one device for several people is shown as drawn unless turning to the player to play is asked for', async () => {
  const { page, errors } = await person(browser, '/?cpu-delay=0', { viewport: { width: 390, height: 844 } });
  await openWay(page, 'hot-seat');
  await page.click('#hot-seat button[type=submit]');
  await page.waitForSelector('#board .piece');
  assert.equal(await baseCorner(page, 'yellow'), 'top left');
  await page.click('#table-settings summary');
  assert.match(await page.textContent('#turn-board-words'), /player to play/);
  await page.check('#turn-board');
  const seat = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.games'))[0].position.turn.seat);
  assert.equal(await baseCorner(page, seat), 'bottom left', `${seat}, to play, at the bottom left`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('every colour\'s finished pieces stand apart in its own triangle in the middle, none covering another', async () => {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  // Qdan's last progress is 56: three colours with three pieces home, one with two.
  const position = {
    rules: 'qdan',
    seats: ['yellow', 'blue', 'red', 'green'],
    pieces: { yellow: [56, 56, 56, 10], blue: [56, 56, 56, 'base'], red: [56, 56, 'base', 'base'],
      green: [56, 56, 56, 'base'] },
    turn: { seat: 'yellow', phase: 'roll', roll: null, bonus_streak: 0, throws: 0 },
  };
  const players = { yellow: 'human', blue: 'human', red: 'human', green: 'human' };
  const { page, errors } = await resume(context, position, { players });
  await page.waitForSelector('#board .piece');
  await page.screenshot({ path: `${shots}/finished-pieces-360x640.png` });
  const { pieces, triangles } = await page.$eval('#board', (svg) => ({
    pieces: [...svg.querySelectorAll('.piece[data-progress="56"]')].map((g) => {
      const body = g.querySelector('circle');
      return { colour: g.dataset.colour, fill: body.getAttribute('fill'),
        x: Number(body.getAttribute('cx')), y: Number(body.getAttribute('cy')), r: Number(body.getAttribute('r')) };
    }),
    triangles: [...svg.querySelectorAll('polygon')].map((p) => ({ fill: p.getAttribute('fill'),
      corners: p.getAttribute('points').split(' ').map((xy) => xy.split(',').map(Number)) })),
  }));
  assert.equal(pieces.length, 11, JSON.stringify(pieces));
  for (const [i, a] of pieces.entries()) {
    for (const b of pieces.slice(i + 1)) {
      assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= a.r + b.r, `overlap: ${JSON.stringify([a, b])}`);
    }
  }
  // Inside a triangle: on the inner side of each of its edges, a piece's radius in from them.
  const inside = ({ x, y, r }, corners) => corners.every(([x1, y1], k) => {
    const [x2, y2] = corners[(k + 1) % 3];
    const [x3, y3] = corners[(k + 2) % 3];
    const side = (px, py) => (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1);
    const distance = side(x, y) / Math.hypot(x2 - x1, y2 - y1);
    return Math.sign(side(x3, y3)) * distance >= r;
  });
  for (const piece of pieces) {
    const own = triangles.find((t) => t.fill === piece.fill);
    assert.ok(own && inside(piece, own.corners), `${piece.colour} in its triangle: ${JSON.stringify(piece)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
