// Public tables in two browsers: a room its host makes public is listed on the home page while a
// seat is free, then among games being played, to watch. It watches what the whole server lists,
// so it runs alone (crates/ludo-server/tests/browser.rs).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person, step } from './browser.mjs';
import { DESKTOP, FRENCH, PHONE, hostRoom, shoot, shows, start } from './rooms.mjs';

const browser = await launch();
after(() => browser.close());

/** Waits until the home page's public list `kind` (`open`, `playing`) lists `code`, or not. */
function listed(page, kind, code, yes = true) {
  return page.waitForFunction(([kind, code, yes]) => Boolean(document.querySelector(
    `#public-tables:not([hidden]) .tables-${kind}:not([hidden]) a[href="/r/${code}"]`)) === yes,
  [kind, code, yes], { timeout: 15000 });
}

test('a public room is listed on the home page while a seat is free, then among games being played, to watch', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await person(browser, '/', { viewport: PHONE });
  const cy = await person(browser, '/', { ...FRENCH, viewport: DESKTOP });
  // A private room is not listed; ticked public by its host, it is, with a Join button.
  await ana.page.check('#room-settings input[name=public]');
  await listed(bo.page, 'open', ana.code);
  const row = await bo.page.textContent(`#public-tables li:has(a[href="/r/${ana.code}"])`);
  assert.match(row, /Standard rules · seats taken: 1 of 4/);
  assert.match(row, /Ana/);
  assert.equal(await bo.page.textContent(`#public-tables a[href="/r/${ana.code}"]`), 'Join');
  await listed(cy.page, 'open', ana.code);
  await shoot(bo.page, 'public-tables', 'en', '#public-tables');
  await shoot(cy.page, 'public-tables', 'fr', '#public-tables');

  // Full (three CPUs), it is no longer open to join.
  for (const colour of ['blue', 'red', 'green']) {
    await ana.page.click(`#seats li[data-seat=${colour}] button:text("Add a CPU")`);
    await ana.page.waitForSelector(`#seats li[data-seat=${colour}].cpu`);
  }
  await listed(bo.page, 'open', ana.code, false);
  // Its game started, it is among the games being played; Watch opens it, read-only.
  await start(ana);
  await listed(bo.page, 'playing', ana.code);
  assert.equal(await bo.page.textContent(`#public-tables a[href="/r/${ana.code}"]`), 'Watch');
  await shoot(bo.page, 'public-playing', 'en', '#public-tables');
  await bo.page.click(`#public-tables a[href="/r/${ana.code}"]`);
  await bo.page.waitForSelector('body[data-ready=true]');
  await bo.page.waitForSelector('#watching:not([hidden])');
  assert.equal(await bo.page.textContent('#watching'), 'You are watching this game.');
  assert.ok(await bo.page.isVisible('#board .base'), 'the board shows');
  assert.ok(await bo.page.isHidden('#roll'), 'a watcher has no die to throw');
  for (let i = 0; i < 10; i++) await step(ana.page);
  await bo.page.waitForFunction(() => document.querySelectorAll('#log li').length > 3);
  // The player sees that someone watches, and a watcher's phrase says it comes from one.
  await shows(ana.page, '#watchers', 'Watching: 1');
  await bo.page.click('#phrases-button');
  await bo.page.click('#phrases button:text("Good luck!")');
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => / \(watching\): Good luck!$/.test(li.textContent)));
  await shoot(ana.page, 'watched', 'en', '#watchers');
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  assert.deepEqual(cy.errors, []);
  for (const who of [ana, bo, cy]) await who.page.context().close();
});
