// Life at an online table, between two or three browsers (each a device of its own): playing
// again as an offer (declined, then accepted), a ranked first game offered by the host's start and
// accepted, leaving a game for the CPU to finish (friendly and ranked), the host freeing the seat
// of someone away, naming oneself from an invitation, quick phrases said in each reader's language
// (and muted). Public tables on the home page are in public-tables.test.mjs.
// The server is expected to free seats after LUDO_FREE_AFTER_MS=1500 (pages are told the same
// with `?free-after=1500`). Screenshots go to LUDO_SHOTS when it is set.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, over, person, playToTheEnd, step, url } from './browser.mjs';
import { DESKTOP, FRENCH, PHONE, hostRoom, seated, shoot, shots, shows, start } from './rooms.mjs';

const browser = await launch();
after(() => browser.close());

/** `name` opens the invitation to `code` on a new device, gives their name and sits at `colour`. */
async function guest(code, name, colour, options = {}) {
  const who = await person(browser, `/r/${code}`, options);
  await who.page.fill('#room-name input', name);
  await who.page.click('#room-name button');
  // Named, the page says hello again: it sits once connected.
  await who.page.waitForSelector('#connection.ok');
  await who.page.click(`#seats li[data-seat=${colour}] button`);
  await seated(who.page, colour, name);
  return who;
}

/** Waits until `page` shows a bubble saying `text` on `colour`'s seat. */
function bubbleSays(page, colour, text) {
  return page.waitForFunction(([colour, text]) => document.querySelector(`#players li[data-seat=${colour}] .bubble span`)
    ?.textContent === text, [colour, text]);
}

/** The texts of the log's lines on `page`. */
const logLines = (page) => page.$$eval('#log li', (items) => items.map((li) => li.textContent));

test('after a game, playing again is an offer: declined or cancelled, the offer is gone; accepted by both, the next seat starts', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { ...FRENCH, viewport: PHONE });
  // Beside the host's Start, who would play: on a phone the seat Bo took may be scrolled under it.
  await shows(ana.page, '.start-row', 'Playing: Ana and Bo');
  await start(ana, bo);
  assert.match(await ana.page.textContent('#status'), /^Your turn/, 'yellow starts the first game');
  await playToTheEnd(ana.page, bo.page);
  await bo.page.waitForSelector('#end', { state: 'visible' });

  // Ana offers; Bo is asked, Ana waits for him, and the seats say who accepted.
  await ana.page.click('#rematch button:text("Play again")');
  await shows(ana.page, '#rematch', 'Waiting for Bo…');
  await shows(bo.page, '#rematch', 'Rejouer ? Déjà d’accord : Ana.');
  // On Bo's phone the offer is said at once, and its Accept is in the first screen.
  assert.equal(await bo.page.getAttribute('#rematch .rematch-offer', 'role'), 'alert');
  const accept = await bo.page.$eval('#rematch button.primary', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(accept.top >= 0 && accept.bottom <= PHONE.height, `Accept at ${accept.top}–${accept.bottom} px`);
  assert.match(await bo.page.textContent('#seats li[data-seat=yellow]'), /✓ d’accord/);
  assert.ok(await bo.page.isHidden('#seats'), 'the lobby stays folded under the finished game');
  await shoot(ana.page, 'rematch-waiting', 'en', '#rematch');
  await shoot(bo.page, 'rematch-offer', 'fr', '#rematch');

  // Bo declines: both are told, and no game starts.
  await bo.page.click('#rematch button:text("Refuser")');
  await shows(ana.page, '#rematch', 'Bo declined the new game.');
  await shows(bo.page, '#rematch', 'Vous avez refusé la nouvelle partie.');
  assert.ok(await ana.page.isVisible('#rematch button:text("Play again")'), 'a new offer may be made');
  assert.ok(await over(ana.page), 'no new game started');

  // Bo offers, then thinks better of it while waiting: his cancel withdraws the offer for both.
  await bo.page.click('#rematch button:text("Rejouer")');
  await shows(ana.page, '#rematch', 'Bo would like to play again.');
  await shoot(bo.page, 'rematch-cancel', 'fr', '#rematch');
  await bo.page.click('#rematch button:text("Annuler")');
  await shows(ana.page, '#rematch', 'Bo cancelled the new game.');
  await shows(bo.page, '#rematch', 'Vous avez annulé la nouvelle partie.');
  assert.ok(await ana.page.isHidden('#rematch button:text("Accept")'), 'nothing is left to accept');
  await shoot(ana.page, 'rematch-cancelled', 'en', '#rematch');
  assert.ok(await over(ana.page), 'no new game started');

  // Bo offers again, Ana accepts: the new game starts, red first.
  await bo.page.click('#rematch button:text("Rejouer")');
  await shows(ana.page, '#rematch', 'Bo would like to play again.');
  assert.ok(!(await ana.page.textContent('#rematch')).includes('cancelled'), 'the old cancel is no longer said');
  await shoot(ana.page, 'rematch-offer', 'en', '#rematch');
  await shoot(bo.page, 'rematch-waiting', 'fr', '#rematch');
  // Bo reads the offer lower down his phone's page; the new game shows him the table from the top.
  await bo.page.setViewportSize(PHONE);
  await bo.page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  assert.ok(await bo.page.evaluate(() => scrollY) > 0);
  await ana.page.click('#rematch button:text("Accept")');
  await ana.page.waitForFunction(() => /^Bo \(red △\) to throw/.test(document.querySelector('#status').textContent));
  await bo.page.waitForFunction(() => /^À vous/.test(document.querySelector('#status').textContent));
  assert.ok(await ana.page.isHidden('#end'), 'the new game shows');
  assert.equal(await bo.page.evaluate(() => scrollY), 0, 'from the top');
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.page.context().close();
  await bo.page.context().close();
});

