import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePPM, encodePNG, PNG_SIGNATURE } from './png-encode';

/** Splits a PNG into its chunks, checking each CRC. */
function readChunks(png: Buffer): { type: string; data: Buffer }[] {
  const out: { type: string; data: Buffer }[] = [];
  for (let i = PNG_SIGNATURE.length; i < png.length;) {
    const len = png.readUInt32BE(i);
    const typed = png.subarray(i + 4, i + 8 + len);
    expect(png.readUInt32BE(i + 8 + len)).toBe(crc32(typed) >>> 0);
    out.push({ type: typed.toString('ascii', 0, 4), data: typed.subarray(4) });
    i += 12 + len;
  }
  return out;
}

describe('encodePNG', () => {
  it.each([
    ['1×1 red', 1, 1, [255, 0, 0]],
    ['2×2 four colours', 2, 2, [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]],
    ['3×1 row', 3, 1, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
  ])('%s: signature, IHDR, pixel rows, IEND', (_n, width, height, pixels) => {
    const png = encodePNG({ width, height, rgb: Buffer.from(pixels) });
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const chunks = readChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([chunks[0].data.readUInt32BE(0), chunks[0].data.readUInt32BE(4), chunks[0].data[8], chunks[0].data[9]]).toEqual([width, height, 8, 2]);
    const rows = inflateSync(chunks[1].data);
    const expected = Buffer.concat(Array.from({ length: height }, (_, y) => Buffer.from([0, ...pixels.slice(y * width * 3, (y + 1) * width * 3)])));
    expect(rows).toEqual(expected);
  });

  it('refuses pixel data shorter than the image', () => {
    expect(() => encodePNG({ width: 2, height: 2, rgb: Buffer.alloc(5) })).toThrow(/too short/);
  });
});

describe('decodePPM', () => {
  it.each([
    ['QEMU header', 'P6\n2 1\n255\n'],
    ['comments and spaces', 'P6 # made by hand\n2   1 255\n'],
  ])('%s', (_n, header) => {
    const img = decodePPM(Buffer.concat([Buffer.from(header, 'ascii'), Buffer.from([1, 2, 3, 4, 5, 6])]));
    expect(img).toEqual({ width: 2, height: 1, rgb: Buffer.from([1, 2, 3, 4, 5, 6]) });
  });

  it.each([['P3 text PPM', 'P3\n1 1\n255\n'], ['16-bit samples', 'P6\n1 1\n65535\n']])('refuses a %s', (_n, header) => {
    expect(() => decodePPM(Buffer.from(header))).toThrow();
  });
});
