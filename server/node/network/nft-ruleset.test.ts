import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderNodeRules, renderReplaceScript } from './nft-ruleset';

const input = { table: 'kv-node7', bridge: 'kv-br7', podCidr: '10.244.7.0/24' };

describe('node nftables rules', () => {
  it('drops new connections from the bridge to the host and masquerades pod egress', () => {
    const r = renderNodeRules(input);
    expect(r).toContain('iifname "kv-br7" ct state established,related accept\n');
    expect(r).toMatch(/iifname "kv-br7" ip daddr 10\.96\.0\.10 meta l4proto \{ tcp, udp \} th dport 53 accept\n {4}iifname "kv-br7" ct original ip daddr 10\.96\.0\.1 meta l4proto tcp accept\n {4}iifname "kv-br7" drop/);
    expect(r).toContain('iifname "kv-br7" ip daddr 127.0.0.0/8 drop');
    // pods of other nodes see the real source address (NetworkPolicy peers, logs): no NAT inside 10.244.0.0/16
    expect(r).toContain('ip saddr 10.244.7.0/24 ip daddr != 10.244.0.0/16 masquerade');
  });

  it('is accepted by nft (check mode) when nft is installed', () => {
    if (!existsSync('/usr/sbin/nft') || process.getuid?.() !== 0) return;
    expect(() => execFileSync('nft', ['-c', '-f', '-'], { input: renderReplaceScript(input), stdio: ['pipe', 'pipe', 'pipe'] })).not.toThrow();
  });
});
