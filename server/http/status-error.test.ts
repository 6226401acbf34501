import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { asStatusError, rejectUpgrade, statusError, StatusError } from './status-error';

describe('the one Status error', () => {
  it.each([[400, 'BadRequest'], [401, 'Unauthorized'], [404, 'NotFound'], [409, 'Conflict'], [413, 'RequestEntityTooLarge'], [422, 'Invalid'], [429, 'TooManyRequests'], [503, 'ServiceUnavailable'], [418, 'Unknown']])(
    'code %i has reason %s', (code, reason) => {
      expect(statusError(code, 'm').toStatus()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'm', reason, code });
    });

  it('an unknown throw is a 500 with its message and no stack', () => {
    const s = asStatusError(new TypeError('boom')).toStatus();
    expect(s).toMatchObject({ code: 500, reason: 'InternalError', message: 'boom' });
    expect(JSON.stringify(s)).not.toContain('at ');
    expect(asStatusError('x', (m) => new StatusError(500, 'InternalError', `Internal error occurred: ${m}`)).message).toBe('Internal error occurred: x');
  });

  it('a refused upgrade is a parsable HTTP response with the Status, and the socket is closed', async () => {
    const socket = new PassThrough();
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    rejectUpgrade(socket, statusError(404, 'no such stream'));
    await new Promise((r) => socket.on('end', r));
    const text = Buffer.concat(chunks).toString();
    expect(text).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    const [head, body] = text.split('\r\n\r\n');
    expect(Number(/content-length: (\d+)/.exec(head)![1])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound', message: 'no such stream' });
  });
});