test('a player leaves a game after confirming: the CPU plays the seat to the end, and the others see it', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: PHONE });
  const bo = await guest(ana.code, 'Bo', 'red', { ...FRENCH, viewport: PHONE });
  await start(ana, bo);
  // Home, during the game, asks first, with leaving the game beside it; "Stay" changes nothing.
  await bo.page.click('#back');
  await bo.page.waitForSelector('#leave-dialog[open]');
  assert.match(await bo.page.textContent('#leave-dialog'), /le CPU joue à votre place jusqu’à la fin de la partie/);
  assert.match(await bo.page.textContent('#leave-dialog'), /le CPU joue à votre place pendant votre absence/);
  await shoot(bo.page, 'leave-confirm', 'fr');
  await bo.page.click('#leave-dialog button[value=stay]');
  assert.ok(await bo.page.isHidden('#leave-dialog'));
  assert.ok(await bo.page.isHidden('#watching'), 'still playing');
  assert.match(bo.page.url(), /\/r\/[a-z0-9]+$/, 'still at the table');
  await ana.page.click('#back');
  await shoot(ana.page, 'leave-confirm', 'en');
  await ana.page.click('#leave-dialog button[value=stay]');

  const notifyOffered = (page) => page.$eval('#notify', (button) => !button.hidden);
  assert.ok(await notifyOffered(bo.page), 'a seated player may ask to be told of their turn');
  await bo.page.click('#back');
  await bo.page.click('#leave-dialog button[value=leave]');
  await bo.page.waitForFunction(() => document.querySelector('#watching')?.textContent
    .startsWith('Vous avez quitté cette partie'));
  assert.ok(!(await notifyOffered(bo.page)), 'no turn to be told of once the game is left');
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => li.textContent === 'Bo left; the CPU plays for them'));
  assert.match(await ana.page.textContent('#players li[data-seat=red]'), /left · CPU/);

  // Ana plays on alone; the CPU plays red's turns, marked in the log, to the end.
  const byCpu = (page) => page.$$eval('#log li.by-cpu', (items) => items.map((li) => li.textContent));
  for (let i = 0; i < 400 && (await byCpu(ana.page)).length < 3; i++) await step(ana.page);
  // A reload rebuilds the log from the game's record, which keeps which actions the CPU played
  // for Bo: the marks come back with the lines.
  const marked = await byCpu(ana.page);
  assert.ok(marked.length >= 3 && marked.every((line) => /^Bo △ /.test(line)), JSON.stringify(marked));
  await ana.page.reload();
  await ana.page.waitForSelector('body[data-ready=true]');
  await ana.page.waitForFunction((n) => document.querySelectorAll('#log li.by-cpu').length >= n, marked.length);
  assert.deepEqual((await byCpu(ana.page)).slice(0, marked.length), marked);
  await playToTheEnd(ana.page);
  // The replay marks those actions too.
  const replay = await ana.page.getAttribute('#replay-link', 'href');
  const record = await ana.page.evaluate(async (path) => (await fetch(`/api${path}`)).json(), replay);
  const first = Math.min(...Object.keys(record.stand_ins).map(Number));
  const viewer = await person(browser, `${replay}#${first + 1}`);
  await viewer.page.waitForSelector('.replay[data-step]');
  assert.match(await viewer.page.textContent('#replay-step'), /· Bo △ .*\(played by the CPU\)$/);
  await viewer.page.context().close();
  const lines = await logLines(ana.page);
  assert.ok(lines.some((line) => /^Bo △ .*\(played by the CPU\)$/.test(line)), 'the CPU played Bo’s seat');
  // Once the game is over, Bo's seat is free again.
  await ana.page.waitForFunction(() => document.querySelector('#seats li[data-seat=red] span')
    ?.textContent === 'red △: free');
  await bo.page.waitForSelector('#end', { state: 'visible' });
  // The seat is free, but the game's places still name who played it, for Ana and for someone
  // who opens the room only now.
  const placesName = (page) => page.$eval('#places tr[data-seat=red] td:last-child', (td) => td.textContent);
  await ana.page.waitForFunction(() => document.querySelector('#places tr[data-seat=red] td:last-child')?.textContent);
  assert.equal(await placesName(ana.page), 'Bo');
  const late = await person(browser, `/r/${ana.code}`, { viewport: PHONE });
  await late.page.waitForFunction(() => document.querySelector('#places tr[data-seat=red] td:last-child')
    ?.textContent === 'Bo');
  assert.ok((await logLines(late.page)).some((line) => /^Bo △ /.test(line)), 'the log names Bo too');
  assert.deepEqual(late.errors, []);
  await late.page.context().close();
  // Alone at the table, Ana is told how to play again rather than offered a game that needs two.
  assert.equal(await ana.page.$('#rematch button:text("Play again")'), null);
  assert.match(await ana.page.textContent('#rematch'), /^Everyone else has left the table\. To play again/);
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.page.context().close();
  await bo.page.context().close();
});

