// What the browser tests share: Debian's Chromium, started once per test file, and the server's
// address (from `cargo test`, crates/ludo-server/tests/browser.rs).
import { chromium } from 'playwright-core';

/** The server under test. */
export const url = process.env.LUDO_URL;

/** Starts Chromium with the flags this machine needs (no sandbox as root, no background network). */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
