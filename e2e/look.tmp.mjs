import { launch, person } from './browser.mjs';
const browser = await launch();
for (const [w, h, locale] of [[360, 640, 'en'], [390, 844, 'fr'], [1280, 800, 'en']]) {
  const { page, errors } = await person(browser, '/', { viewport: { width: w, height: h }, locale });
  await page.screenshot({ path: `/tmp/shots/home-${w}-${locale}.png` });
  console.log(w, locale, await page.evaluate(() => document.documentElement.scrollHeight), errors);
  if (w === 360) {
    await page.click('#open-friends');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/shots/sheet-friends-${w}-${locale}.png` });
  }
  await page.context().close();
}
await browser.close();
