// Every text shown comes from the translation tables: in each language, the settings (every
// option and value), a game, its rules in force, the rules tables and the rules pages ask for no
// key that the language lacks, and no raw key shows.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openWay, url } from './browser.mjs';

const browser = await launch();
after(() => browser.close());

const LANGUAGES = ['en', 'fr', 'pt', 'ru', 'vi'];

/** The default rules' name in each language: the standard rules (Qdan is the site that wrote them). */
const STANDARD = { en: 'Standard rules', fr: 'Règles standard', pt: 'Regras padrão', ru: 'Стандартные правила',
  vi: 'Luật tiêu chuẩn' };

/** Where the standard rules come from, as their rules page says it. */
const SOURCE = {
  en: 'These rules follow the standard rules of Ludo as written and checked by Qdan.',
  fr: 'Ces règles suivent les règles standard du Ludo, rédigées et vérifiées par Qdan.',
};

/** The page's visible texts and labels, for raw keys. */
const texts = () => [...document.querySelectorAll('body *')]
  .flatMap((n) => [n.getAttribute('aria-label'), ...[...n.childNodes]
    .filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent)])
  .map((s) => s?.trim()).filter(Boolean);

for (const language of LANGUAGES) {
  test(`every text of the settings and of a game is translated in ${language}`, async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    await context.addInitScript((code) => localStorage.setItem('ludo.language', code), language);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/?cpu-delay=0`);
    await page.waitForSelector('body[data-ready=true]');
    assert.equal(await page.getAttribute('html', 'lang'), language);
    await openWay(page, 'hot-seat');
    await page.click('#house-rules summary');
    for (const preset of ['qdan', 'classic', 'vietnamese']) {
      await page.selectOption('select[name=preset]', preset);
    }
    const settings = await page.$$eval('#options label > span', (s) => s.map((n) => n.textContent));
    assert.equal(settings.length, 18, 'one control per option');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `the settings fit a phone in ${language} (${width}px)`);
    await page.selectOption('select[name=preset]', 'qdan');
    await page.selectOption('#hot-seat select[name=people]', '2');
    await page.click('#hot-seat button[type=submit]');
    await page.click('#roll');
    await page.click('#game-rules summary');
    assert.equal(await page.textContent('#rules-in-force caption'), STANDARD[language], 'the rules in force');
    for (const preset of ['qdan', 'classic', 'vietnamese']) {
      await page.evaluate((name) => { location.hash = `#rules/${name}`; }, preset);
      await page.waitForFunction((name) => !document.querySelector('#rules-page').hidden
        && document.querySelector('#rules-page').dataset.preset === name, preset);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `the ${preset} rules page fits a phone in ${language} (${width}px)`);
    }
    const missing = await page.evaluate(async () => (await import('/i18n/i18n.js')).missingKeys());
    assert.deepEqual(missing, [], `keys ${language} lacks`);
    const raw = (await page.evaluate(texts)).filter((s) => /^(option|value|log|home|seat|turn|online)\.[a-z_]+$/.test(s));
    assert.deepEqual(raw, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the option names differ from English in every other language', async () => {
  const names = {};
  for (const language of LANGUAGES) {
    const context = await browser.newContext();
    await context.addInitScript((code) => localStorage.setItem('ludo.language', code), language);
    const page = await context.newPage();
    await page.goto(`${url}/`);
    await page.waitForSelector('body[data-ready=true]');
    names[language] = await page.$$eval('#options label > span', (s) => s.map((n) => n.textContent));
    await context.close();
  }
  for (const language of LANGUAGES.slice(1)) {
    const same = names[language].filter((name, i) => name === names.en[i]);
    assert.deepEqual(same, [], `${language} names left in English`);
  }
});

for (const language of LANGUAGES) {
  test(`the default rules are called ${STANDARD[language]} in ${language}, and Qdan only where their rules page says who wrote them`, async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const shows = (selector) => page.$eval(selector, (n) => n.innerText);

    // The home page: the rules lists and selects, the rulesets, and (but on a Vietnamese page,
    // which offers its own rules first) what Play starts.
    await page.goto(`${url}/?lang=${language}`);
    await page.waitForSelector('body[data-ready=true]');
    const named = STANDARD[language];
    for (const select of ['#rules-choice select[name=preset]', '#ranked select[name=rules]']) {
      assert.ok((await page.textContent(`${select} option[value=qdan]`)).startsWith(named), select);
    }
    assert.ok((await page.textContent('#rulesets li:first-child strong')).startsWith(named));
    if (language !== 'vi') assert.ok((await page.textContent('#play-now-what')).startsWith(`${named} · `));
    await page.click('#compare summary');
    assert.doesNotMatch(await shows('body'), /Qdan/i, 'the home page');

    // The leaderboard's tab.
    await page.goto(`${url}/leaderboard/qdan?lang=${language}`);
    await page.waitForSelector('.records-tabs a[aria-current=page]');
    assert.equal(await page.textContent('.records-tabs a[aria-current=page]'), named);
    assert.doesNotMatch(await shows('body'), /Qdan/i, 'the leaderboard');

    // The rules page: its title, and one sentence saying where the rules come from.
    await page.goto(`${url}/rules/qdan?lang=${language}`);
    await page.waitForSelector('#rules-page:not([hidden]) h2');
    assert.equal(await page.textContent('#rules-page h2'), named);
    assert.ok((await page.title()).startsWith(named));
    const source = await page.textContent('#rules-page [data-fact=source]');
    assert.match(source, /Qdan/);
    if (SOURCE[language]) assert.equal(source, SOURCE[language]);
    assert.doesNotMatch((await shows('body')).replace(source, ''), /Qdan/i, 'the rules page');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
