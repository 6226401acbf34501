/**
 * Test support: reads a swtpm state directory's TPM2 clock (TPM2_ReadClock) through a short-lived
 * swtpm, to see whether a TPM's state carried over. `resetCount` counts TPM resets (each power-on
 * with Startup(CLEAR)) and lives in the TPM's non-volatile state: a state dir that was reused keeps
 * counting, a fresh one starts again.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** TPM2_ReadClock: tag TPM_ST_NO_SESSIONS, size 10, command code 0x181 */
const READ_CLOCK = Buffer.from([0x80, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x01, 0x81]);

export interface TpmClock { clock: bigint; resetCount: number; restartCount: number }

export async function readTpmClock(stateDir: string): Promise<TpmClock> {
  const tmp = mkdtempSync(join(tmpdir(), 'swtpm-clock-'));
  const server = join(tmp, 'server.sock');
  const proc = spawn('swtpm', ['socket', '--tpm2', '--tpmstate', `dir=${stateDir}`, '--server', `type=unixio,path=${server}`,
    '--ctrl', `type=unixio,path=${join(tmp, 'ctrl.sock')}`, '--flags', 'not-need-init,startup-clear'], { stdio: 'ignore' });
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        return await exchange(server);
      } catch (err) {
        if (Date.now() > deadline || proc.exitCode !== null) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => (proc.exitCode !== null ? r(undefined) : proc.once('exit', r)));
    rmSync(tmp, { recursive: true, force: true });
  }
}

function exchange(path: string): Promise<TpmClock> {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    let buf = Buffer.alloc(0);
    sock.once('error', reject);
    sock.on('connect', () => sock.write(READ_CLOCK));
    sock.on('data', (c) => {
      buf = Buffer.concat([buf, c]);
      if (buf.length < 10 || buf.length < buf.readUInt32BE(2)) return;
      sock.end();
      const rc = buf.readUInt32BE(6);
      if (rc !== 0) return reject(new Error(`TPM2_ReadClock: response code 0x${rc.toString(16)}`));
      // TPMS_TIME_INFO: time (8), clockInfo { clock (8), resetCount (4), restartCount (4), safe (1) }
      resolve({ clock: buf.readBigUInt64BE(18), resetCount: buf.readUInt32BE(26), restartCount: buf.readUInt32BE(30) });
    });
  });
}
