// Plain JavaScript, not next.config.ts: Next.js compiles a TypeScript config with its native SWC
// binding every time the console starts, which maps ~24 MiB more into `kv console` (docs/performance.md, "Footprint").
/** @type {import('next').NextConfig} */
const config = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` type-checks the whole tree with tsc; the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ['@kubernetes/client-node', 'better-sqlite3', 'pino', 'ws'],
};

export default config;