test('a player who goes home during a game is offered the way back to it, until they leave it', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { ...FRENCH, viewport: PHONE });
  await start(ana, bo);
  await bo.page.click('#back');
  await bo.page.click('#leave-dialog button[value=home]');
  await bo.page.waitForSelector('#way-back:not([hidden])');
  assert.equal(await bo.page.textContent('#way-back'), 'Retourner à votre partie');
  await shoot(bo.page, 'way-back', 'fr');
  // Ana plays on until the CPU has played a turn of Bo's, who is away.
  const boByCpu = () => ana.page.$$eval('#log li.by-cpu', (items) => items.length);
  for (let i = 0; i < 400 && (await boByCpu()) < 1; i++) {
    await step(ana.page);
    await ana.page.waitForTimeout(25);
  }
  assert.ok((await boByCpu()) >= 1, 'the CPU played for Bo');
  await bo.page.click('#way-back');
  await bo.page.waitForURL(`${url}/r/${ana.code}`);
  await bo.page.waitForSelector('#board .base');
  assert.ok(await bo.page.isHidden('#watching'), 'back in their seat');
  // Back, Bo is told that the CPU played for them while they were away.
  await bo.page.waitForSelector('#notice:not([hidden])');
  assert.equal(await bo.page.textContent('#notice'), 'Pendant votre absence, le CPU a joué pour vous.');
  await shoot(bo.page, 'back-after-away', 'fr');
  // Left for good (after confirming), the game is no longer offered, and Home no longer asks.
  await bo.page.click('#back');
  await bo.page.click('#leave-dialog button[value=leave]');
  await bo.page.waitForSelector('#watching:not([hidden])');
  await bo.page.click('#back');
  await bo.page.waitForSelector('#play-now');
  await bo.page.waitForLoadState('networkidle');
  assert.ok(await bo.page.isHidden('#way-back'));
  // A device that plays no game here is offered none.
  const other = await person(browser, '/', { viewport: PHONE });
  await other.page.waitForLoadState('networkidle');
  assert.ok(await other.page.isHidden('#way-back'));
  assert.deepEqual([...ana.errors, ...bo.errors, ...other.errors], []);
  for (const who of [ana, bo, other]) await who.page.context().close();
});

