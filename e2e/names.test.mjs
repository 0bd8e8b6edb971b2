// Names as the server counts them: the page asks `/api/rules` for the longest name, and counts a
// name's characters as the server does (an emoji is one), so it never cuts a name the server
// would take, and refuses one longer before sending it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, person } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

test('a name of 24 emoji is taken whole, and 25 letters are refused by the form in the reader’s words', async () => {
  const { page, errors } = await person(browser, '/rules/qdan', { viewport: { width: 360, height: 640 } });
  const field = '#rules-page input[name=name]';
  await page.waitForSelector(field);
  const limit = await page.evaluate(async () => (await (await fetch('/api/rules')).json()).name_max_chars);
  assert.equal(limit, 24);
  await page.fill(field, '🙂'.repeat(limit));
  const taken = await page.$eval(field, (input) => [[...input.value].length, input.validity.valid]);
  assert.deepEqual(taken, [limit, true], 'all 24 kept (the browser would cut at 12 UTF-16 pairs)');
  // Longer, the form refuses it (the field takes up to twice as many UTF-16 units as characters).
  await page.fill(field, 'a'.repeat(limit + 1));
  assert.deepEqual(await page.$eval(field, (input) => [input.validity.valid, input.validationMessage]),
    [false, 'A name is at most 24 characters.']);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the quick phrases offered are the server’s, in its order', async () => {
  const { url } = await import('./browser.mjs');
  const served = await (await fetch(`${url}/api/rules`)).json();
  const { page, errors } = await person(browser, '/', { viewport: { width: 390, height: 844 } });
  // A room with a CPU, started: the phrases button is at the table.
  const code = await page.evaluate(async () => {
    const { createRoom } = await import('/room/identity.js');
    return createRoom({ preset: 'qdan' }, null, false, true);
  });
  await page.goto(`${url}/r/${code}`);
  // The panel is built, closed, once the room is open; its buttons are the server's phrases.
  await page.waitForFunction((n) => document.querySelectorAll('#phrases .phrase-words button, #phrases .phrase-emoji button')
    .length === n, served.phrases.length);
  const offered = await page.$$eval('#phrases .phrase-words button, #phrases .phrase-emoji button', (b) => b.length);
  assert.equal(offered, served.phrases.length);
  assert.equal(await page.$eval('#phrases .phrase-words button', (b) => b.textContent), 'Hello!');
  assert.deepEqual(errors, []);
  await page.context().close();
});
