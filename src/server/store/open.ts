import { openEmbeddedStore } from './embedded/engine.ts';
import type { StoreEngine } from './types.ts';

/** The settings that choose and open a store engine. */
export interface StoreSettings {
  /** Folder of the embedded engine's files. */
  dataDir: string;
}

/**
 * Opens the store engine the settings choose. This is the one place an engine
 * is picked: a second engine is one more branch here.
 */
export function openStore({ dataDir }: StoreSettings): Promise<StoreEngine> {
  return openEmbeddedStore(dataDir);
}
