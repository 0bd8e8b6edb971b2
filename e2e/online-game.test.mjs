// An online game between two browsers (two contexts: two devices) from the invitation link to
// the end, with a reload in the middle that reclaims the seat.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, over, person as open, playToTheEnd, step, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());
const person = (path) => open(browser, path);

/** A new room with friends, made from the home page by Ana, who is seated at yellow; her page. */
async function anaHostsARoom() {
  const host = await person('/');
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  await host.page.waitForSelector('body[data-ready=true]');
  await host.page.waitForFunction(() => document.querySelector('#seats li')?.textContent.includes('Ana'));
  return host;
}

test('two browsers play an online game from the invitation link to the end', async () => {
  const host = await anaHostsARoom();
  const link = host.page.url();

  const guest = await person(new URL(link).pathname);
  await guest.page.waitForSelector('#seats li');
  await guest.page.click('#seats li:nth-child(3) button');
  await host.page.waitForFunction(() => !document.querySelector('#seats li:nth-child(3)').textContent.includes('free'));
  await host.page.click('#start');
  await guest.page.waitForFunction(() => /throw|move/.test(document.querySelector('#status').textContent));
  // Everything the guest's status says until the reload.
  await guest.page.evaluate(() => {
    const status = document.getElementById('status');
    globalThis.said = new Set();
    new MutationObserver(() => globalThis.said.add(status.textContent))
      .observe(status, { childList: true, characterData: true, subtree: true });
  });

  let reloaded = false;
  for (let i = 0; i <= 40 && !(await over(host.page)); i++) {
    await step(host.page);
    await step(guest.page);
    if (i === 40) {
      // The other person's turns are said with their name, and their colour.
      const said = await guest.page.evaluate(() => [...globalThis.said]);
      assert.ok(said.some((text) => /^Ana \(yellow ○\) to (throw|move)/.test(text)), JSON.stringify(said));
      // The log names the people too, each with their seat's mark, and colours no one.
      const logged = await guest.page.$$eval('#log li', (items) => items.map((li) => li.textContent));
      assert.ok(logged.some((line) => /^Ana ○ (threw|moves|brings)/.test(line)), JSON.stringify(logged));
      assert.ok(logged.some((line) => /^Player \d{3} △ (threw|moves|brings)/.test(line)), JSON.stringify(logged));
      assert.ok(!logged.some((line) => /^(yellow|red) /.test(line)), JSON.stringify(logged));
      // A reload mid-game: the same device gets the red seat back.
      reloaded = true;
      await guest.page.reload();
      await guest.page.waitForSelector('body[data-ready=true]');
      await guest.page.waitForFunction(() => /red △: Player \d{3}$/.test(
        document.querySelector('#seats li:nth-child(3) span')?.textContent ?? ''));
      // The game's log so far comes back too, from the game's record.
      await guest.page.waitForFunction(() => document.querySelectorAll('#log li').length >= 10);
      assert.equal(await guest.page.textContent('#log li:first-child'),
        await host.page.textContent('#log li:first-child'));
    }
  }
  await playToTheEnd(host.page, guest.page);
  assert.ok(reloaded, 'the reload happened');
  assert.ok(await over(host.page), 'the game ended');
  await guest.page.waitForSelector('#end', { state: 'visible' });
  await host.page.waitForSelector('#end', { state: 'visible' });
  // The log rebuilt from the game's record after the reload reads as the one written live, line
  // for line ("throws again" after a move that earned another throw included).
  const lines = (page) => page.$$eval('#log li', (items) => items.map((li) => li.textContent));
  const [hostLines, guestLines] = [await lines(host.page), await lines(guest.page)];
  assert.ok(hostLines.some((line) => / throws again$/.test(line)), 'a move earned another throw');
  assert.deepEqual(guestLines, hostLines);
  // Each is spoken to: one won, the other came second.
  const ends = [await host.page.textContent('#end h2'), await guest.page.textContent('#end h2')];
  assert.deepEqual([...ends].sort(), ['You came 2nd', 'You won!']);
  // The result comes first; the room (seats, the next game's settings) stays folded behind one
  // button, so nothing pushes the final board and the places down the page when the game ends.
  for (const { page } of [host, guest]) {
    assert.ok(await page.isVisible('#board') && await page.isVisible('#end'));
    assert.ok(await page.isHidden('#seats') && await page.isHidden('#room-settings'), 'the lobby is folded');
    assert.ok(await page.isVisible('#show-table'));
  }
  assert.deepEqual(host.errors, []);
  assert.deepEqual(guest.errors, []);
});

test('in a room with a house rule changed, Expert is not offered for a CPU seat', async () => {
  const host = await person('/');
  await openWay(host.page, 'friends');
  await host.page.click('#house-rules summary');
  await host.page.selectOption('select[data-option=no_piece_out]', '"auto_exit"');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  await host.page.waitForSelector('#seats select.cpu-level');
  const expert = await host.page.$eval('#seats select.cpu-level option[value=expert]',
    (o) => ({ disabled: o.disabled, text: o.textContent }));
  assert.deepEqual(expert, { disabled: true, text: 'Expert (no house rules)' });
  assert.deepEqual(host.errors, []);
});

test('the host chooses a CPU\'s strength, and a person opening the invitation on another device during a game is told they are watching, and why', async () => {
  const host = await anaHostsARoom();
  // The host chooses the CPU's strength.
  await host.page.selectOption('#seats li:nth-child(3) select.cpu-level', 'expert');
  await host.page.click('#seats li:nth-child(3) button >> nth=1');
  await host.page.waitForSelector('#start:not([disabled])');
  assert.match(await host.page.textContent('#seats li:nth-child(3)'), /CPU · Expert/);
  assert.equal(await host.page.inputValue('#seats li:nth-child(4) select.cpu-level'), 'expert',
    'the next free seat offers the strength chosen last');
  assert.ok(await host.page.isHidden('#watching'), 'the seated host is not watching');
  for (const seat of [2, 4]) {
    await host.page.selectOption(`#seats li:nth-child(${seat}) select.cpu-level`, 'medium');
    await host.page.click(`#seats li:nth-child(${seat}) button >> nth=1`);
    await host.page.waitForFunction((n) => /CPU/.test(document.querySelector(`#seats li:nth-child(${n})`).textContent), seat);
  }
  await host.page.click('#start');
  await host.page.waitForFunction(() => /throw|move/.test(document.querySelector('#status').textContent));
  assert.ok(await host.page.isHidden('#watching'), 'nor during the game');
  const path = new URL(host.page.url()).pathname;
  for (const [locale, [width, height], said] of [
    ['en', [1280, 800], /You are watching\. A seat belongs to the device that took it/],
    ['fr', [360, 640], /Vous regardez la partie\. Une place appartient à l’appareil qui l’a prise/]]) {
    const watcher = await open(browser, path, { locale, viewport: { width, height } });
    await watcher.page.waitForSelector('#watching:not([hidden])');
    assert.match(await watcher.page.textContent('#watching'), said);
    assert.ok(await watcher.page.isHidden('#roll'), 'a watcher has no die to throw');
    await watcher.page.screenshot({ path: `${process.env.LUDO_SHOTS ?? '/tmp/ludo-shots'}/watching-${width}x${height}-${locale}.png` });
    assert.deepEqual(watcher.errors, []);
    await watcher.page.context().close();
  }
  await host.page.context().close();
});
