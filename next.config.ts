import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `npm test` type-checks the whole tree with tsc; the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ['@kubernetes/client-node', 'better-sqlite3', 'pino', 'ws'],
};

export default config;
