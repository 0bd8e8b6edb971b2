// The replay viewer of a stored game: a room's game (a person and two CPUs, played to the end
// over the WebSocket protocol) is opened at /games/<id>. The viewer names who played each seat
// and, at the end, the places (a CPU by the table's tag and its level; on a phone, four seats'
// players whole); plays by itself at the speed chosen and stops at the end, a step
// by hand pausing it; opens at the step its address's hash names and keeps the hash on the step
// shown; and draws its controls, named in the page's language and big enough to touch.
// Screenshots go to LUDO_SHOTS when it is set.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { accessibilityViolations, launch, url } from './browser.mjs';
import { playRoomGame as playRoomGameIn } from './roomgame.mjs';

const browser = await launch();
after(() => browser.close());

const shots = process.env.LUDO_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

const PHONE = { width: 360, height: 640 };
const DESKTOP = { width: 1280, height: 800 };

/** What the page says, by language: the controls' names, CPU labels, places, a finished game. */
const WORDS = {
  en: {
    controls: ['First step', 'Step back', 'Play', 'Step forward', 'Last step'], pause: 'Pause',
    level: { easy: 'Easy', hard: 'Hard' }, ordinal: ['1st', '2nd', '3rd'], over: /Game over/,
    speed: 'Speed', title: 'Game replay', place: 'Place',
    houseRules: 'House rules: Throws that bring a piece out: 1, 6 · Finishing a piece gives another throw: yes',
  },
  fr: {
    controls: ['Première étape', 'Étape précédente', 'Lecture', 'Étape suivante', 'Dernière étape'],
    pause: 'Pause', level: { easy: 'Facile', hard: 'Difficile' }, ordinal: ['1er', '2e', '3e'],
    over: /Partie terminée/, speed: 'Vitesse', title: 'Revoir la partie', place: 'Place',
    houseRules: 'Règles locales : Lancers qui font sortir une pièce : 1, 6 · Amener une pièce à l’arrivée donne un nouveau lancer : oui',
  },
};

/** The rules played: classic with two house rules, which the replay names. */
const HOUSE_RULES = { preset: 'classic', exit_values: [1, 6], bonus_on_finish: true };

/** A room's game under HOUSE_RULES (see `playRoomGame` in roomgame.mjs). */
const playRoomGame = (cpus = { blue: 'easy', red: 'hard' }, name = 'Ana') => playRoomGameIn(browser, HOUSE_RULES, cpus, name);

let game;
let record;
let total;

before(async () => {
  game = await playRoomGame();
  record = await (await fetch(`${url}/api/games/${game.id}`)).json();
  total = record.actions.length;
  assert.deepEqual(Object.keys(record.places).sort(), ['blue', 'red', 'yellow'], 'the game is over');
});

/**
 * The replay of the game at `hash` (`#12`, or '' for none) in `language`, in a fresh browser
 * context of that locale and `viewport`; the page's timers run on a clock the test moves on.
 */
