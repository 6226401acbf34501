// Run inside a Pod's netns by the services integration test (plain node, no TypeScript):
//   node tcp-probe.cjs echo HOST PORT        → prints what the echo server sent back, or the error code
//   node tcp-probe.cjs bench HOST PORT N     → prints JSON { median, p90 } of N connect+echo round trips (ms)
'use strict';
const net = require('node:net');
const [mode, host, portText, countText] = process.argv.slice(2);
const port = Number(portText);

function roundTrip(payload) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const s = net.connect({ host, port, timeout: 3000 });
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
  const times = [];
  for (let i = 0; i < Number(countText); i++) {
    const r = await roundTrip('x');
    if (r.ms < 0) throw new Error(`round trip ${i} failed: ${r.text}`);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(JSON.stringify({ median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] }));
})();