test('a guest who goes home from the lobby is offered the way back to their seat, until they leave it', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { ...FRENCH, viewport: PHONE });
  await bo.page.click('#lobby-home');
  await bo.page.waitForSelector('#way-back:not([hidden])');
  assert.equal(await bo.page.textContent('#way-back'), 'Retourner à votre table', 'no game yet: the table');
  await bo.page.click('#way-back');
  await bo.page.waitForURL(`${url}/r/${ana.code}`);
  await bo.page.waitForFunction(() => document.querySelector('#seats li[data-seat=red] span')
    ?.textContent.startsWith('rouge △ : Bo'));
  // Up from the seat, the table is no longer offered.
  await bo.page.click('#seats li[data-seat=red] button');
  await bo.page.waitForFunction(() => !document.querySelector('#seats li[data-seat=red] span')
    ?.textContent.includes('Bo'));
  await bo.page.click('#lobby-home');
  await bo.page.waitForSelector('#play-now');
  await bo.page.waitForLoadState('networkidle');
  assert.ok(await bo.page.isHidden('#way-back'));
  assert.deepEqual([...ana.errors, ...bo.errors], []);
  for (const who of [ana, bo]) await who.page.context().close();
});

test('quick phrases show in each reader\'s language by the sender\'s seat and in the log, and can be muted', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { ...FRENCH, viewport: PHONE });
  await start(ana, bo);
  await ana.page.click('#phrases-button');
  await ana.page.waitForSelector('#phrases:not([hidden])');
  /** Whether the whole panel is in the window, nothing scrolled. */
  const panelInSight = (page) => page.evaluate(() => {
    const box = document.getElementById('phrases').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
  });
  assert.ok(await panelInSight(ana.page), 'the panel opens in sight on a desktop');
  await ana.page.keyboard.press('Escape');
  assert.ok(await ana.page.isHidden('#phrases'), 'Escape closes the panel');
  assert.equal(await ana.page.evaluate(() => document.activeElement.id), 'phrases-button');
  await ana.page.click('#phrases-button');
  await ana.page.click('#phrases button:text("Good luck!")');
  assert.ok(await ana.page.isHidden('#phrases'), 'the panel closes once a phrase is sent');
  // A bubble shows for four seconds: both are looked for before either page is photographed.
  await Promise.all([
    bubbleSays(bo.page, 'yellow', 'Bonne chance !'),
    bubbleSays(ana.page, 'yellow', 'Good luck!'),
  ]);
  assert.ok((await logLines(bo.page)).includes('Ana : Bonne chance !'));
  await Promise.all([
    shoot(bo.page, 'phrase-bubble', 'fr', '#players'),
    shoot(ana.page, 'phrase-bubble', 'en', '#players'),
  ]);
  await bo.page.click('#phrases-button');
  assert.ok(await panelInSight(bo.page), 'and on a phone');
  await shoot(bo.page, 'phrases-panel', 'fr', '#phrases');
  await shoot(ana.page, 'phrases-panel-other', 'en', '#phrases-button');
  await bo.page.click('#phrases .phrase-emoji button:text("👏")');
  await bubbleSays(ana.page, 'red', '👏');
  assert.ok((await logLines(ana.page)).includes('Bo: 👏'));

  // Bo mutes Ana from her bubble: her next phrase reaches Ana's own page, not Bo's.
  await ana.page.click('#phrases-button');
  await ana.page.click('#phrases button:text("Thanks!")');
  await bo.page.waitForSelector('#players li[data-seat=yellow] .bubble');
  await bo.page.click('#players li[data-seat=yellow] .bubble-mute');
  assert.equal(await bo.page.$('#players li[data-seat=yellow] .bubble'), null, 'the bubble goes at once');
  await ana.page.click('#phrases-button');
  await ana.page.click('#phrases button:text("Oops!")');
  // Too many phrases at once (more than three, then one every three seconds) are refused, and
  // said by the control.
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent === 'Ana: Oops!'));
  const refusal = '#phrases .phrases-status:not(:empty)';
  // Each phrase waits for the server's answer: said back (the panel closed), or refused (the panel
  // opened again with the reason). Three go at once, so one of the next four is refused.
  for (let sent = 0; !(await ana.page.$(refusal)); sent++) {
    assert.ok(sent < 4, 'a phrase past the allowance is refused');
    await ana.page.click('#phrases-button');
    await ana.page.click('#phrases button:text("Hello!")');
    await ana.page.waitForFunction(([status, before]) => document.querySelector(status)
      || [...document.querySelectorAll('#log li')].filter((li) => li.textContent === 'Ana: Hello!').length > before,
    [refusal, sent]);
  }
  assert.equal(await ana.page.textContent(refusal), 'Wait a few seconds before the next phrase.');
  assert.ok(await ana.page.isVisible('#phrases'), 'the refusal shows by the phrases');
  const boLines = await logLines(bo.page);
  assert.ok(!boLines.some((line) => line.includes('Oups')), `muted: ${boLines.join(' | ')}`);
  // Unmuted from the panel, Ana is heard again.
  await bo.page.click('#phrases-button');
  assert.equal(await bo.page.getAttribute('#phrases .mute', 'aria-pressed'), 'true');
  await bo.page.click('#phrases .mute');
  await bo.page.waitForTimeout(3100);
  await ana.page.click('#phrases button:text("Well played!")');
  await bo.page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => li.textContent === 'Ana : Bien joué !'));
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.page.context().close();
  await bo.page.context().close();
});