async function openReplay(hash, { language = 'en', viewport = PHONE } = {}) {
  const context = await browser.newContext({ locale: language, viewport });
  await context.clock.install();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${url}/games/${game.id}${hash}`);
  await page.waitForSelector('body[data-ready=true]');
  await page.waitForSelector('.replay[data-step]');
  // From here on, time moves only when the test says.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  return { page, errors, close: () => context.close() };
}

const stepShown = (page) => page.$eval('.replay', (r) => Number(r.dataset.step));
const playing = (page) => page.$eval('.replay', (r) => r.dataset.playing === 'true');
const hash = (page) => page.evaluate(() => location.hash);
const speeds = (page) => page.evaluate(async () => (await import('/records/replay.js')).SPEEDS);

async function screenshot(page, name) {
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/**
 * The seats as the viewer lists them: seat, name (as heard), what shows of it when a screen reader
 * hears more (a CPU's level beside its tag), whether marked as a CPU (with the tag), place shown.
 */
const listed = (page) => page.$$eval('#replay-players li', (items) => items.map((li) => ({
  seat: li.dataset.seat,
  name: (li.querySelector('.who .visually-hidden') ?? li.querySelector('.who')).textContent,
  shown: li.querySelector('.who .cpu-tag + [aria-hidden=true]')?.textContent ?? null,
  cpu: li.classList.contains('cpu') && Boolean(li.querySelector('.who .cpu-tag')),
  italic: getComputedStyle(li.querySelector('.who')).fontStyle === 'italic',
  link: li.querySelector('.who').getAttribute('href'),
  place: li.querySelector('.place').hidden ? null : li.querySelector('.place').lastChild.textContent,
  placeSaid: li.querySelector('.place').textContent,
})));

for (const language of ['en', 'fr']) {
  const words = WORDS[language];

  test(`the replay names who played each seat and, at the end, the places (${language})`, async () => {
    const { page, errors, close } = await openReplay('', { language });
    assert.equal(await page.getAttribute('html', 'lang'), language);
    assert.equal(await page.textContent('.replay h2'), words.title);
    // Opened without a step, it shows the end: the places, in the page's language.
    assert.equal(await stepShown(page), total);
    assert.match(await page.textContent('#replay-status'), words.over);
    // The house rules the game was played with, each by the settings' name.
    assert.equal(await page.textContent('.replay-house-rules'), words.houseRules);
    const ordinal = (seat) => words.ordinal[record.places[seat] - 1];
    const ana = record.players.yellow;
    const seats = await listed(page);
    assert.deepEqual(seats.map(({ placeSaid, ...seat }) => seat), [
      { seat: 'yellow', name: 'Ana', shown: null, cpu: false, italic: false, link: `/players/${ana.id}`, place: ordinal('yellow') },
      { seat: 'blue', name: `CPU · ${words.level.easy}`, shown: words.level.easy, cpu: true, italic: true, link: null,
        place: ordinal('blue') },
      { seat: 'red', name: `CPU · ${words.level.hard}`, shown: words.level.hard, cpu: true, italic: true, link: null,
        place: ordinal('red') },
    ]);
    assert.deepEqual(record.players.blue, { kind: 'cpu', level: 'easy' });
    // Those who hear the page are told it is a place.
    assert.deepEqual(seats.map((s) => s.placeSaid), seats.map((s) => `${words.place} ${s.place}`));
    const places = await page.$$eval('#replay-players .place', (all) => all.map((p) => getComputedStyle(p).display));
    assert.ok(places.every((display) => display !== 'none'), 'the places show');
    await screenshot(page, `replay-${language}-360x640-end`);
    // Before the end, no places; the seat to play is marked.
    await page.click(`[aria-label="${words.controls[1]}"]`);
    assert.equal(await stepShown(page), total - 1);
    assert.deepEqual((await listed(page)).map((s) => s.place), [null, null, null]);
    const turn = game.positions[total - 1].turn.seat;
    assert.equal(await page.getAttribute('#replay-players li.active', 'data-seat'), turn);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the replay fits a phone (${width}px)`);
    const missing = await page.evaluate(async () => (await import('/i18n/i18n.js')).missingKeys());
    assert.deepEqual(missing, [], `keys ${language} lacks`);
    // Axe waits on timers of its own: the page's time flows again for it.
    await page.clock.resume();
    assert.deepEqual(await accessibilityViolations(page), []);
    assert.deepEqual(errors, []);
    await close();
  });

  test(`the controls are drawn, named in the page's language and big enough to touch (${language})`, async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, errors, close } = await openReplay(`#${Math.floor(total / 2)}`, { language, viewport });
      const buttons = await page.$$eval('.replay-controls button', (all) => all.map((b) => {
        const box = b.getBoundingClientRect();
        return { label: b.getAttribute('aria-label'), text: b.textContent, icon: !!b.querySelector('svg'),
          width: box.width, height: box.height };
      }));
      assert.deepEqual(buttons.map((b) => b.label), words.controls);
      for (const b of buttons) {
        assert.equal(b.text.trim(), '', `${b.label} is drawn, not written`);
        assert.ok(b.icon, `${b.label} has its drawing`);
        assert.ok(b.width >= 44 && b.height >= 44, `${b.label} is ${b.width}×${b.height}`);
      }
      // No symbol from the blocks fonts often lack (Miscellaneous Technical, Geometric Shapes).
      const text = await page.textContent('.replay-controls');
      assert.doesNotMatch(text, /[\u2300-\u23ff\u25a0-\u25ff]/u);
      assert.equal(await page.textContent('.replay-speed > span'), words.speed);
      for (const selector of ['#replay-speed', '#replay-slider']) {
        const box = await page.$eval(selector, (n) => n.getBoundingClientRect().toJSON());
        assert.ok(box.height >= 44 && box.width >= 44, `${selector} is ${box.width}×${box.height}`);
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the replay fits ${viewport.width}px (${width}px)`);
      // The whole board, what happened at the step and the buttons are in view at once, on a
      // phone too (three seats here).
      const { board, step, buttonsEnd } = await page.evaluate(() => ({
        board: document.querySelector('#replay-board').getBoundingClientRect().toJSON(),
        step: document.querySelector('#replay-step').getBoundingClientRect().toJSON(),
        buttonsEnd: Math.max(...[...document.querySelectorAll('.replay-controls button')]
          .map((b) => b.getBoundingClientRect().bottom)),
      }));
      assert.ok(board.bottom <= viewport.height && buttonsEnd <= viewport.height,
        `board to ${board.bottom}px, buttons to ${buttonsEnd}px`);
      assert.ok(step.height > 0 && step.bottom <= viewport.height, `the step's words end at ${step.bottom}px`);
      await screenshot(page, `replay-${language}-${viewport.width}x${viewport.height}`);
      // Playing, the button says it pauses.
      await page.click('#replay-play');
      assert.equal(await page.getAttribute('#replay-play', 'aria-label'), words.pause);
      assert.deepEqual(errors, []);
      await close();
    }
  });
}

