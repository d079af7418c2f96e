// Run first by `npm test`: the browser tests need the system Chromium. Install
// it where we may (root with apt-get), otherwise stop at once and say how.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

if (!existsSync(path)) {
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && path === '/usr/bin/chromium';
  if (!canInstall) {
    console.error(
      `The browser tests need Chromium at ${path}, and it is not there.\n` +
        `Install it (Debian/Ubuntu: sudo apt-get install -y chromium), or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.`,
    );
    process.exit(1);
  }
  console.log('Installing the system Chromium for the browser tests (apt-get install -y chromium)…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
