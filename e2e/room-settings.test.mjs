// A room's settings at the table: the host changes the rules, the clock and who starts before a
// game, everyone sees them in their own language, and the game plays the house rules chosen.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, person, step, url } from './browser.mjs';

/** The page's texts in each language, as `texts-<language>.js` holds them. */
const TEXTS = Object.fromEntries(await Promise.all(['en', 'fr'].map(async (language) =>
  [language, (await import(`../crates/ludo-server/static/i18n/texts-${language}.js`)).default])));

const browser = await launch();
after(() => browser.close());

const shots = process.env.LUDO_SHOTS;

/** A pattern matching the log line `key` in `language`, whoever threw whatever. */
function lineOf(language, key) {
  const escaped = TEXTS[language][key].replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(escaped.replace(/\\?\{\w+\\?\}/g, '.+'));
}

/** The room's settings as the server keeps them. */
async function settingsOf(code) {
  return (await (await fetch(`${url}/api/rooms/${code}`)).json()).settings;
}

/** Whether a line of the page's log matches `pattern`. */
async function logShows(page, pattern) {
  const lines = await page.$$eval('#log li', (items) => items.map((li) => li.textContent));
  return lines.some((line) => pattern.test(line));
}

test('the host sets two house rules at the table, a guest sees them in French, and the game plays both', async () => {
  const host = await person(browser, '/', { viewport: { width: 1280, height: 800 } });
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  const code = host.page.url().split('/').pop();
  await host.page.waitForSelector('#room-settings .room-form');
  // The host's controls are the settings: nothing is shown to the host twice.
  assert.equal(await host.page.textContent('#room-settings .room-form details summary'), 'House rules');
  assert.equal(await host.page.$('#room-settings .room-rules-details'), null);
  assert.equal(await host.page.$('#room-settings .room-facts'), null);

  // Two house rules, applied together.
  await host.page.click('#room-settings .room-form details summary');
  await host.page.selectOption('#room-settings select[data-option=first_player]', '"highest_roll"');
  await host.page.selectOption('#room-settings select[data-option=no_piece_out]', '"auto_exit"');
  await host.page.click('#room-settings .apply-rules');
  await host.page.waitForFunction(() => document.querySelector('#room-settings .room-form details summary')
    ?.textContent === 'Standard rules, 2 house rules changed');
  assert.deepEqual((await settingsOf(code)).rules,
    { preset: 'qdan', no_piece_out: 'auto_exit', first_player: 'highest_roll' });

  // A guest, in French on a phone, sees the same rules, and is told when they change.
  const guest = await person(browser, `/r/${code}`, { locale: 'fr-FR', viewport: { width: 360, height: 640 } });
  await guest.page.waitForSelector('#room-settings .room-rules-details summary');
  assert.equal(await guest.page.textContent('#room-settings .room-rules-details summary'),
    'Règles standard, règles locales modifiées : 2');
  assert.equal(await guest.page.$('#room-settings .room-form'), null, 'only the host changes them');
  await guest.page.click('#seats li:nth-child(3) button');
  await guest.page.waitForSelector('#seats .badge');
  // The host is seated at yellow since the room was made.
  await host.page.waitForSelector('#seats li[data-seat=yellow] .badge');
  await host.page.click('#seats li:nth-child(2) button:text("Add a CPU")');
  await host.page.waitForSelector('#seats li:nth-child(2) button:text("Remove")');
  await host.page.selectOption('#room-settings select[name=clock]', '60');
  await guest.page.waitForFunction(() => document.getElementById('announce').textContent
    === 'L’hôte a changé les réglages.');
  // Said on the screen too, under the seats, not only to a screen reader.
  assert.ok(await guest.page.isVisible('#lobby-notice:text("L’hôte a changé les réglages.")'));
  assert.match(await guest.page.textContent('#room-settings .room-facts'), /60 secondes/);
  assert.equal((await settingsOf(code)).clock, 60);

  // A contradictory mix is refused in the host's words, and the room keeps its rules.
  // The house rules are opened if they are folded away.
  if (!(await host.page.isVisible('#room-settings select[data-option=dice]'))) {
    await host.page.click('#room-settings .room-form details summary');
  }
  await host.page.selectOption('#room-settings select[data-option=dice]', '2');
  await host.page.click('#room-settings .apply-rules');
  await host.page.waitForSelector('#lobby-notice:not(:empty)');
  assert.match(await host.page.textContent('#lobby-notice'), /^With two dice, “Throws that give another throw” must be empty/);
  assert.equal(await host.page.evaluate(() => document.activeElement.dataset.option), 'bonus_values');
  assert.equal((await settingsOf(code)).rules.dice, undefined, 'nothing changed');
  if (shots) {
    await host.page.screenshot({ path: `${shots}/room-settings-host-en-1280x800.png`, fullPage: true });
    await guest.page.screenshot({ path: `${shots}/room-settings-guest-fr-360x640.png`, fullPage: true });
  }
  const width = await guest.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `no sideways scrolling on a phone (${width}px)`);

  // The game: a roll-off decides who starts, and a first throw brings a piece out by itself.
  await host.page.click('#start');
  const rolloff = { host: lineOf('en', 'log.rolloff'), guest: lineOf('fr', 'log.rolloff') };
  const autoExit = { host: lineOf('en', 'log.autoExit'), guest: lineOf('fr', 'log.autoExit') };
  const seen = async () => (await logShows(host.page, rolloff.host)) && (await logShows(guest.page, rolloff.guest))
    && (await logShows(host.page, autoExit.host)) && (await logShows(guest.page, autoExit.guest));
  const until = Date.now() + 60_000;
  while (!(await seen())) {
    assert.ok(Date.now() < until, 'both house rules showed within a minute');
    await step(host.page);
    await step(guest.page);
  }
  await guest.page.click('#game-rules summary');
  assert.equal(await guest.page.textContent('#rules-in-force caption'), 'Règles standard, règles locales modifiées : 2');
  assert.equal(await guest.page.$$eval('#rules-in-force tr.changed', (rows) => rows.length), 2);
  assert.ok(await guest.page.isHidden('#room-settings'), 'no settings during a game');
  assert.deepEqual([...host.errors, ...guest.errors], []);
});

