import { openEmbeddedStore } from './embedded/engine.ts';
import type { StoreEngine } from './roles.ts';
import type { NotificationChannel } from './types.ts';

/** The settings that choose and open a store engine. */
export interface StoreSettings {
  /** Folder of the embedded engine's files. */
  dataDir: string;
  /** PostgreSQL's address: when set, the store is there and `dataDir` is not used. */
  databaseUrl: string | undefined;
  /** For the owner's tool: no time limit on a statement (an export reads for minutes); the site keeps them short. */
  longStatements?: boolean;
  /** The channels new records are put in the outbox for; none for the owner's tool, which stores no new record. */
  notificationChannels?: readonly NotificationChannel[];
}

/** Opens the store engine the settings choose. This is the one place an engine is picked. */
export async function openStore({
  dataDir,
  databaseUrl,
  longStatements = false,
  notificationChannels = [],
}: StoreSettings): Promise<StoreEngine> {
  if (!databaseUrl) return openEmbeddedStore(dataDir, { notificationChannels });
  // The PostgreSQL driver and its migrations are loaded only for a site that uses them.
  const { openPostgresStore } = await import('./postgres/engine.ts');
  return openPostgresStore(databaseUrl, longStatements ? { timeoutMs: null, poolSize: 2, watchBans: false } : { notificationChannels });
}
