import type { ApiContext } from '../rest/api-context';

export interface ControllerOptions { nodeLeaseTimeoutMs?: number }

/** starts the API server's own controllers; returns the function that stops them */
export function startControllers(_ctx: ApiContext, _opts: ControllerOptions): () => void {
  return () => {};
}
