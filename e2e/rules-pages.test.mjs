// The rules pages: one per preset, reached from the home screen, written from the option names
// the settings use, each starting a local game with its rules.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

for (const [preset, name] of [['qdan', 'Qdan'], ['classic', 'Classic'], ['vietnamese', 'Vietnamese']]) {
  test(`the ${preset} rules page shows its rules, house rules, words and questions, and plays them`, async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 640 } });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${url}/?cpu-delay=0`);
    await page.waitForSelector('body[data-ready=true]');
    await page.click(`#rules-pages a[href="#rules/${preset}"]`);
    await page.waitForSelector('#rules-page:not([hidden]) h2');
    assert.match(await page.textContent('#rules-page h2'), new RegExp(name));
    assert.ok(await page.isHidden('#home'));
    // Every option, except the layout on the horse board, where it does not apply.
    const rows = await page.$$eval('#rules-page tbody tr', (r) => r.map((row) => row.cells[0].textContent));
    assert.equal(rows.length, preset === 'vietnamese' ? 17 : 18, 'every option that applies');
    assert.equal(rows.includes('Layout'), preset !== 'vietnamese');
    const table = await page.textContent('#rules-page table');
    assert.match(table, /Throws that bring a piece out/, 'named as in the settings');
    assert.equal(await page.$$eval('#rules-page dt', (d) => d.length), 8 + 4, 'words and questions');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no horizontal scrolling on a phone (${width}px)`);
    await page.click('#rules-page .play-rules');
    await page.waitForSelector('#play:not([hidden])');
    const position = await page.evaluate(() => JSON.parse(localStorage.getItem('ludo.local.v1')).position);
    assert.deepEqual(position.rules, { preset });
    assert.ok(await page.isHidden('#rules-page'));
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a rules page opens from its address and goes back home', async () => {
  const page = await browser.newPage();
  await page.goto(`${url}/#rules/vietnamese`);
  await page.waitForSelector('body[data-ready=true]');
  assert.match(await page.textContent('#rules-page'), /1, 6, any double/);
  await page.click('#rules-page a[href="#"]');
  await page.waitForSelector('#home:not([hidden])');
  assert.ok(await page.isHidden('#rules-page'));
  await page.close();
});
