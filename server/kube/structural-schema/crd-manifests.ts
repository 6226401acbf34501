import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from './crd-types';

/** The repository's deploy/crds folder (the single source of CRDs for both modes). */
export const DEPLOY_CRDS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'deploy', 'crds');

/** Every CustomResourceDefinition document in the YAML files of `dir`, in file name order. */
export function readCRDManifests(dir: string = DEPLOY_CRDS_DIR): CustomResourceDefinition[] {
  return crdManifestFiles(dir).flatMap((f) => readCRDManifestFile(join(dir, f)));
}

/** The YAML files of `dir`, in file name order. */
export function crdManifestFiles(dir: string = DEPLOY_CRDS_DIR): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
}

/** The CustomResourceDefinition documents of one YAML file (parsing KubeVirt's big CRDs costs 0.1–0.7 s each). */
export function readCRDManifestFile(file: string): CustomResourceDefinition[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d): unknown => d.toJS())
    .filter((o): o is CustomResourceDefinition => (o as { kind?: unknown } | null)?.kind === 'CustomResourceDefinition');
}