/**
 * The choices shown cut off in the lists `selector` finds on `page`: a list's chosen words,
 * measured in its own font, wider than the list without its arrow.
 */
const cutOff = (page, selector) => page.$$eval(selector, (selects) => {
  const context = document.createElement('canvas').getContext('2d');
  return selects.filter((select) => {
    const style = getComputedStyle(select);
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const words = select.selectedOptions[0]?.textContent ?? '';
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    return context.measureText(words).width > room;
  }).map((select) => select.selectedOptions[0].textContent);
});

/** The "changed" marks by the house rules on `page`'s room settings, one for each rule set apart from the preset. */
const changedMarks = (page) => page.$$eval('#room-settings .room-house-rules label.changed .changed-mark',
  (marks) => marks.map((mark) => mark.textContent.trim()));

test('house rules the host has not applied yet stay through other changes, until the host applies them', async () => {
  // The host, in French on a computer, makes a room.
  const host = await person(browser, '/', { locale: 'fr-FR', viewport: { width: 1280, height: 800 } });
  await openWay(host.page, 'friends');
  await host.page.fill('#friends input[name=name]', 'Ana');
  await host.page.click('#friends button[type=submit]');
  await host.page.waitForURL(/\/r\/[a-z0-9]+$/);
  const code = host.page.url().split('/').pop();
  await host.page.waitForSelector('#room-settings .room-form');
  const before = (await settingsOf(code)).rules;
  const presetName = TEXTS.fr[`presetName.${before.preset}`];

  // Two house rules changed, not applied: each is marked as changed as soon as it is, and the host
  // is told that another preset would reset them.
  assert.ok(await host.page.isHidden('#room-settings .room-form .hint'), 'no house rule to lose yet');
  await host.page.click('#room-settings .room-form details summary:text("Règles locales")');
  assert.deepEqual(await changedMarks(host.page), []);
  await host.page.check('#room-settings input[data-option=rank_everyone]');
  await host.page.selectOption('#room-settings select[data-option=passing]', '"free"');
  assert.deepEqual(await changedMarks(host.page), [`(${TEXTS.fr['rules.changedMark']})`, `(${TEXTS.fr['rules.changedMark']})`]);
  assert.equal(await host.page.textContent('#room-settings .room-form .hint'), TEXTS.fr['room.presetResets']);
  assert.ok(await host.page.isVisible('#room-settings .room-form .hint'));
  /** Whether the host's form still shows the two changes, unfolded, ready to be applied. */
  const stillThere = async () => {
    assert.ok(await host.page.isChecked('#room-settings input[data-option=rank_everyone]'), 'still ticked');
    assert.equal(await host.page.inputValue('#room-settings select[data-option=passing]'), '"free"');
    assert.ok(await host.page.isVisible('#room-settings input[data-option=rank_everyone]'), 'still unfolded');
    assert.ok(await host.page.isEnabled('#room-settings .apply-rules'), 'still to be applied');
    assert.equal(await host.page.textContent('#room-settings .room-form details summary'), 'Règles locales');
    assert.deepEqual((await settingsOf(code)).rules, before, 'nothing applied');
  };
  /** Does `change` on the host's page, and waits for the settings to be drawn again. */
  const redrawnAfter = async (change) => {
    const form = await host.page.$('#room-settings .room-form');
    await change();
    await host.page.waitForFunction((old) => !old.isConnected, form);
  };

  // A setting that is sent at once, then a CPU at the table: the settings are drawn again each time.
  await redrawnAfter(() => host.page.selectOption('#room-settings select[name=clock]', '30'));
  assert.equal((await settingsOf(code)).clock, 30);
  await stillThere();
  await host.page.waitForSelector('#seats li[data-seat=yellow] .badge');
  await redrawnAfter(() => host.page.click('#seats li:nth-child(2) button:text("Ajouter un CPU")'));
  await host.page.waitForSelector('#seats li:nth-child(2) button:text("Retirer")');
  await stillThere();
  // On a computer, each list shows its choice whole: "Lancer comme d’habitude (par défaut)".
  assert.deepEqual(await cutOff(host.page, '#room-settings select'), []);
  if (shots) {
    await host.page.screenshot({ path: `${shots}/room-settings-draft-host-fr-1280x800.png`, fullPage: true });
    await host.page.setViewportSize({ width: 360, height: 640 });
    await host.page.locator('#room-settings .apply-rules').scrollIntoViewIfNeeded();
    await host.page.screenshot({ path: `${shots}/room-settings-draft-host-fr-360x640.png` });
    const width = await host.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `no sideways scrolling on a phone (${width}px)`);
  }

  // Applied: the host and a guest see the new rules.
  const guest = await person(browser, `/r/${code}`, { viewport: { width: 360, height: 640 } });
  await guest.page.waitForSelector('#room-settings .room-rules-details summary');
  await host.page.click('#room-settings .apply-rules');
  const changed = TEXTS.fr['rules.withChanges'].replace('{preset}', presetName).replace('{n}', '2');
  await host.page.waitForFunction((text) => document.querySelector('#room-settings .room-form details summary')
    ?.textContent === text, changed);
  assert.deepEqual((await settingsOf(code)).rules, { ...before, rank_everyone: true, passing: 'free' });
  assert.ok(await host.page.isChecked('#room-settings input[data-option=rank_everyone]'));
  assert.equal(await host.page.inputValue('#room-settings select[data-option=passing]'), '"free"');
  await guest.page.waitForFunction((text) => document.querySelector('#room-settings .room-rules-details summary')
    ?.textContent === text, TEXTS.en['rules.withChanges'].replace('{preset}', TEXTS.en[`presetName.${before.preset}`])
    .replace('{n}', '2'));
  assert.equal(await guest.page.$$eval('#room-settings .room-rules tr.changed', (rows) => rows.length), 2);

  // A change not applied yet gives way when the room's rules change under it: another preset
  // starts from its own rules.
  const rules = await (await fetch(`${url}/api/rules`)).json();
  const other = rules.presets.find((p) => p.preset !== before.preset);
  const passing = rules.choices.passing.find((value) => !['free', other.options.passing].includes(value));
  await host.page.selectOption('#room-settings select[data-option=passing]', JSON.stringify(passing));
  await redrawnAfter(() => host.page.selectOption('#room-settings select[name=preset]', other.preset));
  assert.deepEqual((await settingsOf(code)).rules, { preset: other.preset });
  assert.equal(await host.page.inputValue('#room-settings select[data-option=passing]'),
    JSON.stringify(other.options.passing));
  assert.equal(await host.page.isChecked('#room-settings input[data-option=rank_everyone]'),
    other.options.rank_everyone);
  assert.deepEqual(await changedMarks(host.page), [], 'the new preset\'s own rules, none marked');
  assert.ok(await host.page.isHidden('#room-settings .room-form .hint'), 'nothing left to lose');
  assert.deepEqual([...host.errors, ...guest.errors], []);
});
