/**
 * Child process of crash-safety.test.ts: creates keys as fast as it can and prints
 * "<key> <revision>" for each write the store acknowledged, until it is killed.
 * Usage: node --import tsx crash-writer.ts <db-path> <key-prefix>
 */
import { openSqliteStore } from './sqlite-store';

const [path, prefix] = process.argv.slice(2);
const store = openSqliteStore(path);
for (let i = 0; ; i++) {
  const key = `${prefix}${i}`;
  const rev = store.create(key, JSON.stringify({ metadata: { name: key }, payload: 'x'.repeat(200) }));
  process.stdout.write(`${key} ${rev}\n`);
}