test('it plays by itself at the speed chosen, stops at the end, and a step by hand pauses it', async () => {
  const { page, errors, close } = await openReplay(`#${total - 6}`);
  const { slow, normal, fast } = await speeds(page);
  assert.ok(slow > normal && normal > fast, JSON.stringify({ slow, normal, fast }));
  assert.equal(await page.inputValue('#replay-speed'), 'normal');
  assert.equal(await playing(page), false);

  // Normal speed: one step each `normal` milliseconds, none before.
  await page.click('#replay-play');
  assert.equal(await playing(page), true);
  await page.clock.runFor(normal - 1);
  assert.equal(await stepShown(page), total - 6);
  await page.clock.runFor(1);
  assert.equal(await stepShown(page), total - 5);
  assert.equal(await hash(page), `#${total - 5}`);

  // Fast while it plays: the next steps come each `fast` milliseconds.
  await page.selectOption('#replay-speed', 'fast');
  await page.clock.runFor(fast);
  assert.equal(await stepShown(page), total - 4);

  // It stops at the end and says it can play again.
  await page.clock.runFor(fast * 10);
  assert.equal(await stepShown(page), total);
  assert.equal(await playing(page), false);
  assert.equal(await page.getAttribute('#replay-play', 'aria-label'), 'Play');
  assert.equal(await hash(page), `#${total}`);

  // Played from the end, it starts again from the beginning.
  await page.click('#replay-play');
  assert.equal(await stepShown(page), 0);
  await page.clock.runFor(fast * 3);
  assert.equal(await stepShown(page), 3);

  // A step by hand pauses it, and it stays where it was put.
  await page.click('[aria-label="Step forward"]');
  assert.equal(await stepShown(page), 4);
  assert.equal(await playing(page), false);
  assert.equal(await page.getAttribute('#replay-play', 'aria-label'), 'Play');
  await page.clock.runFor(slow * 3);
  assert.equal(await stepShown(page), 4);

  // So does the slider, and so do the keys; the speed chosen is kept for the next visit.
  await page.click('#replay-play');
  await page.clock.runFor(fast);
  assert.equal(await stepShown(page), 5);
  await page.$eval('#replay-slider', (slider) => {
    slider.value = '20';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await stepShown(page), 20);
  assert.equal(await playing(page), false);
  await page.focus('#replay-play');
  await page.keyboard.press('Enter');
  assert.equal(await playing(page), true);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await playing(page), false);
  assert.equal(await stepShown(page), 19);
  await page.keyboard.press('End');
  assert.equal(await stepShown(page), total);
  await page.keyboard.press('Home');
  assert.equal(await stepShown(page), 0);
  await page.clock.runFor(slow * 3);
  assert.equal(await stepShown(page), 0);
  await page.reload();
  await page.waitForSelector('.replay[data-step]');
  assert.equal(await page.inputValue('#replay-speed'), 'fast');
  assert.deepEqual(errors, []);
  await close();
});

/** The position's turn as the viewer's status line says it in English: Ana by name, as at the table. */
function statusLine(position) {
  const seat = { yellow: 'Ana (yellow ○)', blue: 'blue □', red: 'red △' }[position.turn.seat];
  const dice = position.turn.roll?.join(' + ');
  return { roll: `${seat} to throw`, rolloff: `${seat} throws for who starts`, move: `${seat} to move (threw ${dice})` }[
    position.turn.phase];
}

/**
 * Where the board shows each seat's pieces, by seat, in piece order: `base`, a square's number,
 * or `finished`.
 */
const piecesShown = (page) => page.$$eval('#replay-board .piece', (pieces) => {
  const shown = {};
  for (const p of pieces) {
    const label = p.getAttribute('aria-label');
    const progress = p.dataset.progress === 'base' ? 'base' : Number(p.dataset.progress);
    // What a screen reader hears agrees with where the piece is drawn.
    const said = label.endsWith('in the base') ? 'base' : label.endsWith('finished') ? 'finished'
      : /(squares? before the home column|square \d of the home column)(, on a safe square)?$/.test(label) ? progress : label;
    (shown[p.dataset.colour] ??= [])[Number(p.dataset.piece)] = said;
  }
  return shown;
});

