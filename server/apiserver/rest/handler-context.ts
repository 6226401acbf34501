import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext, User } from './api-context';
import type { RequestInfo } from './request-info';
import type { ServedType } from './types/resource-type';

/** one resource request on its way through the handlers */
export interface ResourceRequest {
  ctx: ApiContext;
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  rt: ServedType;
  user: User;
  bookmarkIntervalMs: number;
}

export function warningHeaders(warnings: string[]): Record<string, string> {
  if (!warnings.length) return {};
  return { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}
