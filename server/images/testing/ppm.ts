/** Reads a binary PPM (P6, as QMP `screendump` writes) and says how much of it is not background. */
import { readFileSync } from 'node:fs';

export interface ScreenStats { width: number; height: number; litFraction: number; colours: number }

export function measureScreen(file: string): ScreenStats {
  const buf = readFileSync(file);
  const header = buf.subarray(0, 64).toString('latin1').match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error(`${file} is not a binary PPM`);
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = buf.subarray(header[0].length);
  const colours = new Set<number>();
  let lit = 0;
  for (let i = 0; i + 2 < pixels.length; i += 3) {
    const rgb = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    colours.add(rgb);
    if (rgb !== 0) lit++;
  }
  return { width, height, litFraction: lit / (width * height), colours: colours.size };
}

/** How many pixels differ between two screendumps of the same size. */
export function countChangedPixels(fileA: string, fileB: string): number {
  const [a, b] = [readFileSync(fileA), readFileSync(fileB)];
  if (a.length !== b.length) return Math.max(a.length, b.length) / 3;
  let changed = 0;
  for (let i = 0; i < a.length; i += 3) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) changed++;
  return changed;
}
