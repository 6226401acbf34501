import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ServicePort } from '../service-model';
import { renderProxyReplaceScript, renderProxyRules, serviceChain } from './proxy-ruleset';

const web: ServicePort = {
  namespace: 'default', service: 'web', portName: 'http', protocol: 'tcp', clusterIP: '10.96.7.7', port: 80, nodePort: 30080,
  endpoints: [{ ip: '10.244.1.2', port: 8080 }, { ip: '10.244.1.3', port: 8080 }, { ip: '10.244.2.4', port: 8080 }],
};
const dns: ServicePort = { namespace: 'apps', service: 'resolver', portName: '', protocol: 'udp', clusterIP: '10.96.7.8', port: 53, endpoints: [{ ip: '10.244.1.2', port: 5353 }] };
const empty: ServicePort = { namespace: 'default', service: 'down', portName: '', protocol: 'tcp', clusterIP: '10.96.7.9', port: 80, nodePort: 30081, endpoints: [] };
const headless: ServicePort = { namespace: 'default', service: 'db', portName: 'pg', protocol: 'tcp', port: 5432, endpoints: [{ ip: '10.244.1.9', port: 5432 }] };

const canNft = existsSync('/usr/sbin/nft') && process.getuid?.() === 0;
const nftCheck = (script: string) => execFileSync('nft', ['-c', '-f', '-'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] });

describe('service proxy nftables rules', () => {
  it('maps ClusterIP . proto . port to the Service chain and picks one of N endpoints at random', () => {
    const r = renderProxyRules({ ports: [web] });
    const chain = serviceChain(web);
    expect(r).toContain(`10.96.7.7 . tcp . 80 : goto ${chain}`);
    expect(r).toMatch(/numgen random mod 3 vmap \{ 0 : goto ep-\S+__10\.244\.1\.2\/8080, 1 : goto ep-\S+__10\.244\.1\.3\/8080, 2 : goto ep-\S+__10\.244\.2\.4\/8080 \}/);
    for (const ip of ['10.244.1.2', '10.244.1.3', '10.244.2.4']) {
      expect(r).toContain(`    ip saddr ${ip} jump mark-for-masquerade\n    meta l4proto tcp dnat to ${ip}:8080`); // hairpin
    }
  });

  it('goes straight to the only endpoint without numgen, with UDP DNAT', () => {
    const r = renderProxyRules({ ports: [dns] });
    expect(r).toContain('10.96.7.8 . udp . 53 : goto svc-');
    expect(r).not.toContain('numgen');
    expect(r).toContain('meta l4proto udp dnat to 10.244.1.2:5353');
  });

  it('hooks the services chain into prerouting (Pods) and output (host processes)', () => {
    const r = renderProxyRules({ ports: [web] });
    expect(r).toMatch(/chain nat-prerouting \{\n\s+type nat hook prerouting priority dstnat; policy accept;\n\s+jump services/);
    expect(r).toMatch(/chain nat-output \{\n\s+type nat hook output priority -100; policy accept;\n\s+jump services/);
  });

  it('sends NodePorts on every local address through an ext chain that always masquerades', () => {
    const r = renderProxyRules({ ports: [web] });
    expect(r).toContain('fib daddr type local meta l4proto . th dport vmap @service-nodeports');
    expect(r).toMatch(/tcp \. 30080 : goto ext-\S+default\/web\/tcp\/http/);
    expect(r).toMatch(/chain ext-\S+ \{\n\s+jump mark-for-masquerade\n\s+goto svc-/);
    expect(r).not.toContain('daddr != 127.0.0.0/8'); // localhost NodePorts are served
  });

  it('masquerades ClusterIP traffic that does not come from a Pod, and only marked traffic', () => {
    const r = renderProxyRules({ ports: [web], podCidr: '10.244.0.0/16' });
    expect(r).toContain('ip daddr 10.96.7.7 ip saddr != 10.244.0.0/16 jump mark-for-masquerade');
    expect(r).toMatch(/meta mark & 0x4000 == 0 return\n\s+meta mark set meta mark \^ 0x4000\n\s+masquerade fully-random/);
  });

  it('rejects (never drops) new connections to a Service port with no ready endpoint, ClusterIP and NodePort', () => {
    const r = renderProxyRules({ ports: [empty] });
    expect(r).toContain('10.96.7.9 . tcp . 80 : goto reject-chain');
    expect(r).toContain('tcp . 30081 : goto reject-chain');
    expect(r).not.toContain('10.96.7.9 . tcp . 80 : goto svc-');
    expect(r).toMatch(/chain reject-chain \{\n\s+reject\n/);
    for (const hook of ['input', 'forward', 'output']) expect(r).toMatch(new RegExp(`type filter hook ${hook} priority filter - 10; policy accept;\\n\\s+ct state new jump service-endpoints-check`));
    expect(r.replace('iifname != "lo" ip daddr 127.0.0.0/8 drop', '')).not.toContain('drop');
  });

  it('drops packets for loopback addresses that arrive on any link but lo (route_localnet is on)', () => {
    expect(renderProxyRules({ ports: [] })).toMatch(/type filter hook prerouting priority dstnat - 10; policy accept;\n\s+iifname != "lo" ip daddr 127\.0\.0\.0\/8 drop/);
  });

  it('keeps a client on its endpoint with sessionAffinity ClientIP (timed set per endpoint)', () => {
    const r = renderProxyRules({ ports: [{ ...web, affinitySeconds: 600 }] });
    expect(r).toMatch(/set affinity-\S+__10\.244\.1\.2\/8080 \{\n\s+type ipv4_addr\n\s+flags dynamic,timeout\n\s+timeout 600s/);
    expect(r).toMatch(/ip saddr @affinity-\S+__10\.244\.1\.3\/8080 goto ep-\S+__10\.244\.1\.3\/8080\n[\s\S]*numgen random mod 3/);
    expect(r).toMatch(/update @affinity-\S+__10\.244\.2\.4\/8080 \{ ip saddr \}\n\s+meta l4proto tcp dnat to 10\.244\.2\.4:8080/);
    expect(renderProxyRules({ ports: [web] })).not.toContain('affinity');
  });

  it('writes nothing for headless Services and renders empty maps without elements', () => {
    const r = renderProxyRules({ ports: [headless] });
    expect(r).not.toContain('5432');
    expect(r).not.toContain('elements');
  });

  it('renders the same script for the same input (so an unchanged cluster is not rewritten)', () => {
    expect(renderProxyRules({ ports: [web, dns, empty] })).toBe(renderProxyRules({ ports: [web, dns, empty] }));
    expect(serviceChain(web)).not.toBe(serviceChain({ ...web, namespace: 'other' }));
  });

  it.skipIf(!canNft)('is accepted by nft (check mode): empty, mixed and 100 Services', () => {
    expect(() => nftCheck(renderProxyReplaceScript({ ports: [] }))).not.toThrow();
    expect(() => nftCheck(renderProxyReplaceScript({ ports: [web, dns, empty, headless, { ...web, service: 'sticky', clusterIP: '10.96.7.10', nodePort: 30082, affinitySeconds: 10800 }] }))).not.toThrow();
    const many = Array.from({ length: 100 }, (_, n): ServicePort => ({ ...web, service: `web-${n}`, clusterIP: `10.96.8.${n + 1}`, nodePort: 30100 + n }));
    expect(() => nftCheck(renderProxyReplaceScript({ ports: many }))).not.toThrow();
  });
});
