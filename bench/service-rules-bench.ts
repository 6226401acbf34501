/**
 * Time to replace the service proxy's nftables table (render + `nft -f -`, one atomic transaction)
 * for N Services with 3 endpoints each, plus a NodePort: what a change costs once the debounce fires.
 * The table is written under another name (ip kv-proxy-bench) with addresses in 10.96.200.0/21 that
 * no Service uses, and removed at the end. Needs root and nft.
 * Usage: node --import tsx bench/service-rules-bench.ts [services=100,1000] [runs=7]
 */
import { execFileSync } from 'node:child_process';
import { nftApply } from '../server/network/proxy/service-proxy';
import { PROXY_TABLE, renderProxyReplaceScript } from '../server/network/proxy/proxy-ruleset';
import type { ServicePort } from '../server/network/service-model';

const SIZES = (process.argv[2] ?? '100,1000').split(',').map(Number);
const RUNS = Number(process.argv[3] ?? 7);
const out = (line: string) => process.stdout.write(`${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function ports(n: number, generation: number): ServicePort[] {
  return Array.from({ length: n }, (_, i) => ({
    namespace: 'bench', service: `svc-${i}`, portName: 'http', protocol: 'tcp' as const,
    clusterIP: `10.96.${200 + (i >> 8)}.${i & 255}`, port: 80, nodePort: 40000 + i,
    endpoints: [1, 2, 3].map((k) => ({ ip: `10.244.250.${(i * 3 + k + generation) % 250 + 2}`, port: 8080 })),
  }));
}

async function main(): Promise<void> {
  const table = `${PROXY_TABLE}-bench`;
  try {
    for (const n of SIZES) {
      const render: number[] = [];
      const apply: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const t0 = performance.now();
        const script = renderProxyReplaceScript({ ports: ports(n, r) }).replaceAll(`ip ${PROXY_TABLE}`, `ip ${table}`);
        const t1 = performance.now();
        await nftApply(script);
        apply.push(performance.now() - t1);
        render.push(t1 - t0);
      }
      out(`service rules, ${n} Services × 3 endpoints: render ${median(render).toFixed(1)} ms, nft -f replace ${median(apply).toFixed(1)} ms (median of ${RUNS})`);
    }
  } finally {
    try {
      execFileSync('nft', ['delete', 'table', 'ip', table], { stdio: 'ignore' });
    } catch {
      // not created
    }
  }
}

void main();
