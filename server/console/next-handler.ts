/**
 * The console's Next.js request handler, loaded once: the console starts the load in the background
 * as soon as it listens (so `/healthz` does not wait for Next), and a page request that comes first
 * waits for that one load; concurrent first requests share it. Loading only on the first page
 * request would save ~20 MiB while no one has opened the console, but made the first page after
 * every start 1.3–1.7 s instead of 0.17 s — not adopted (docs/performance.md, "Footprint").
 * `--dev` loads before listening (its compiler and HMR want to be up at once).
 */
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { UrlWithParsedQuery } from 'node:url';

export type NextHandler = (req: IncomingMessage, res: ServerResponse, url: UrlWithParsedQuery) => Promise<void>;

export interface NextOptions { dir: string; dev: boolean; hostname: string; port: number }

/**
 * A production console cannot serve without `next build`'s output: say so at start (as Next's own
 * prepare would), not on the first page request after kv up reported the console ready.
 */
export function checkProductionBuild(dir: string): void {
  if (!existsSync(join(dir, '.next', 'BUILD_ID'))) {
    throw new Error(`no production build of the console in ${join(dir, '.next')}: run \`npm run build\` first (or start it with --dev)`);
  }
}

/** A handler that loads and prepares Next on its first call; a failed load is retried by the next request. */
export function lazyNextHandler(o: NextOptions): { handle: NextHandler; load: () => Promise<NextHandler> } {
  let loading: Promise<NextHandler> | undefined;
  const load = () => {
    loading ??= (async () => {
      const { default: next } = await import('next');
      const app = next({ dev: o.dev, dir: o.dir, hostname: o.hostname, port: o.port });
      await app.prepare();
      return app.getRequestHandler();
    })().catch((err: unknown) => { loading = undefined; throw err; });
    return loading;
  };
  return { handle: async (req, res, url) => (await load())(req, res, url), load };
}
