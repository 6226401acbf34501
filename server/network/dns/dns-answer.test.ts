import type { Question, SrvAnswer, StringAnswer } from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { answerClusterQuestion, RCODE_NOERROR, RCODE_NXDOMAIN } from './dns-answer';
import { buildDnsModel } from './dns-model';

const model = buildDnsModel(
  [
    { metadata: { namespace: 'default', name: 'web' }, spec: { clusterIP: '10.96.7.7', ports: [{ name: 'http', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }, { port: 9 }] } },
    { metadata: { namespace: 'apps', name: 'db' }, spec: { clusterIP: 'None', ports: [{ name: 'pg', port: 5432 }] } },
    { metadata: { namespace: 'apps', name: 'far' }, spec: { type: 'ExternalName', externalName: 'example.com' } },
  ],
  (ns, name) => (ns === 'apps' && name === 'db'
    ? [{ addressType: 'IPv4', endpoints: [{ addresses: ['10.244.2.5'] }, { addresses: ['10.244.1.4'], conditions: { ready: true } }, { addresses: ['10.244.1.9'], conditions: { ready: false } }] }]
    : []),
);

const ask = (name: string, type: Question['type'] = 'A') => answerClusterQuestion(model, { name, type, class: 'IN' });
const data = (name: string, type: Question['type'] = 'A') => ask(name, type)?.answers.map((a) => (a as StringAnswer).data);

describe('cluster DNS answers', () => {
  it('answers a Service name with its ClusterIP, any case, with or without the trailing dot', () => {
    expect(data('web.default.svc.cluster.local')).toEqual(['10.96.7.7']);
    expect(data('WEB.Default.svc.cluster.local.')).toEqual(['10.96.7.7']);
    expect(ask('web.default.svc.cluster.local')?.answers[0]).toMatchObject({ type: 'A', ttl: 5, name: 'web.default.svc.cluster.local' });
  });

  it('answers a headless Service with its ready endpoints and each endpoint by its dashed address', () => {
    expect(data('db.apps.svc.cluster.local')).toEqual(['10.244.1.4', '10.244.2.5']);
    expect(data('10-244-2-5.db.apps.svc.cluster.local')).toEqual(['10.244.2.5']);
    expect(ask('10-244-1-9.db.apps.svc.cluster.local')?.rcode).toBe(RCODE_NXDOMAIN); // not ready
  });

  it('answers SRV for named ports with the target and its address', () => {
    const a = ask('_http._tcp.web.default.svc.cluster.local', 'SRV')!;
    expect(a.rcode).toBe(RCODE_NOERROR);
    expect((a.answers[0] as SrvAnswer).data).toMatchObject({ port: 80, target: 'web.default.svc.cluster.local' });
    expect(a.additionals).toMatchObject([{ type: 'A', name: 'web.default.svc.cluster.local', data: '10.96.7.7' }]);
    expect(((ask('_dns._udp.web.default.svc.cluster.local', 'SRV')!.answers[0]) as SrvAnswer).data.port).toBe(53);
    expect(ask('_dns._tcp.web.default.svc.cluster.local', 'SRV')?.rcode).toBe(RCODE_NXDOMAIN);
    const hl = ask('_pg._tcp.db.apps.svc.cluster.local', 'SRV')!;
    expect(hl.answers.map((x) => (x as SrvAnswer).data.target)).toEqual(['10-244-1-4.db.apps.svc.cluster.local', '10-244-2-5.db.apps.svc.cluster.local']);
  });

  it('answers <a-b-c-d>.<ns>.pod.cluster.local with that address', () => {
    expect(data('10-244-1-7.default.pod.cluster.local')).toEqual(['10.244.1.7']);
    expect(ask('10-244-1-999.default.pod.cluster.local')?.rcode).toBe(RCODE_NXDOMAIN);
  });

  it('says NXDOMAIN (with the zone SOA) for unknown names and search-list tries, NOERROR/no data for other types', () => {
    for (const n of ['nope.default.svc.cluster.local', 'web.other.svc.cluster.local', 'far.apps.svc.cluster.local', 'web.default.svc.cluster.local.default.svc.cluster.local', 'x.cluster.local']) {
      const a = ask(n)!;
      expect(a.rcode, n).toBe(RCODE_NXDOMAIN);
      expect(a.authorities[0]).toMatchObject({ type: 'SOA', name: 'cluster.local' });
    }
    const aaaa = ask('web.default.svc.cluster.local', 'AAAA')!;
    expect(aaaa).toMatchObject({ rcode: RCODE_NOERROR, answers: [] });
    expect(ask('default.svc.cluster.local')).toMatchObject({ rcode: RCODE_NOERROR, answers: [] });
  });

  it('leaves names outside the cluster domain to the forwarder', () => {
    expect(ask('example.com')).toBeUndefined();
    expect(ask('notcluster.local')).toBeUndefined();
  });
});
