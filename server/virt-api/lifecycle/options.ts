/** The request bodies of the lifecycle subresources (KubeVirt's *Options types); all fields optional. */
import { badRequest } from '../api-error';

export interface StartOptions { paused?: boolean; dryRun?: string[] }
export interface StopOptions { gracePeriod?: number; dryRun?: string[] }
export interface RestartOptions { gracePeriodSeconds?: number; dryRun?: string[] }
export interface MigrateOptions { addedNodeSelector?: Record<string, string>; dryRun?: string[] }
export interface DryRunOptions { dryRun?: string[] }

export const isDryRun = (o: DryRunOptions) => !!o.dryRun?.includes('All');

type Check = (v: unknown) => boolean;
const isInt: Check = (v) => Number.isInteger(v);
const isBool: Check = (v) => typeof v === 'boolean';
const isStrings: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringMap: Check = (v) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');

const FIELDS: Record<string, Record<string, Check>> = {
  start: { paused: isBool, dryRun: isStrings },
  stop: { gracePeriod: isInt, dryRun: isStrings },
  restart: { gracePeriodSeconds: isInt, dryRun: isStrings },
  migrate: { addedNodeSelector: isStringMap, dryRun: isStrings },
  vmi: { dryRun: isStrings },
};

/** Decodes a body already parsed from JSON/YAML; wrong field types are a 400 like KubeVirt's unmarshal error. */
export function decodeOptions<T>(kind: keyof typeof FIELDS, body: unknown): T {
  if (body === undefined || body === null || body === '') return {} as T;
  if (typeof body !== 'object' || Array.isArray(body)) throw unmarshalError(`cannot unmarshal ${Array.isArray(body) ? 'array' : typeof body} into Go value of type ${kind}Options`);
  const checks = FIELDS[kind];
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    const check = checks[field];
    if (check && value !== null && !check(value)) throw unmarshalError(`json: cannot unmarshal field "${field}"`);
  }
  return body as T;
}

export function unmarshalError(err: string) {
  return badRequest(`Can not unmarshal Request body to struct, error: ${err}`);
}
