import { launch } from './browser.mjs';
const browser = await launch();
const context = await browser.newContext({ serviceWorkers: 'block' });
const page = await context.newPage();
await page.goto('http://127.0.0.1:8091/');
await page.waitForSelector('body[data-ready=true]');
await page.click('#play-now');
await page.waitForSelector('#board rect');
await page.waitForTimeout(1000);
const entries = await page.evaluate(() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
  .filter((e) => !new URL(e.name).pathname.startsWith('/api/tables/')).map((e) => [new URL(e.name).pathname, e.transferSize, e.encodedBodySize]));
entries.sort((a, b) => b[1] - a[1]);
let sum = 0; for (const e of entries) sum += e[1];
console.log((sum / 1024).toFixed(1), 'KiB', entries.length, 'files');
for (const e of entries) console.log(e.join(' '));
await browser.close();
