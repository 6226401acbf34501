import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openSqliteStore } from './sqlite-store';
import { describeStoreContract } from './store-contract';
import type { Store } from './types';

const dir = mkdtempSync(join(tmpdir(), 'kv-store-'));
const paths = new WeakMap<Store, string>();
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStoreContract('sqlite', {
  open(opts) {
    const path = join(dir, `state-${n++}.db`);
    const s = openSqliteStore(path, opts);
    paths.set(s, path);
    return s;
  },
  reopen(s) {
    const path = paths.get(s)!;
    s.close();
    const again = openSqliteStore(path);
    paths.set(again, path);
    return again;
  },
});
