import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
const newDir = () => { const d = mkdtempSync(join(tmpdir(), 'kv-lock-')); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

describe('one cluster per data dir', () => {
  it('a second holder is refused with a message naming the first, and the first keeps its lock', async () => {
    const dir = newDir();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: sleeper.pid, command: 'kv up' }));
      expect(() => lockDataDir(dir, 'kv up')).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir, 'kv up')).toThrow(`data dir ${dir} is in use by kv up (pid ${sleeper.pid})`);
      expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a lock left by a dead process is taken over, and released on stop', () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 12345, command: 'kv up' }));
    const release = lockDataDir(dir, 'kv up');
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('a garbage lock file is stale', () => {
    const dir = newDir();
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    expect(() => lockDataDir(dir, 'kv up')()).not.toThrow();
  });
});

describe('socket path length', () => {
  it('a data dir whose sockets would pass the kernel limit is refused with the longest size allowed', async () => {
    const { checkSocketPathLength, longestSocketPath, UNIX_SOCKET_PATH_MAX } = await import('./data-dir');
    expect(() => checkSocketPathLength('/root/.kubevirt-ts', 'node-2')).not.toThrow();
    const long = `/tmp/${'x'.repeat(60)}`;
    expect(() => checkSocketPathLength(long, 'node-2')).toThrow(/is too long: its unix sockets would be \d+ bytes, over the kernel's 107; use a data dir of at most \d+ bytes/);
    const allowed = Number(/at most (\d+) bytes/.exec((() => { try { checkSocketPathLength(long, 'node-2'); return ''; } catch (e) { return (e as Error).message; } })())![1]);
    expect(Buffer.byteLength(longestSocketPath(long.slice(0, allowed), 'node-2'))).toBe(UNIX_SOCKET_PATH_MAX);
  });
});
