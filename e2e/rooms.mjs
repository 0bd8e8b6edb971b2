// What the tests of online rooms share: a room made by its host, its game started, what a page
// shows, and screenshots of it on a phone and a desktop.
import assert from 'node:assert/strict';
import { person, url } from './browser.mjs';

/** Where screenshots go, if anywhere (LUDO_SHOTS). */
export const shots = process.env.LUDO_SHOTS;
export const PHONE = { width: 360, height: 640 };
export const DESKTOP = { width: 1280, height: 800 };
export const FRENCH = { locale: 'fr-FR' };

/**
 * A room created by `name` on a device of their own in `browser` (`settings` as `POST /api/rooms`
 * takes them), with the room's page open: the host is seated at yellow.
 */
export async function hostRoom(browser, name, settings = {}, options = {}) {
  const host = await person(browser, '/', options);
  const code = await host.page.evaluate(async ({ name, settings }) => {
    const { deviceSecret } = await import('/room/identity.js');
    localStorage.setItem('ludo.name', name);
    const response = await fetch('/api/rooms', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device: deviceSecret(), name, ...settings }) });
    return (await response.json()).code;
  }, { name, settings });
  await host.page.goto(`${url}/r/${code}?free-after=1500`);
  await host.page.waitForSelector('body[data-ready=true]');
  await seated(host.page, 'yellow', name);
  return { ...host, code };
}

/** Waits until `page` shows `name` seated at `colour` in the room's seats. */
export function seated(page, colour, name) {
  return page.waitForFunction(([colour, name]) => document.querySelector(`#seats li[data-seat=${colour}] span`)
    ?.textContent.endsWith(`: ${name}`), [colour, name]);
}

/** The host starts the game; every page waits until it shows. */
export async function start(host, ...others) {
  await host.page.click('#start');
  for (const who of [host, ...others]) await who.page.waitForSelector('#board .base');
}

/** Waits until `selector`'s text on `page` includes `text`; on a timeout, says what it shows instead. */
export async function shows(page, selector, text) {
  try {
    await page.waitForFunction(([selector, text]) => document.querySelector(selector)?.textContent.includes(text),
      [selector, text], { timeout: 10000 });
  } catch {
    assert.fail(`${selector} shows ${JSON.stringify(await page.textContent(selector))}, not ${JSON.stringify(text)}`);
  }
}

/** Screenshots of `page` on a phone and a desktop, `selector` scrolled into view, named `name-…-language`. */
export async function shoot(page, name, language, selector) {
  if (!shots) return;
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    if (selector) await page.locator(selector).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/${name}-${size.width}x${size.height}-${language}.png` });
  }
}
