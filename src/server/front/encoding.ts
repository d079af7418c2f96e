import { brotliCompressSync, constants, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** A body in each encoding worth keeping; `identity` is always there. */
export interface EncodedBodies {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Bodies this small gain nothing from compression once headers are counted. */
const MIN_COMPRESSIBLE_BYTES = 1024;

function options(identity: Buffer, quality: number): { br: BrotliOptions; gzip: ZlibOptions } {
  return {
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } },
    gzip: { level: Math.min(9, quality) },
  };
}

function kept(identity: Buffer, br: Buffer, gzip: Buffer): EncodedBodies {
  return {
    identity,
    ...(br.length < identity.length ? { br } : {}),
    ...(gzip.length < identity.length ? { gzip } : {}),
  };
}

/**
 * Compresses a body once, keeping only encodings that make it smaller.
 * `quality` trades time for bytes: the build chooses it by file
 * (src/build/precompress.ts), answers compressed while a reader waits take a low one.
 */
export function encodeBody(identity: Buffer, quality: number): EncodedBodies {
  if (identity.length < MIN_COMPRESSIBLE_BYTES) return { identity };
  const settings = options(identity, quality);
  return kept(identity, brotliCompressSync(identity, settings.br), gzipSync(identity, settings.gzip));
}

/** The best encoding the caller accepts among those we have: br, then gzip, else none. */
export function chooseEncoding(acceptEncoding: string | undefined, bodies: Partial<Record<Encoding, unknown>>): Encoding | null {
  if (!acceptEncoding || (!bodies.br && !bodies.gzip)) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const qParam = params.find((param) => param.startsWith('q='));
    accepted.set(name, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const wildcard = accepted.get('*') ?? 0;
  const acceptable = (name: Encoding) => (accepted.get(name) ?? wildcard) > 0;
  if (bodies.br && acceptable('br')) return 'br';
  if (bodies.gzip && acceptable('gzip')) return 'gzip';
  return null;
}