test('the host frees the seat of someone away: the CPU plays it to the end of the game', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { viewport: PHONE });
  await start(ana, bo);
  assert.ok(await ana.page.isHidden('#away-seats'), 'nobody is away');
  await bo.page.context().close();
  // Away for the server's time (1.5 s here), the host is offered to free the seat.
  await ana.page.waitForSelector('#away-seats button[data-seat=red]', { timeout: 10000 });
  assert.match(await ana.page.textContent('#away-seats'), /Bo is away\. Free the seat, and the CPU plays it/);
  await ana.page.click('#away-seats button[data-seat=red]');
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => li.textContent === 'The host freed Bo’s seat; the CPU plays for them'));
  assert.ok(await ana.page.isHidden('#away-seats'));
  for (let i = 0; i < 20; i++) await step(ana.page);
  assert.deepEqual(ana.errors, []);
  await ana.page.context().close();
});

test('someone opening an invitation without a saved name is asked for one, and the host sees it', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: DESKTOP });
  const bo = await person(browser, `/r/${ana.code}`, { viewport: PHONE });
  assert.ok(await bo.page.isVisible('#room-name input'), 'the name is asked for at once');
  assert.equal(await bo.page.inputValue('#room-name input'), '');
  assert.match(await bo.page.getAttribute('#room-name input', 'placeholder'), /^Player \d{3}$/,
    'the field shows the name the others see until one is given');
  assert.equal(await bo.page.textContent('#room-name summary'), 'Choose your name');
  await shoot(bo.page, 'name-asked', 'en', '#room-name');
  // Above the seats, each is told what to do next: the host starts, the others sit, then wait.
  assert.equal(await ana.page.textContent('#lobby-status'), 'Start the game when everyone is seated');
  assert.equal(await bo.page.textContent('#lobby-status'), 'Ana invites you to play: Standard rules. Choose a free seat.',
    'someone invited is told whose table it is and what it plays');
  // Before a game, the lobby has its own way home; the table's Home button shows once one starts.
  for (const { page } of [ana, bo]) {
    assert.ok(await page.isVisible('#lobby-home'), 'a way home from the lobby');
    assert.equal(await page.getAttribute('#lobby-home', 'href'), '/');
  }
  // Someone invited finds the seats before the link to pass on.
  const above = (page, a, b) => page.evaluate(([a, b]) => document.querySelector(a).getBoundingClientRect().top
    < document.querySelector(b).getBoundingClientRect().top, [a, b]);
  assert.ok(await above(bo.page, '#seats', '#invite'), 'the guest sees the seats before the invitation');
  assert.ok(await above(ana.page, '#invite', '#seats'), 'the host sees the link to send first');
  assert.equal(await ana.page.textContent('#invite-words'), 'Send this link to your friends:');
  assert.equal(await bo.page.textContent('#invite-words'), 'Invite others with this link:');
  // Seated first under the default name with this device's number, then named: the host sees
  // the seat renamed. A second person without a name gets another number.
  await bo.page.click('#seats li[data-seat=red] button');
  const boNumber = await bo.page.evaluate(() => 100
    + (parseInt(localStorage.getItem('ludo.device').slice(0, 6), 16) % 900));
  await seated(ana.page, 'red', `Player ${boNumber}`);
  // Secrets are random; this one is chosen so that the two numbers differ.
  const cy = await person(browser, '/', { viewport: PHONE, locale: 'fr-FR' });
  await cy.page.evaluate((secret) => localStorage.setItem('ludo.device', secret),
    (boNumber === 100 ? '000001' : '000000').padEnd(32, 'a'));
  await cy.page.goto(`${url}/r/${ana.code}`);
  await cy.page.waitForSelector('body[data-ready=true]');
  await cy.page.click('#seats li[data-seat=blue] button');
  await seated(ana.page, 'blue', `Joueur ${boNumber === 100 ? 101 : 100}`);
  await bo.page.waitForFunction(() => document.getElementById('lobby-status').textContent
    === 'Waiting for the host to start');
  await bo.page.fill('#room-name input', 'Bo');
  await bo.page.click('#room-name button');
  await seated(ana.page, 'red', 'Bo');
  assert.equal(await bo.page.evaluate(() => localStorage.getItem('ludo.name')), 'Bo');
  assert.equal(await bo.page.textContent('#room-name summary'), 'Your name: Bo');
  assert.ok(await bo.page.isHidden('#room-name input'), 'the form folds away once named');
  // The name is kept for the next invitation, and may still be changed.
  await bo.page.reload();
  await bo.page.waitForSelector('body[data-ready=true]');
  assert.equal(await bo.page.textContent('#room-name summary'), 'Your name: Bo');
  await bo.page.click('#room-name summary');
  await bo.page.fill('#room-name input', 'Bobby');
  await bo.page.click('#room-name button');
  await seated(ana.page, 'red', 'Bobby');
  // Once seated, a free seat is offered as a move, and taking it frees the seat left.
  assert.equal(await bo.page.textContent('#seats li[data-seat=green] button'), 'Move here');
  await bo.page.click('#seats li[data-seat=green] button');
  await seated(ana.page, 'green', 'Bobby');
  await ana.page.waitForFunction(() => document.querySelector('#seats li[data-seat=red] span').textContent
    .endsWith(': free'));
  // Left open, the form gives the table its room once a game is played.
  await bo.page.click('#room-name summary');
  assert.ok(await bo.page.isVisible('#room-name input'));
  await start(ana, bo);
  assert.ok(await bo.page.isHidden('#room-name'), 'the name waits while a game is played');
  assert.ok(await bo.page.isHidden('#lobby-status'));
  assert.ok(await bo.page.isHidden('#lobby-home'), 'the table has its own Home button');
  assert.ok(await bo.page.isVisible('#back'));
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  assert.deepEqual(cy.errors, []);
  await ana.page.context().close();
  await bo.page.context().close();
  await cy.page.context().close();
});

