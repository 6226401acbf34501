import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postAdmissionReview } from './webhook-client';

let server: Server | undefined;
afterEach(async () => { await new Promise((r) => server?.close(r) ?? r(undefined)); server = undefined; });

/** A webhook that answers once per connection: a review sent on a socket it already answered on is dropped unread, as a closed idle socket would. */
async function oncePerConnection(): Promise<{ url: string; reviewed: string[] }> {
  const reviewed: string[] = [];
  const answered = new WeakSet<Socket>();
  server = createServer((req, res) => {
    if (answered.has(req.socket)) return void req.socket.destroy();
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const review = JSON.parse(body);
      reviewed.push(review.request.uid);
      answered.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...review, response: { uid: review.request.uid, allowed: true } }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/validate`, reviewed };
}

const review = (uid: string) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid } });

describe('postAdmissionReview', () => {
  it('kept-alive sockets the webhook closed, all at once: the review is sent again on a new connection and reviewed once', async () => {
    const hook = await oncePerConnection();
    await Promise.all(['a', 'b', 'c'].map((uid) => postAdmissionReview({ url: hook.url }, review(uid), 5)));
    const reply = await postAdmissionReview({ url: hook.url }, review('d'), 5);
    expect(reply).toMatchObject({ response: { uid: 'd', allowed: true } });
    expect(hook.reviewed.sort()).toEqual(['a', 'b', 'c', 'd']);
  });
});
