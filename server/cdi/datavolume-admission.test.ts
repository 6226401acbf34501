import { describe, expect, it } from 'vitest';
import { admitDataVolume } from './datavolume-admission';

const cross = { metadata: { namespace: 't', name: 'd' }, spec: { source: { pvc: { namespace: 'g', name: 'disk' } } } };
const review = (request: unknown) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request });
const deny = async () => false;
const allow = async () => true;

describe('admitDataVolume', () => {
  it('denies a cross-namespace clone the user may not make: 403 with CDI\'s message, uid echoed', async () => {
    const got = await admitDataVolume(review({ uid: 'u1', operation: 'CREATE', namespace: 't', userInfo: { username: 'bob' }, object: cross }), deny);
    expect(got).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u1', allowed: false, status: { code: 403, reason: 'Forbidden', message: 'User bob has insufficient permissions in clone source namespace g' } } });
  });

  it.each([
    ['allowed clone', { uid: 'u', operation: 'CREATE', userInfo: { username: 'bob' }, object: cross }, allow],
    ['an update', { uid: 'u', operation: 'UPDATE', userInfo: { username: 'bob' }, object: cross }, deny],
    ['same namespace', { uid: 'u', operation: 'CREATE', userInfo: { username: 'bob' }, object: { ...cross, spec: { source: { pvc: { namespace: 't', name: 'disk' } } } } }, deny],
    ['an import', { uid: 'u', operation: 'CREATE', userInfo: { username: 'bob' }, object: { ...cross, spec: { source: { http: { url: 'x' } } } } }, deny],
  ])('allows %s', async (_n, request, reviewer) => {
    expect((await admitDataVolume(review(request), reviewer)).response).toEqual({ uid: 'u', allowed: true });
  });

  it('answers a review without a request with a 400 denial, not a crash', async () => {
    expect((await admitDataVolume({}, allow)).response).toMatchObject({ allowed: false, status: { code: 400 } });
    expect((await admitDataVolume(null, allow)).response.allowed).toBe(false);
  });
});
