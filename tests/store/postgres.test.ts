import { after } from 'node:test';
import { openPostgresStore } from '../../src/server/store/postgres/engine.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { storeContract } from '../support/store-contract.ts';

// A database per store, on the machine's PostgreSQL, dropped once the run is over.
after(dropDatabases);

storeContract('PostgreSQL', {
  fresh: () => freshDatabase('store_contract'),
  open: (url) => openPostgresStore(url),
});
