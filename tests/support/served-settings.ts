// Preloaded (`node --import`) into every test server's npm start, and so
// into the server it execs (scripts/serve.mjs): in that server, before it
// reads any setting, each setting set aside for it (prepared-build.ts) takes
// the server's own value back; an empty one is unset, as for any setting.
import { SERVED_PREFIX } from './prepared-build.ts';

if (process.argv[1]?.endsWith('serve.mjs')) {
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith(SERVED_PREFIX) || value === undefined) continue;
    process.env[name.slice(SERVED_PREFIX.length)] = value;
    Reflect.deleteProperty(process.env, name);
  }
}
