/** The kubeconfig a component under test uses to reach a TestServer as admin, written where `kv up` writes it. */
import { dataPaths } from '../../data-dir';
import { writeKubeconfig } from '../kubeconfig';
import type { TestServer } from './test-server';

/** writes DIR/kubeconfig for the server's admin and returns its path */
export function writeAdminKubeconfig(api: TestServer): string {
  const path = dataPaths(api.dataDir).kubeconfig;
  writeKubeconfig(path, { server: api.srv.url, caPem: api.srv.caPem, token: api.srv.adminToken });
  return path;
}
