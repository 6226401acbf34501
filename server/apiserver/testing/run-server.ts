/**
 * A standalone API server for tests that must kill it (crash safety) or run it apart
 * from the client (benchmarks): prints one JSON line {url, caPem, adminToken} when ready.
 * usage: node --import tsx server/apiserver/testing/run-server.ts DATA_DIR [PORT]
 */
import { startApiServer } from '../server';
import { createMemoryStore } from '../store/memory-store';

const [dataDir, port] = process.argv.slice(2);
const memory = process.env.KV_APISERVER_STORE === 'memory';
const srv = await startApiServer({ dataDir, port: port ? Number(port) : 0, storeFactory: memory ? () => createMemoryStore() : undefined });
process.stdout.write(`${JSON.stringify({ url: srv.url, port: srv.port, caPem: srv.caPem, adminToken: srv.adminToken })}\n`);
const stop = () => { srv.close().then(() => process.exit(0), () => process.exit(1)); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
