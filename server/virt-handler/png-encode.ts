/**
 * PURE: the smallest PNG encoder a screenshot needs (8-bit RGB, no filtering, zlib from node:zlib),
 * and a reader for the binary PPM (P6) QEMU's `screendump` writes.
 */
import { crc32, deflateSync } from 'node:zlib';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RGB_COLOUR_TYPE = 2;
const BYTES_PER_PIXEL = 3;

export interface RgbImage { width: number; height: number; /** width·height·3 bytes, row by row */ rgb: Buffer }

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([len, typed, crc]);
}

export function encodePNG(img: RgbImage): Buffer {
  const stride = img.width * BYTES_PER_PIXEL;
  if (img.rgb.length < stride * img.height) throw new Error(`image data too short: ${img.rgb.length} < ${stride * img.height}`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(img.width, 0);
  header.writeUInt32BE(img.height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(RGB_COLOUR_TYPE, 9); // compression, filter and interlace stay 0
  const raw = Buffer.alloc((stride + 1) * img.height);
  for (let y = 0; y < img.height; y++) img.rgb.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride); // filter byte 0 = None
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Reads a binary PPM: `P6`, width, height, maxval (≤ 255), each separated by whitespace (comments allowed), then RGB bytes. */
export function decodePPM(buf: Buffer): RgbImage {
  const fields: number[] = [];
  let token = '';
  if (buf.toString('ascii', 0, 2) !== 'P6') throw new Error('not a binary PPM (P6)');
  let i = 2;
  while (fields.length < 3 && i < buf.length) {
    const ch = String.fromCharCode(buf[i++]);
    if (ch === '#') { while (i < buf.length && buf[i] !== 0x0a) i++; continue; }
    if (/\s/.test(ch)) { if (token) { fields.push(Number(token)); token = ''; } continue; }
    token += ch;
  }
  const [width, height, maxval] = fields;
  if (!(width > 0 && height > 0) || maxval !== 255) throw new Error(`unsupported PPM header ${fields.join(' ')}`);
  return { width, height, rgb: buf.subarray(i, i + width * height * BYTES_PER_PIXEL) };
}
