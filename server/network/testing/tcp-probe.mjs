// Run inside a Pod's netns by the services integration test (plain node, no TypeScript):
//   node tcp-probe.mjs echo HOST PORT        → prints what the echo server sent back, or the error code
//   node tcp-probe.mjs many HOST PORT N      → prints a JSON array of N answers (one connection each)
//   node tcp-probe.mjs bench HOST PORT HOST2 PORT2 N → JSON { a: { median, p90 }, b: {...} } of N connect+echo
//                                                     round trips (ms) to each, alternating so both see the same load
import net from 'node:net';
const [mode, host, portText, host2, port2Text, countText] = process.argv.slice(2);

function roundTrip(payload, h = host, p = Number(portText)) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect({ host: h, port: p, timeout: 3000 });
    let got = '';
    s.on('connect', () => s.write(payload));
    s.on('data', (d) => {
      got += d.toString();
      if (got.length >= payload.length) {
        s.destroy();
        resolve({ text: got, ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      }
    });
    s.on('timeout', () => (s.destroy(), resolve({ text: 'ETIMEDOUT', ms: -1 })));
    s.on('error', (e) => resolve({ text: e.code || 'error', ms: -1 }));
  });
}

(async () => {
  if (mode === 'echo') {
    process.stdout.write((await roundTrip('ping\n')).text.trim());
    return;
  }
  if (mode === 'many') {
    const answers = [];
    for (let i = 0; i < Number(host2); i++) answers.push((await roundTrip('ping\n')).text.trim());
    process.stdout.write(JSON.stringify(answers));
    return;
  }
  const a = [];
  const b = [];
  for (let i = 0; i < Number(countText); i++) {
    for (const [list, h, p] of [[a, host, Number(portText)], [b, host2, Number(port2Text)]]) {
      const r = await roundTrip('x', h, p);
      if (r.ms < 0) throw new Error(`round trip ${i} to ${h}:${p} failed: ${r.text}`);
      list.push(r.ms);
    }
  }
  const stats = (t) => (t.sort((x, y) => x - y), { median: t[Math.floor(t.length / 2)], p90: t[Math.floor(t.length * 0.9)] });
  process.stdout.write(JSON.stringify({ a: stats(a), b: stats(b) }));
})();
