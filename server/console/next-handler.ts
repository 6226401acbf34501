/**
 * The console's Next.js request handler, loaded when the first page is asked for rather than at
 * start: an idle console (no one has opened it since `kv up` or its last restart) holds neither
 * Next's server modules nor its prepared routes, ~20 MiB less (docs/performance.md, "Footprint").
 * The first page request waits for the load once (0.3–0.9 s on the 2-core machine); concurrent
 * first requests share it. `--dev` loads at start (its compiler and HMR want to be up at once).
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
