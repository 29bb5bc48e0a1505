/**
 * Debian's Chromium, as every browser test and the timeline benchmark launch it: the system binary
 * (this machine cannot download Playwright's browsers), headless, without a GPU or a sandbox, and
 * with nothing that would reach the network on its own.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
