// The server's process, as npm start (scripts/start.ts) execs it once the
// build is current. Plain JavaScript on purpose: everything it runs is the
// build's, so Node never loads its TypeScript stripper, which it would hold for good.
// The build is the one in the folder the site runs in, the folder start.ts
// checked (its BUILD_MARK, scripts/build-site.ts), whatever folder holds this script.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.cwd();
const { serveSite } = await import(pathToFileURL(join(root, 'dist/server/entry.mjs')).href);
await serveSite(root);
