import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from './crd-types';

/** The repository's deploy/crds folder (the single source of CRDs for both modes). */
export const DEPLOY_CRDS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy', 'crds');

/** Every CustomResourceDefinition document in the YAML files of `dir`, in file name order. */
export function readCRDManifests(dir: string = DEPLOY_CRDS_DIR): CustomResourceDefinition[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
      .map((d): unknown => d.toJS())
      .filter((o): o is CustomResourceDefinition => (o as { kind?: unknown } | null)?.kind === 'CustomResourceDefinition'),
  );
}
