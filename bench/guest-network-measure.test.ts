import { describe, expect, it } from 'vitest';
import { parsePingAvg, parseReal, parseTimedCount } from './guest-network-measure';

// outputs as Debian's busybox 1.35 prints them (the demo guest's)
describe('guest-network-measure parsers', () => {
  it('reads bytes and seconds of `time wc -c`', () => {
    expect(parseTimedCount('67104768\nreal\t0m 0.68s\nuser\t0m 0.10s\nsys\t0m 0.05s')).toEqual({ bytes: 67104768, seconds: 0.68 });
    expect(parseTimedCount('67104768\nreal\t1m 2.50s\n')).toEqual({ bytes: 67104768, seconds: 62.5 });
    expect(parseTimedCount('nc: can\'t connect to remote host')).toBeUndefined();
  });
  it('reads the real seconds of `time`', () => {
    expect(parseReal('real\t0m 15.19s')).toBe(15.19);
    expect(parseReal('FAIL')).toBeUndefined();
  });
  it('reads the average of busybox ping', () => {
    expect(parsePingAvg('round-trip min/avg/max = 0.035/0.094/0.186 ms')).toBe(0.094);
    expect(parsePingAvg('2 packets transmitted, 0 packets received, 100% packet loss')).toBeUndefined();
  });
});
