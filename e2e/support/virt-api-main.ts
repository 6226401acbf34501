/**
 * virt-api as its own process for e2e tests on a `kv up --no-console` cluster (in `kv up` it lives
 * in the console's custom server, which needs a `next build`). Acts as the virt-api identity,
 * registers the APIService and webhooks, and prints `virt-api ready <url>` on stdout.
 *   node --import tsx e2e/support/virt-api-main.ts --data-dir DIR --allowed-origin URL
 */
import { parseArgs } from 'node:util';
import { dataPaths } from '../../server/data-dir';
import { startVirtApi } from '../../server/virt-api/virt-api-server';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, 'allowed-origin': { type: 'string', multiple: true } } });
const dataDir = values['data-dir']!;
const api = await startVirtApi({ kubeconfig: dataPaths(dataDir).componentKubeconfig('virt-api'), dataDir, allowedOrigins: values['allowed-origin'] ?? [] });
process.stdout.write(`virt-api ready ${api.url}\n`);
const stop = () => void api.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
