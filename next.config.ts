import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['@kubernetes/client-node', 'better-sqlite3', 'pino', 'ws'],
};

export default config;
