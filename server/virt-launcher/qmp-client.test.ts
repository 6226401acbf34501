import { afterEach, describe, expect, it } from 'vitest';
import { QmpClient, QmpError } from './qmp-client';
import { startTestQemu, type TestQemu } from './test-qemu';

describe('QmpClient against a real QEMU', () => {
  let qemu: TestQemu | undefined;
  let qmp: QmpClient | undefined;
  afterEach(async () => {
    qmp?.close();
    await qemu?.stop();
    qemu = undefined;
    qmp = undefined;
  });

  async function connect(extra: string[] = ['-S']): Promise<QmpClient> {
    qemu = startTestQemu(extra);
    qmp = await QmpClient.connect(qemu.qmpPath, { timeoutMs: 5000 });
    return qmp;
  }

  it('negotiates capabilities and reads the QEMU version from the greeting', async () => {
    const c = await connect();
    expect(c.version?.qemu.major).toBeGreaterThanOrEqual(7);
    await expect(c.execute('query-status')).resolves.toMatchObject({ status: 'prelaunch', running: false });
  });

  it.each([
    ['an unknown command', 'no-such-command', undefined, 'CommandNotFound'],
    ['bad arguments', 'query-status', { bogus: 1 }, 'GenericError'],
  ])('rejects %s with the QMP error class', async (_label, cmd, args, errorClass) => {
    const c = await connect();
    const err = await c.execute(cmd, args as Record<string, unknown> | undefined).catch((e: unknown) => e) as QmpError;
    expect(err).toBeInstanceOf(QmpError);
    expect(err.errorClass).toBe(errorClass);
  });

  it('answers concurrent commands by id', async () => {
    const c = await connect();
    const [a, b, v] = await Promise.all([c.execute('query-status'), c.execute('query-name'), c.execute<{ qemu: object }>('query-version')]);
    expect(a).toHaveProperty('status');
    expect(b).toEqual({});
    expect(v).toHaveProperty('qemu');
  });

  it('delivers events (cont → RESUME, stop → STOP)', async () => {
    const c = await connect();
    const resumed = c.waitForEvent('RESUME', { timeoutMs: 3000 });
    await c.execute('cont');
    await expect(resumed).resolves.toMatchObject({ event: 'RESUME' });
    const stopped = c.waitForEvent('STOP', { timeoutMs: 3000 });
    await c.execute('stop');
    await expect(stopped).resolves.toMatchObject({ event: 'STOP' });
  });

  it('emits close and fails later commands when QEMU exits', async () => {
    const c = await connect();
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    const shutdown = c.waitForEvent('SHUTDOWN', { timeoutMs: 3000 });
    await c.execute('quit').catch(() => undefined);
    await shutdown;
    await closed;
    expect(c.closed).toBe(true);
    await expect(c.execute('query-status')).rejects.toMatchObject({ errorClass: 'Disconnected' });
  });

  it('gives up connecting with an error when no QEMU listens', async () => {
    await expect(QmpClient.connect('/nonexistent/dir/qmp.sock', { timeoutMs: 200 })).rejects.toThrow();
  });
});
