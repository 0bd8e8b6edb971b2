// The table and the home page on small screens, as a thumb meets them: every control of the home
// page is a 44 px target, a phone held sideways shows the whole table without scrolling, every
// seat's name is read whole on the narrowest phone, a game begins at the top of the page, and the
// clock's seconds are written in the page's language.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launch, openWay, person, url } from './browser.mjs';

const shots = process.env.LUDO_SHOTS ?? '/tmp/ludo-shots';
mkdirSync(shots, { recursive: true });

const browser = await launch();
after(() => browser.close());

/** Starts a game against three CPUs from the home page. */
async function playCpus(page) {
  await openWay(page, 'vs-cpu');
  await page.click('#vs-cpu button[type=submit]');
  await page.waitForSelector('#board .base');
}

/** The targets on the page matching `selector` (shown ones) smaller than 44 px either way. */
function smallTargets(page, selector) {
  return page.evaluate((selector) => [...document.querySelectorAll(selector)]
    .filter((e) => e.offsetParent)
    .map((e) => {
      // A box answers for its whole row, its label.
      const target = e.type === 'checkbox' ? e.closest('label') : e;
      const box = target.getBoundingClientRect();
      return { what: `${e.tagName.toLowerCase()} ${e.name || e.id || e.dataset.option || e.textContent.trim()}`,
        width: Math.round(box.width), height: Math.round(box.height) };
    })
    .filter(({ width, height }) => width < 44 || height < 44), selector);
}

test('on a phone every control and link of the home page, the house rules included, is a 44 px target', async () => {
  const { page, errors } = await person(browser, '/', { locale: 'ru', viewport: { width: 360, height: 640 } });
  await openWay(page, 'vs-cpu');
  await page.click('#house-rules summary');
  const small = await smallTargets(page, '#home select, #home input, #home button, #home summary, #home a, header select');
  assert.deepEqual(small, [], 'targets under 44 px');
  await page.screenshot({ path: `${shots}/house-rules-360x640-ru.png` });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('on a phone the way home from a rules page is a 44 px target', async () => {
  // Portuguese says it in the fewest letters ("Início").
  for (const locale of ['vi', 'ru', 'pt-PT']) {
    const { page, errors } = await person(browser, '/rules/vietnamese', { locale, viewport: { width: 360, height: 640 } });
    await page.waitForSelector('#rules-page .home-link');
    assert.deepEqual(await smallTargets(page, '#rules-page .home-link'), [], locale);
    await page.screenshot({ path: `${shots}/rules-top-360x640-${locale}.png` });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('a phone held sideways shows the board and the throw button together, without scrolling', async () => {
  for (const locale of ['fr', 'en']) {
    const { page, errors } = await person(browser, '/', { locale, viewport: { width: 640, height: 360 } });
    await playCpus(page);
    const seen = await page.evaluate(() => {
      const inside = (selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5;
      };
      return { board: inside('#board'), roll: inside('#roll'), status: inside('#status'), players: inside('#players'),
        scrolled: scrollY };
    });
    assert.deepEqual(seen, { board: true, roll: true, status: true, players: true, scrolled: 0 }, locale);
    await page.screenshot({ path: `${shots}/table-640x360-${locale}.png` });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('on the narrowest phone every seat\'s name is read whole, a long one on two lines', async () => {
  for (const locale of ['ru', 'fr']) {
    const { page, errors } = await person(browser, '/', { locale, viewport: { width: 320, height: 568 } });
    await page.evaluate(() => localStorage.setItem('ludo.name', 'Анастасия Владимировна'));
    await page.reload();
    await page.waitForSelector('body[data-ready=true]');
    await playCpus(page);
    const cut = await page.$$eval('#players li .who', (names) => names
      .filter((name) => name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5)
      .map((name) => name.textContent));
    assert.deepEqual(cut, [], `${locale}: names cut short`);
    await page.screenshot({ path: `${shots}/seats-320x568-${locale}.png` });
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('a game started from far down the home page is seen from the top of the table', async () => {
  const { page, errors } = await person(browser, '/', { viewport: { width: 360, height: 640 } });
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  await openWay(page, 'hot-seat');
  await page.click('#hot-seat button[type=submit]');
  await page.waitForSelector('#board .base');
  assert.equal(await page.evaluate(() => scrollY), 0);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the turn clock writes its seconds as the page\'s language does', async () => {
  const { page, errors } = await person(browser, '/', { locale: 'ru' });
  const written = await page.evaluate(async () => {
    const { Countdown } = await import('/game/clock.js');
    const element = document.createElement('span');
    document.body.append(element);
    const countdown = new Countdown();
    countdown.show(element, Date.now() + 29_500, 30_000);
    const text = element.querySelector('.clock-left').textContent;
    countdown.stop();
    return text;
  });
  assert.match(written, /^30\s*с$/u);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('on a phone the host of a new room sees "Start the game" without scrolling, and it stays in sight', async () => {
  for (const locale of ['en', 'ru']) {
    const { page, errors } = await person(browser, '/', { locale, viewport: { width: 360, height: 640 } });
    await openWay(page, 'friends');
    await page.fill('#friends input[name=name]', 'Ana');
    await page.click('#friends button[type=submit]');
    await page.waitForURL(/\/r\/[a-z0-9]+$/);
    await page.waitForSelector('#seats li[data-seat=green] button');
    /** Whether the Start button is wholly in the window and nothing covers its middle. */
    const inSight = () => page.evaluate(() => {
      const start = document.getElementById('start');
      const box = start.getBoundingClientRect();
      const middle = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return box.top >= 0 && box.bottom <= innerHeight && start.contains(middle);
    });
    assert.ok(await inSight(), `${locale}: in sight at first`);
    await page.screenshot({ path: `${shots}/room-start-360x640-${locale}.png` });
    await page.mouse.wheel(0, 150);
    await page.waitForFunction(() => scrollY > 0);
    assert.ok(await inSight(), `${locale}: in sight once scrolled a little`);
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('on a phone a throw that cannot bring a piece out says why without pushing the board down', async () => {
  for (const locale of ['vi', 'en']) {
    const context = await browser.newContext({ locale, viewport: { width: 360, height: 640 } });
    // Every die shows 3 (the browser's random bytes are fixed): under Qdan no piece can come out.
    await context.addInitScript(() => {
      crypto.getRandomValues = (bytes) => bytes.fill(2);
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/?cpu-delay=0`);
    await page.waitForSelector('body[data-ready=true]');
    // Qdan (a Vietnamese page offers the Vietnamese rules first, where a double of 3 brings a
    // horse out).
    await openWay(page, 'vs-cpu');
    await page.selectOption('#rules-choice select[name=preset]', 'qdan');
    await playCpus(page);
    const boardTop = () => page.evaluate(() => document.getElementById('board').getBoundingClientRect().top);
    const before = await boardTop();
    await page.click('#roll');
    // The hint, naming the face that brings a piece out, ends the status.
    await page.waitForFunction(() => document.getElementById('status').textContent.trim().endsWith('6'));
    const lines = await page.evaluate(() => {
      const status = document.getElementById('status');
      const lineHeight = parseFloat(getComputedStyle(status).lineHeight);
      return Math.round(status.getBoundingClientRect().height / lineHeight);
    });
    assert.ok(lines <= 2, `${locale}: the status takes ${lines} lines`);
    assert.equal(await boardTop(), before, `${locale}: the board stays where it was`);
    await page.screenshot({ path: `${shots}/no-move-hint-360x640-${locale}.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
