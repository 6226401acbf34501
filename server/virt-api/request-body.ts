/** Reads an optional JSON or YAML request body (KubeVirt accepts both), capped in size. */
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError } from './api-error';
import { unmarshalError } from './lifecycle/options';

const MAX_BODY_BYTES = 1024 * 1024;

export async function readOptionalBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'RequestEntityTooLarge', 'request body too large');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return undefined;
  try {
    return /yaml/i.test(req.headers['content-type'] ?? '') ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    throw unmarshalError((err as Error).message);
  }
}