test('a ranked game left by a player is played out by the CPU, and its result is rated', async () => {
  const ana = await hostRoom(browser, 'Ana', { ranked: true, rules: 'classic' }, { viewport: DESKTOP });
  const bo = await guest(ana.code, 'Bo', 'red', { viewport: DESKTOP });
  // A game that counts for ratings starts only once everyone seated has accepted it: Ana's start
  // offers it, and she waits for Bo.
  await ana.page.click('#start');
  await shows(ana.page, '#first-offer', 'Waiting for Bo…');
  await shows(bo.page, '#first-offer', 'Ana would like to start a ranked game.');
  assert.ok(await ana.page.isHidden('#start'), 'started once');
  await bo.page.click('#first-offer button:text("Accept")');
  for (const who of [ana, bo]) await who.page.waitForSelector('#board .base');
  assert.ok(await bo.page.isHidden('#first-offer'), 'the offer is over');
  await bo.page.click('#back');
  assert.match(await bo.page.textContent('#leave-dialog'), /its result still counts for your rating/);
  await bo.page.click('#leave-dialog button[value=leave]');
  await ana.page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => li.textContent === 'Bo left; the CPU plays for them'));
  await playToTheEnd(ana.page);
  await ana.page.waitForFunction(() => /Ana: 1500 → \d+/.test(document.querySelector('#rated').textContent));
  assert.match(await ana.page.textContent('#rated'), /Bo: 1500 → \d+/);
  await bo.page.waitForFunction(() => /Bo: 1500 → \d+/.test(document.querySelector('#rated').textContent));
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  await ana.page.context().close();
  await bo.page.context().close();
});

