// Lighthouse's mobile run (its default: a mid-range phone, a slow 4G link and a CPU four times
// slower, all simulated) on the home page, a rules page and a room: nothing moves once drawn (CLS), every
// page describes itself to search engines (SEO) and is usable by all (accessibility). Speed is
// printed, and held only to wide bounds: on this shared two-core machine the simulated LCP and TBT
// follow the load beside the test (docs/performance.md, "Core Web Vitals").
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
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

test('the home page does not move once drawn, describes itself, is accessible and paints its largest text within 2.5 s', { timeout: 180_000 }, async () => {
  const figures = await audit('/');
  check(figures);
  // Shown before the engine is loaded (docs/performance.md): measured 1.80–1.84 s.
  assert.ok(figures.lcp <= 2_500, `LCP ${figures.lcp} ms (at most 2.5 s)`);
});

test('a rules page in French does not move once drawn, describes itself, is accessible and paints its largest text within 2.5 s', { timeout: 180_000 }, async () => {
  const figures = await audit('/rules/qdan?lang=fr');
  check(figures);
  // Its words shown before the engine is loaded (docs/performance.md): measured 2.13–2.14 s.
  assert.ok(figures.lcp <= 2_500, `LCP ${figures.lcp} ms (at most 2.5 s)`);
});

test('a room opened from its invitation does not move once drawn, describes itself and is accessible', { timeout: 180_000 }, async () => {
  const device = 'lighthouse-host-device-01';
  const response = await fetch(`${url}/api/rooms`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ device, name: 'Ana' }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  const { code } = await response.json();
  check(await audit(`/r/${code}`));
});
