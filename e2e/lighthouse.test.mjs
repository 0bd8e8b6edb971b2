// Lighthouse's mobile run (its default: a mid-range phone, a slow 4G link and a CPU four times
// slower, all simulated) on the home page, a rules page and a room, and on a game against the CPU
// (which has no address of its own: Lighthouse follows Play and the first turns as a user flow): nothing moves once drawn (CLS), every
// page describes itself to search engines (SEO) and is usable by all (accessibility). Speed is
// printed, and held only to wide bounds: on this shared two-core machine the simulated LCP and TBT
// follow the load beside the test (docs/performance.md, "Core Web Vitals").
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import lighthouse, { startFlow } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { url } from './browser.mjs';

let chrome;
before(async () => {
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
});
after(() => chrome?.kill());

/** Lighthouse's figures for the page at `path`: scores out of 100, times in ms. */
async function audit(path) {
  const { lhr } = await lighthouse(`${url}${path}`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'seo'],
  });
  const score = (category) => Math.round(lhr.categories[category].score * 100);
  const failed = (category) => lhr.categories[category].auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative'
      && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
    .map((a) => a.id);
  const figures = {
    performance: score('performance'),
    accessibility: score('accessibility'),
    seo: score('seo'),
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    failing: [...failed('accessibility'), ...failed('seo')],
  };
  console.log(`${path}: performance ${figures.performance}, accessibility ${figures.accessibility}, `
    + `SEO ${figures.seo}, CLS ${figures.cls.toFixed(3)}, LCP ${(figures.lcp / 1000).toFixed(1)} s, `
    + `TBT ${Math.round(figures.tbt)} ms`);
  return figures;
}

/** What every page is held to. */
function check(figures) {
  assert.ok(figures.cls <= 0.1, `CLS ${figures.cls} (at most 0.1)`);
  assert.equal(figures.seo, 100, `SEO ${figures.seo}: ${figures.failing}`);
  assert.equal(figures.accessibility, 100, `accessibility ${figures.accessibility}: ${figures.failing}`);
  // Measured 2.7–4.4 s and 50–450 ms (docs/performance.md, release and debug servers): the
  // bounds allow what a loaded machine adds, to catch only a page that stalls.
  assert.ok(figures.lcp <= 10_000, `LCP ${figures.lcp} ms`);
  assert.ok(figures.tbt <= 3_000, `TBT ${figures.tbt} ms`);
}

test('the home page does not move once drawn, describes itself, is accessible and paints its largest text within 3 s', { timeout: 180_000 }, async () => {
  const figures = await audit('/');
  check(figures);
  // Shown before the engine is loaded (docs/performance.md): measured 1.8–1.9 s in most runs,
  // 2.6 s in some (where the simulation counts the engine's transfer before the largest paint).
  assert.ok(figures.lcp <= 3_000, `LCP ${figures.lcp} ms (at most 3 s)`);
});

test('a rules page in French does not move once drawn, describes itself, is accessible and paints its largest text within 3 s', { timeout: 180_000 }, async () => {
  const figures = await audit('/rules/qdan?lang=fr');
  check(figures);
  // Its words shown before the engine is loaded (docs/performance.md): measured 2.13–2.2 s on an
  // idle machine, 2.7 s in whole runs of the suite.
  assert.ok(figures.lcp <= 3_000, `LCP ${figures.lcp} ms (at most 3 s)`);
});

test('a room opened from its invitation does not move once drawn, describes itself, is accessible and paints its largest text within 3.5 s', { timeout: 180_000 }, async () => {
  const device = 'lighthouse-host-device-01';
  const response = await fetch(`${url}/api/rooms`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ device, name: 'Ana' }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const { code } = await response.json();
  const figures = await audit(`/r/${code}`);
  check(figures);
  // Its lobby drawn before the engine is asked for (docs/performance.md): measured 2.1 s in most
  // runs, 2.8 s in some (as the home page, the simulation then counting the engine's transfer);
  // 2.9–3.0 s when it waited for the engine. What is asked for in which order is held by
  // performance.test.mjs; this bound catches a page that stalls.
  assert.ok(figures.lcp <= 3_500, `LCP ${figures.lcp} ms (at most 3.5 s)`);
});

/**
 * Lighthouse's figures for a game against the CPU, as a returning player starts one from the home
 * page: a timespan from the tap on Play through the person's first `turns` turns (layout shifts,
 * blocking time and the slowest interaction, on a CPU four times slower), then a snapshot of the
 * table (accessibility, SEO).
 */
async function auditGame(turns) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const page = await browser.newPage();
  const flow = await startFlow(page, { flags: { onlyCategories: ['performance', 'accessibility', 'seo'] } });
  await flow.navigate(`${url}/?cpu-delay=0`);
  await page.waitForSelector('body[data-ready=true]');
  // A returning player: the first game's guide was seen.
  await page.evaluate(() => localStorage.setItem('ludo.guide', 'seen'));
  await flow.startTimespan();
  await page.click('#play-now');
  for (let turn = 0; turn < turns; turn++) {
    await page.waitForSelector('#roll[aria-disabled=false]', { timeout: 60_000 });
    await page.click('#roll');
    // A throw that leaves a choice waits for a piece; one that does not plays itself or passes.
    await page.waitForFunction(() => document.querySelector('#board .piece.legal')
      || document.querySelector('#roll').getAttribute('aria-disabled') === 'true', { timeout: 60_000, polling: 100 });
    const piece = await page.$('#board .piece.legal');
    if (piece) await piece.click();
  }
  await flow.endTimespan();
  await flow.snapshot();
  const [, timespan, snapshot] = (await flow.createFlowResult()).steps.map((step) => step.lhr);
  await browser.disconnect();
  const failed = (lhr, category) => lhr.categories[category].auditRefs.map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1 && !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode))
    .map((a) => a.id);
  const figures = {
    accessibility: Math.round(snapshot.categories.accessibility.score * 100),
    seo: Math.round(snapshot.categories.seo.score * 100),
    cls: timespan.audits['cumulative-layout-shift'].numericValue,
    tbt: timespan.audits['total-blocking-time'].numericValue,
    inp: timespan.audits['interaction-to-next-paint']?.numericValue ?? 0,
    failing: [...failed(snapshot, 'accessibility'), ...failed(snapshot, 'seo')],
  };
  console.log(`a game against the CPU, ${turns} turns: accessibility ${figures.accessibility}, SEO ${figures.seo}, `
    + `CLS ${figures.cls.toFixed(3)}, TBT ${Math.round(figures.tbt)} ms, INP ${Math.round(figures.inp)} ms`);
  return figures;
}

test('a game against the CPU does not move under the person\'s taps, is accessible, and its turns do not hold the page', { timeout: 300_000 }, async () => {
  const figures = await auditGame(3);
  assert.ok(figures.cls <= 0.1, `CLS ${figures.cls} (at most 0.1)`);
  assert.equal(figures.accessibility, 100, `accessibility ${figures.accessibility}: ${figures.failing}`);
  assert.equal(figures.seo, 100, `SEO ${figures.seo}: ${figures.failing}`);
  // The CPU really runs four times slower here, so that these follow the machine's load
  // (docs/performance.md: 1.3–1.8 s and 0.5 s idle, 6.4 s of blocking in a loaded run): held to
  // wide bounds, to catch a table that stalls.
  assert.ok(figures.tbt <= 20_000, `TBT ${figures.tbt} ms`);
  assert.ok(figures.inp <= 5_000, `INP ${figures.inp} ms`);
});