/** A position's pieces as the board says them (a piece past the track's squares is finished). */
const piecesOf = (position, shown) => Object.fromEntries(Object.entries(position.pieces).map(([seat, pieces]) => [
  seat, pieces.map((p, i) => (shown[seat]?.[i] === 'finished' && typeof p === 'number' ? 'finished' : p))]));

test('on a phone, a 4-seat replay shows each seat\'s player whole, in Russian and Vietnamese', async () => {
  // The standard rules, where the Expert CPU plays (its level's name is the longest).
  const four = await playRoomGameIn(browser, { preset: 'qdan' }, { blue: 'random', red: 'expert', green: 'medium' }, 'Анастасия');
  for (const locale of ['ru', 'vi']) {
    const context = await browser.newContext({ locale, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${url}/games/${four.id}`);
    await page.waitForSelector('#replay-verdict');
    const cut = await page.$$eval('#replay-players .who', (names) => names
      .filter((who) => who.scrollWidth > who.clientWidth).map((who) => who.title));
    await screenshot(page, `replay-4-seats-${locale}-360x640`);
    assert.deepEqual(cut, [], locale);
    await context.close();
  }
});

test('a link opens at its step, the address follows the step shown, and steps out of range clamp', async () => {
  // A step after a throw and one after a move, each shown as the server announced it.
  const afterThrow = record.actions.findIndex((a, i) => i > total / 3 && 'throw' in a) + 1;
  const afterMove = record.actions.findIndex((a, i) => i > total / 2 && 'move' in a) + 1;
  for (const n of [afterThrow, afterMove]) {
    const { page, errors, close } = await openReplay(`#${n}`);
    const position = game.positions[n];
    assert.equal(await stepShown(page), n);
    assert.equal(await page.inputValue('#replay-slider'), String(n));
    assert.match(await page.textContent('#replay-step'), new RegExp(`^${n} / ${total} · `));
    assert.equal(await page.textContent('#replay-status'), statusLine(position));
    const shown = await piecesShown(page);
    assert.deepEqual(shown, piecesOf(position, shown));
    if (n === afterThrow) {
      const dice = record.actions[n - 1].throw.join(' + ');
      assert.match(await page.textContent('#replay-step'), new RegExp(`threw ${dice.replace(/\+/g, '\\+')}`));
    }
    // The step is said as the table's log said it: Ana by name and her seat's mark, a CPU's seat
    // by its colour.
    const mover = { yellow: 'Ana ○', blue: 'blue □', red: 'red △' }[game.positions[n - 1].turn.seat];
    assert.match(await page.textContent('#replay-step'), new RegExp(`^${n} / ${total} · ${mover} `));
    assert.equal(await hash(page), `#${n}`);
    assert.deepEqual(errors, []);
    await close();
  }

  const { page, errors, close } = await openReplay(`#${afterMove}`);
  const entries = await page.evaluate(() => history.length);
  // Each step shown is in the address, without an entry in the history for each.
  await page.click('[aria-label="Step forward"]');
  await page.click('[aria-label="Step forward"]');
  await page.click('[aria-label="Step back"]');
  assert.equal(await hash(page), `#${afterMove + 1}`);
  await page.click('#replay-play');
  await page.clock.runFor((await speeds(page)).normal * 2);
  assert.equal(await hash(page), `#${afterMove + 3}`);
  await page.click('#replay-play');
  assert.equal(await page.evaluate(() => history.length), entries);
  // The address as it is now opens the same step again.
  const copied = page.url();
  assert.ok(copied.endsWith(`/games/${game.id}#${afterMove + 3}`), copied);
  const again = await openReplay(`#${afterMove + 3}`);
  assert.equal(await stepShown(again.page), afterMove + 3);
  await again.close();

  // A hash typed in the address goes to its step.
  await page.evaluate(() => { location.hash = '#7'; });
  await page.waitForFunction(() => document.querySelector('.replay').dataset.step === '7');
  assert.match(await page.textContent('#replay-step'), new RegExp(`^7 / ${total}`));
  assert.deepEqual(errors, []);
  await close();

  // Steps out of range show the nearest end, and the address is corrected.
  for (const [asked, shown] of [[total + 1, total], [99999999, total], [-4, 0]]) {
    const clamped = await openReplay(`#${asked}`);
    assert.equal(await stepShown(clamped.page), shown, `#${asked}`);
    assert.equal(await hash(clamped.page), `#${shown}`);
    assert.match(await clamped.page.textContent('#replay-step'), new RegExp(`^${shown} / ${total}`));
    assert.deepEqual(clamped.errors, []);
    await clamped.close();
  }
  // A hash that names no step opens at the end.
  const none = await openReplay('#players');
  assert.equal(await stepShown(none.page), total);
  await none.close();
});
