/**
 * Guest-to-guest measurements through two guests' shells (the demo guest's busybox): TCP throughput
 * timed by the receiver from its first byte to the sender's close, a TCP request loop (busybox
 * `nc` against `nc -ll -e echo`), and `ping`. Used by bench/guest-network-bench.ts for ours and the floor.
 *
 * Why the receiver times it: busybox `nc` exits when its stdin ends, so a listener started in the
 * background (stdin /dev/null) closed after the first read — the old bench's sender died of SIGPIPE
 * and printed nothing; the listener's stdin is a `sleep` here. Debian's busybox `dd` prints no
 * "copied, N s" line, so `time wc -c` gives the byte count and the seconds.
 */

/** what a measurement needs of a guest: run a shell command, get what it printed */
export interface Shell { run(cmd: string, timeoutMs?: number): Promise<string> }

/** bytes and seconds from `time wc -c` (busybox: "<bytes>\nreal\t0m 1.23s\n...") */
export function parseTimedCount(text: string): { bytes: number; seconds: number } | undefined {
  const m = /(\d+)\s*real\s+(\d+)m\s*([\d.]+)s/.exec(text);
  if (!m) return undefined;
  return { bytes: Number(m[1]), seconds: Number(m[2]) * 60 + Number(m[3]) };
}

/** seconds of `time`'s "real" line */
export function parseReal(text: string): number | undefined {
  const m = /real\s+(\d+)m\s*([\d.]+)s/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** avg ms of busybox ping's "round-trip min/avg/max = a/b/c ms" */
export function parsePingAvg(text: string): number | undefined {
  const m = /min\/avg\/max = [\d.]+\/([\d.]+)\//.exec(text);
  return m ? Number(m[1]) : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poll(what: string, fn: () => Promise<string | undefined>, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const v = await fn().catch((err: unknown) => { last = String(err); return undefined; });
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (last: ${last})`);
    await sleep(500);
  }
}

let nextPort = 5101;

/** MiB/s of `mib` MiB of zeros sent from `a` to `b` over one TCP connection */
export async function tcpThroughput(a: Shell, b: Shell, bIP: string, mib: number): Promise<number> {
  const port = nextPort++;
  await b.run(`rm -f /tmp/rx.txt; (sleep 600 | busybox nc -l -p ${port} | (head -c 1 >/dev/null; time wc -c) >/tmp/rx.txt 2>&1 &)`);
  await poll(`a listener on ${bIP}:${port}`, async () => ((await b.run(`netstat -ltn | grep -c ':${port} '`)) === '1' ? 'ok' : undefined), 20_000);
  const sent = await a.run(`dd if=/dev/zero bs=65536 count=${mib * 16} 2>/dev/null | busybox nc ${bIP} ${port}; echo rc=$?`, 600_000);
  if (!sent.endsWith('rc=0')) throw new Error(`sender: ${sent}`);
  const text = await poll('the receiver\'s count', async () => {
    const t = await b.run('cat /tmp/rx.txt');
    return /real/.test(t) ? t : undefined;
  }, 60_000);
  const r = parseTimedCount(text);
  if (!r || r.bytes < mib * 1024 * 1024 - 65536) throw new Error(`receiver: ${text}`);
  return r.bytes / (1024 * 1024) / r.seconds;
}

/** answers "ok" on :8080 to every connection (busybox `nc -ll -e`, one `echo` process each; idempotent) */
export async function serveEcho(b: Shell): Promise<void> {
  await b.run('netstat -ltn | grep -q ":8080 " || (busybox nc -ll -p 8080 -e echo ok </dev/null >/dev/null 2>&1 &)');
}

/** what `a` reads from `ip`:8080 in one connection */
export const askEcho = (a: Shell, ip: string, timeoutMs = 20_000) => a.run(`busybox nc -w 5 ${ip} 8080 </dev/null`, timeoutMs);

/**
 * ms per request (connect, answer, close; one `nc` process on each side) from `a` to `ip`:8080. Not
 * busybox `wget`: it died of a segmentation fault in the cluster's guests (whose resolv.conf, from
 * the launcher's DHCP answer, has search domains; the bare guests, without one, ran it).
 */
export async function requestLoopMs(a: Shell, ip: string, n: number): Promise<number> {
  const text = await a.run(`time sh -c 'i=0; while [ $i -lt ${n} ]; do busybox nc -w 5 ${ip} 8080 </dev/null | grep -q ok || echo FAIL; i=$((i+1)); done' 2>&1 | grep -e FAIL -e real`, 300_000);
  const s = parseReal(text);
  if (s === undefined || text.includes('FAIL')) throw new Error(`request loop: ${text}`);
  return (s * 1000) / n;
}

/** avg ICMP round trip in ms */
export async function pingAvgMs(a: Shell, ip: string, n: number): Promise<number> {
  const text = await a.run(`ping -c ${n} -i 0.2 ${ip} | tail -n 1`, 60_000);
  const v = parsePingAvg(text);
  if (v === undefined) throw new Error(`ping: ${text}`);
  return v;
}
