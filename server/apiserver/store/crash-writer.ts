/**
 * Child process of crash-safety.test.ts: `writers` concurrent loops create keys as fast as they
 * can (so their writes share group commits) and print "<key> <revision>" for each write the
 * store acknowledged, until the process is killed. Every 20th acknowledged write also prints
 * "# <batches> <writes>" (the store's commit stats).
 * Usage: node --import tsx crash-writer.ts <db-path> <key-prefix> [writers=1]
 */
import { openSqliteStore } from './sqlite-store';

const [path, prefix, writersArg] = process.argv.slice(2);
const store = openSqliteStore(path);
const writers = Number(writersArg ?? 1);
let acks = 0;

async function writeForever(w: number): Promise<void> {
  for (let i = 0; ; i++) {
    const key = `${prefix}w${w}/${i}`;
    const rev = await store.create(key, JSON.stringify({ metadata: { name: key }, payload: 'x'.repeat(200) }));
    // stdout to a pipe is synchronous on Linux: the line is out before the next write is submitted
    process.stdout.write(`${key} ${rev}\n`);
    if (++acks % 20 === 0) {
      const { batches, writes } = store.commitStats();
      process.stdout.write(`# ${batches} ${writes}\n`);
    }
  }
}

await Promise.all(Array.from({ length: writers }, (_, w) => writeForever(w)));