test('the invitation link is copied with a visible "copied", selected when copying is refused, and shared where the device can', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: PHONE, permissions: ['clipboard-read', 'clipboard-write'] });
  const link = await ana.page.textContent('#link');
  assert.ok(await ana.page.isHidden('#share'), 'no share button without a share sheet');
  await ana.page.click('#copy');
  await shows(ana.page, '#copy-status', '✓ Link copied');
  assert.equal(await ana.page.evaluate(() => navigator.clipboard.readText()), link);
  await shoot(ana.page, 'invite-copied', 'en', '#invite');

  // A browser that refuses to copy: the link is selected for the person, and they are told.
  const bo = await person(browser, `/r/${ana.code}`, { ...FRENCH, viewport: PHONE });
  await bo.page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
  });
  await bo.page.click('#copy');
  await shows(bo.page, '#copy-status', 'Copie impossible : le lien est sélectionné, copiez-le vous-même.');
  assert.equal(await bo.page.evaluate(() => getSelection().toString()), link);
  await shoot(bo.page, 'invite-refused', 'fr', '#invite');

  // A phone's share sheet (Chromium on this machine has none: the page is given one that records).
  const cy = await browser.newContext({ locale: 'fr-FR', viewport: PHONE });
  await cy.addInitScript(() => {
    navigator.share = async (data) => { window.shared = data; };
  });
  const page = await cy.newPage();
  await page.goto(`${url}/r/${ana.code}`);
  await page.waitForSelector('body[data-ready=true]');
  await page.click('#share:text("Partager")');
  assert.deepEqual(await page.evaluate(() => window.shared),
    { title: await page.title(), text: 'Viens jouer au Ludo avec moi', url: link });
  assert.deepEqual(ana.errors, []);
  assert.deepEqual(bo.errors, []);
  for (const context of [ana.page.context(), bo.page.context(), cy]) await context.close();
});

