import { describe, expect, it } from 'vitest';
import { DatagramDeframer, frameDatagram, MAX_DATAGRAM } from './datagram-frames';

describe('datagram framing', () => {
  it('gives back each datagram whole, however the stream splits or joins the frames', () => {
    const sent = [Buffer.from('a'), Buffer.alloc(0), Buffer.alloc(70_00, 7), Buffer.from('last')];
    const stream = Buffer.concat(sent.map(frameDatagram));
    for (const cut of [1, 2, 3, 1000, stream.length]) {
      const got: Buffer[] = [];
      const d = new DatagramDeframer((p) => got.push(Buffer.from(p)));
      for (let i = 0; i < stream.length; i += cut) d.push(stream.subarray(i, i + cut));
      expect(got).toEqual(sent);
    }
  });

  it('refuses what UDP cannot carry', () => {
    expect(() => frameDatagram(Buffer.alloc(MAX_DATAGRAM + 1))).toThrow('larger than 65507');
  });
});
