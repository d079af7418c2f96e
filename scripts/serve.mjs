// The server's process, as npm start (scripts/start.ts) execs it once the
// build is current. Plain JavaScript on purpose: everything it runs is the
// build's, so Node never loads its TypeScript stripper (about 17 MiB) here.
const { serveSite } = await import(new URL('../dist/server/entry.mjs', import.meta.url).href);
await serveSite(process.cwd());
