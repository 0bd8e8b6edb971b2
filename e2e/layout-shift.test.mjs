// Nothing on screen moves after it is drawn: on a phone, a player who aims for Play must not tap
// something else because a line arrived above it. Every layout shift the browser reports that no
// tap caused is added up (a stricter sum than CLS's worst window of shifts) on the home page, a
// game against the CPU opened from Play, a room with friends and a rules page, in English and
// French, at a phone's size and a desktop's.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

const SIZES = [{ width: 360, height: 640 }, { width: 1280, height: 800 }];
const LANGUAGES = ['en', 'fr'];

/** A fresh device at `viewport` in `language`, recording layout shifts from the first paint. */
async function device(viewport, language) {
  const context = await browser.newContext({ viewport, locale: language });
  await context.addInitScript(() => {
    window.shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.shifts.push({ value: entry.value, nodes: entry.sources.map((s) => s.node?.id || s.node?.nodeName) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return { context, page: await context.newPage() };
}

/** The shifts the page saw, after letting late arrivals (lists of tables, say) land. */
async function shifts(page) {
  await page.waitForTimeout(1500);
  return page.evaluate(() => window.shifts);
}

function assertStill(seen, where) {
  const total = seen.reduce((sum, s) => sum + s.value, 0);
  assert.ok(total <= 0.02, `${where}: shifts adding up to ${total.toFixed(3)}: ${JSON.stringify(seen)}`);
}

for (const language of LANGUAGES) {
  for (const viewport of SIZES) {
    const at = `${language}, ${viewport.width}×${viewport.height}`;

    test(`the home page does not move once drawn (${at})`, async () => {
      const { context, page } = await device(viewport, language);
      await page.goto(`${url}/`);
      await page.waitForSelector('body[data-ready=true]');
      assertStill(await shifts(page), `home, ${at}`);
      await context.close();
    });

    test(`a game opened from Play does not move once drawn (${at})`, async () => {
      const { context, page } = await device(viewport, language);
      await page.goto(`${url}/`);
      await page.waitForSelector('body[data-ready=true]');
      await page.click('#play-now');
      await page.waitForSelector('#board rect');
      // The CPUs' turns change the status line and the log while no one taps.
      await page.waitForTimeout(1000);
      await page.evaluate(() => { window.shifts = []; });
      assertStill(await shifts(page), `game, ${at}`);
      await context.close();
    });

    test(`a room does not move once drawn (${at})`, async () => {
      const { context, page } = await device(viewport, language);
      await page.goto(`${url}/`);
      await page.waitForSelector('body[data-ready=true]');
      const code = await page.evaluate(async () => {
        const { createRoom, setPlayerName } = await import('/room/identity.js');
        setPlayerName('Ana');
        return createRoom({ preset: 'qdan' }, null, false, true);
      });
      await page.goto(`${url}/r/${code}`);
      await page.waitForSelector('body[data-ready=true]');
      assertStill(await shifts(page), `room, ${at}`);
      await context.close();
    });

    test(`a rules page does not move once drawn (${at})`, async () => {
      const { context, page } = await device(viewport, language);
      await page.goto(`${url}/rules/qdan?lang=${language}`);
      await page.waitForSelector('body[data-ready=true]');
      assertStill(await shifts(page), `rules page, ${at}`);
      await context.close();
    });
  }
}
