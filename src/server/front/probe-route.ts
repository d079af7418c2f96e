import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Served } from '../observability/requests.ts';
import type { PathRoute } from './route.ts';
import { sentBody } from './send.ts';

/** A probe's response: always JSON, never kept by anyone. */
interface Probed {
  status: number;
  body: string;
}

/** Answers by exact path: a health probe, a form's stamp or challenge. */
export type Probes = ReadonlyMap<string, () => Promise<Probed>>;

/** A probe's response: JSON, `no-store`, GET and HEAD only. Returns the body's bytes sent. */
async function sendProbe(
  req: IncomingMessage,
  res: ServerResponse,
  probe: () => Promise<Probed>,
  baseList: readonly string[],
): Promise<number> {
  const headers = [...baseList, 'cache-control', 'no-store'];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, [...headers, 'allow', 'GET, HEAD', 'content-length', '0']);
    res.end();
    return 0;
  }
  const { status, body } = await probe();
  res.writeHead(status, [...headers, 'content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(body))]);
  return sentBody(req, res, body);
}

/**
 * The route of `probes`, by exact path, counted as `kind`: no page, file or
 * API route can shadow them, and they cost no URL parsing. `baseList` is the
 * server's base headers as a flat list.
 */
export function probeRoute(probes: Probes, kind: Served['kind'], baseList: readonly string[]): PathRoute {
  return (req, res, path, served) => {
    const probe = probes.get(path);
    if (!probe) return null;
    served.kind = kind;
    return sendProbe(req, res, probe, baseList);
  };
}
