import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openEmbeddedStore } from '../../src/server/store/embedded/engine.ts';
import { storeContract } from '../support/store-contract.ts';

// Every store's directory lives under one root, removed once the run is over.
const ROOT = await mkdtemp(join(tmpdir(), 'store-contract-embedded-'));
after(() => rm(ROOT, { recursive: true, force: true }));

storeContract('embedded', {
  fresh: () => mkdtemp(join(ROOT, 'store-')),
  open: (dir, options) => openEmbeddedStore(dir, options),
});
