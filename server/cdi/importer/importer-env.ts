/**
 * PURE: what an importer Pod is asked to do, from its environment (CDI's importer reads the same
 * kind of variables): the source, its endpoint, an optional checksum, and the target's size.
 */
export type ImportSource = 'http' | 'blank' | 'pvc' | 'registry' | 'upload';

export interface ImportJob {
  source: ImportSource;
  endpoint?: string;
  /** `sha256:<hex>` / `md5:<hex>` … as CDI's `spec.source.http.checksum` */
  checksum?: { algorithm: string; hex: string };
  /** the claim's capacity in bytes */
  sizeBytes: number;
  /** the claim's directory (Filesystem: disk.img inside) or device (Block) */
  target: string;
  /** clone source: the source claim's directory or device */
  sourcePath?: string;
  podDir: string;
}

export const Env = {
  Source: 'IMPORTER_SOURCE',
  Endpoint: 'IMPORTER_ENDPOINT',
  Checksum: 'IMPORTER_CHECKSUM',
  ImageSize: 'IMPORTER_IMAGE_SIZE',
} as const;

export const DATA_VOLUME_NAME = 'cdi-data-vol';
export const SOURCE_VOLUME_NAME = 'cdi-source-vol';
const SOURCES: ImportSource[] = ['http', 'blank', 'pvc', 'registry', 'upload'];
const ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'];

export function parseChecksum(v: string): { algorithm: string; hex: string } {
  const m = /^([a-z0-9]+):([0-9a-fA-F]+)$/.exec(v.trim());
  if (!m || !ALGORITHMS.includes(m[1])) throw new Error(`invalid checksum ${JSON.stringify(v)}: expected <algorithm>:<hex> with algorithm one of ${ALGORITHMS.join(', ')}`);
  return { algorithm: m[1], hex: m[2].toLowerCase() };
}

export function readImportJob(env: Record<string, string | undefined>, volumesDir: string, podDir: string): ImportJob {
  const source = env[Env.Source] as ImportSource;
  if (!SOURCES.includes(source)) throw new Error(`${Env.Source} must be one of ${SOURCES.join(', ')}`);
  const sizeBytes = Number(env[Env.ImageSize]);
  if (!Number.isFinite(sizeBytes) || sizeBytes <= 0) throw new Error(`${Env.ImageSize} must be a positive number of bytes`);
  const endpoint = env[Env.Endpoint] || undefined;
  if ((source === 'http' || source === 'registry') && !endpoint) throw new Error(`${Env.Endpoint} is required for source ${source}`);
  return {
    source, endpoint, sizeBytes, podDir,
    checksum: env[Env.Checksum] ? parseChecksum(env[Env.Checksum]!) : undefined,
    target: `${volumesDir}/${DATA_VOLUME_NAME}`,
    sourcePath: source === 'pvc' ? `${volumesDir}/${SOURCE_VOLUME_NAME}` : undefined,
  };
}
