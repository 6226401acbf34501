/**
 * `GET …/screenshot` (virt-api's `vnc/screenshot`): the launcher's QMP `screendump` of the guest's
 * screen, always answered as PNG (a PPM dump, from a QEMU without PNG screendump, is converted).
 */
import { readFile, rm } from 'node:fs/promises';
import { LauncherError } from '../virt-launcher/launcher-client';
import { HttpError } from './http-errors';
import type { LauncherConnections } from './launcher-connections';
import { decodePPM, encodePNG } from './png-encode';

export const PNG_CONTENT_TYPE = 'image/png';

export async function takeScreenshot(conns: LauncherConnections, podDir: string, key: string): Promise<Buffer> {
  let dump: { path: string; format: 'ppm' | 'png' };
  try {
    dump = await conns.get(podDir, key).client.request('screendump', { format: 'png' });
  } catch (err) {
    if (err instanceof LauncherError) throw new HttpError(err.reason === 'DomainNotStarted' ? 409 : 500, err.message);
    throw err;
  }
  const data = await readFile(dump.path);
  await rm(dump.path, { force: true });
  return dump.format === 'png' ? data : encodePNG(decodePPM(data));
}