test('a link to no room says so, with the way home, and stops trying to connect', async () => {
  const { page, errors } = await person(browser, '/r/zzzzzzzz', { viewport: PHONE });
  const said = 'There is no such room. Check the link you were sent, or start a new table from the home page.';
  await page.waitForFunction((text) => document.getElementById('connection').textContent === text, said);
  assert.ok(await page.isVisible('#lobby-home'), 'the way home');
  for (const gone of ['#invite', '#room-name', '#roll', '#board']) {
    assert.ok(await page.isHidden(gone), `${gone} is not offered`);
  }
  // No reconnection follows: the words stay.
  await page.waitForTimeout(1500);
  assert.equal(await page.textContent('#connection'), said);
  if (shots) await page.screenshot({ path: `${shots}/no-such-room-en.png` });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('names of 24 letters without a space never push a phone\'s page sideways, at the table or at the end', async () => {
  const long = 'W'.repeat(24);
  const longer = 'Ы'.repeat(24);
  const ana = await hostRoom(browser, long, {}, { viewport: PHONE });
  const bo = await guest(ana.code, longer, 'red', { locale: 'ru-RU', viewport: PHONE });
  await start(ana, bo);
  const width = (page) => page.evaluate(() => document.documentElement.scrollWidth);
  for (const page of [ana.page, bo.page]) assert.ok(await width(page) <= PHONE.width, `at the table: ${await width(page)} px`);
  await playToTheEnd(ana.page, bo.page);
  for (const page of [ana.page, bo.page]) {
    await page.waitForSelector('#end', { state: 'visible' });
    assert.ok(await width(page) <= PHONE.width, `at the end: ${await width(page)} px`);
  }
  if (shots) await bo.page.screenshot({ path: `${shots}/long-names-end-ru.png`, fullPage: true });
  assert.deepEqual([...ana.errors, ...bo.errors], []);
  for (const who of [ana, bo]) await who.page.context().close();
});

test('on a phone a phrase said from a seat in the left column stays on the screen', async () => {
  const ana = await hostRoom(browser, 'Ana', {}, { viewport: PHONE, locale: 'ru-RU' });
  const bo = await guest(ana.code, 'Bo', 'red', { viewport: PHONE });
  for (const colour of ['blue', 'green']) {
    await ana.page.click(`#seats li[data-seat=${colour}] button:text("Добавить CPU")`);
    await ana.page.waitForSelector(`#seats li[data-seat=${colour}].cpu`);
  }
  await start(ana, bo);
  // Red is third of four: the left column of the second row.
  await bo.page.click('#phrases-button');
  await bo.page.click('#phrases button:text("Well played!")');
  await bubbleSays(ana.page, 'red', 'Хорошо сыграно!');
  const box = await ana.page.$eval('#players li[data-seat=red] .bubble', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(box.left >= 0 && box.right <= PHONE.width, `the bubble runs ${box.left} to ${box.right} px`);
  // Its mute button looks small, but a thumb 5 px off any edge of it still presses it: 44 px.
  const missed = await ana.page.$eval('#players li[data-seat=red] .bubble-mute', (mute) => {
    const b = mute.getBoundingClientRect();
    const around = [[b.left - 5, b.top + b.height / 2], [b.right + 5, b.top + b.height / 2],
      [b.left + b.width / 2, b.top - 5], [b.left + b.width / 2, b.bottom + 5]];
    return { size: [b.width, b.height], missed: around.filter(([x, y]) => document.elementFromPoint(x, y) !== mute) };
  });
  assert.ok(missed.size[0] + 12 >= 44 && missed.size[1] + 12 >= 44, `the button is ${missed.size}`);
  assert.deepEqual(missed.missed, [], 'points around the mute button that miss it');
  if (shots) await ana.page.screenshot({ path: `${shots}/bubble-left-column-ru.png` });
  assert.deepEqual([...ana.errors, ...bo.errors], []);
  for (const who of [ana, bo]) await who.page.context().close();
});
