/**
 * The KubeVirt custom resource (`kubevirt.io/v1` KubeVirt, `kubevirt/kubevirt`): the cluster's
 * configuration every component reads live, and the status the operator reports. Pure: types,
 * the defaults KubeVirt applies, and the checks admission runs on a change.
 */
import type { Condition, KubeObject } from './meta';
import { parseQuantity } from './quantity';

export const KUBEVIRT_CR_NAMESPACE = 'kubevirt';
export const KUBEVIRT_CR_NAME = 'kubevirt';

export interface KubeVirtMigrationConfiguration {
  parallelMigrationsPerCluster?: number;
  parallelOutboundMigrationsPerNode?: number;
  bandwidthPerMigration?: string | number;
  completionTimeoutPerGiB?: number;
  progressTimeout?: number;
  allowAutoConverge?: boolean;
  allowPostCopy?: boolean;
  allowWorkloadDisruption?: boolean;
  unsafeMigrationOverride?: boolean;
}

export type EvictionStrategyValue = 'None' | 'LiveMigrate' | 'LiveMigrateIfPossible' | 'External';

export interface KubeVirtConfiguration {
  developerConfiguration?: { featureGates?: string[]; disabledFeatureGates?: string[]; useEmulation?: boolean; cpuAllocationRatio?: number; memoryOvercommit?: number };
  migrations?: KubeVirtMigrationConfiguration;
  evictionStrategy?: EvictionStrategyValue;
  vmRolloutStrategy?: 'Stage' | 'LiveUpdate';
  /** defaults for live updates (CPU hotplug reads maxCpuSockets and maxHotplugRatio) */
  liveUpdateConfiguration?: { maxCpuSockets?: number; maxGuest?: string | number; maxHotplugRatio?: number };
  /** deprecated in KubeVirt for architectureConfiguration.<arch>.machineType; honoured for amd64 */
  machineType?: string;
  architectureConfiguration?: Partial<Record<'amd64' | 'arm64' | 's390x', { machineType?: string }>>;
  cpuModel?: string;
  network?: { defaultNetworkInterface?: string; permitBridgeInterfaceOnPodNetwork?: boolean };
  /** the class of VMs' backend storage claims (persistent TPM / EFI state); unset = the default class */
  vmStateStorageClass?: string;
  /** a float as a string (KubeVirt's type), ≥ 1: multiplies every launcher Pod's memory overhead */
  additionalGuestMemoryOverheadRatio?: string;
}

export interface KubeVirtStatus {
  phase?: 'Deploying' | 'Deployed' | 'Deleting' | 'Deleted';
  conditions?: Condition[];
  observedKubeVirtVersion?: string;
  targetKubeVirtVersion?: string;
  observedGeneration?: number;
  defaultArchitecture?: string;
}

export interface KubeVirt extends KubeObject {
  spec?: { configuration?: KubeVirtConfiguration; [k: string]: unknown };
  status?: KubeVirtStatus;
}

/** The CR `kv up` creates (the operator's defaults: an empty configuration). */
export function defaultKubeVirt(): KubeVirt {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt',
    metadata: { name: KUBEVIRT_CR_NAME, namespace: KUBEVIRT_CR_NAMESPACE },
    spec: { configuration: { developerConfiguration: { featureGates: [] } } },
  };
}

/** Enabled feature gates: listed in featureGates and not in disabledFeatureGates. */
export function enabledFeatureGates(config: KubeVirtConfiguration | undefined): string[] {
  const dev = config?.developerConfiguration;
  const disabled = new Set(dev?.disabledFeatureGates ?? []);
  return (dev?.featureGates ?? []).filter((g) => !disabled.has(g));
}

export interface ConfigCause { field: string; message: string }

/** Go's strconv.ParseFloat on decimal input (KubeVirt parses the ratio so): a number, else undefined */
const FLOAT_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** `additionalGuestMemoryOverheadRatio` as a number when admission would take it (a float ≥ 1), else undefined */
export function overheadRatioOf(config: KubeVirtConfiguration | undefined): number | undefined {
  const s = config?.additionalGuestMemoryOverheadRatio;
  if (typeof s !== 'string' || !FLOAT_RE.test(s)) return undefined;
  const ratio = Number(s);
  return ratio >= 1 ? ratio : undefined;
}

/** KubeVirt's refusals of the ratio (its messages): not a float, or smaller than 1.0 */
function overheadRatioCauses(config: KubeVirtConfiguration | undefined, field: string): ConfigCause[] {
  const s = config?.additionalGuestMemoryOverheadRatio;
  if (s === undefined) return [];
  if (typeof s !== 'string' || !FLOAT_RE.test(s)) return [{ field, message: `ratio provided, ${String(s)}, cannot be parsed into float: strconv.ParseFloat: parsing ${JSON.stringify(String(s))}: invalid syntax` }];
  return Number(s) < 1 ? [{ field, message: `ratio provided, ${s}, cannot be smaller than 1.0` }] : [];
}

const EVICTION: readonly string[] = ['None', 'LiveMigrate', 'LiveMigrateIfPossible', 'External'];
const BINDINGS: readonly string[] = ['bridge', 'masquerade'];
const ROLLOUT: readonly string[] = ['Stage', 'LiveUpdate'];
const MIGRATION_COUNTS = ['parallelMigrationsPerCluster', 'parallelOutboundMigrationsPerNode', 'completionTimeoutPerGiB', 'progressTimeout'] as const;

/**
 * What admission refuses in a KubeVirt CR's configuration (beyond the CRD schema's types): a gate
 * both enabled and disabled (KubeVirt's message), counts and timeouts that would stop migrations,
 * a bandwidth that is not a quantity, values outside the enums.
 */
export function kubeVirtConfigurationCauses(config: KubeVirtConfiguration | undefined): ConfigCause[] {
  const out: ConfigCause[] = [];
  const base = 'spec.configuration';
  const disabled = new Set(config?.developerConfiguration?.disabledFeatureGates ?? []);
  for (const gate of config?.developerConfiguration?.featureGates ?? []) {
    if (disabled.has(gate)) out.push({ field: `${base}.developerConfiguration`, message: `feature gate "${gate}" exists on both "FeatureGates" and "DisabledFeatureGates"` });
  }
  const m = config?.migrations;
  for (const key of MIGRATION_COUNTS) {
    const v = m?.[key];
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) out.push({ field: `${base}.migrations.${key}`, message: `${key} must be a positive integer, got ${JSON.stringify(v)}` });
  }
  const bw = m?.bandwidthPerMigration;
  if (bw !== undefined) {
    const q = parseQuantity(String(bw));
    if (q === undefined || q < 0) out.push({ field: `${base}.migrations.bandwidthPerMigration`, message: `bandwidthPerMigration must be a non-negative quantity such as 64Mi, got ${JSON.stringify(bw)}` });
  }
  const oneOf = (field: string, v: string | undefined, allowed: readonly string[]) => {
    if (v !== undefined && !allowed.includes(v)) out.push({ field: `${base}.${field}`, message: `Unsupported value: "${v}": supported values: ${allowed.map((a) => `"${a}"`).join(', ')}` });
  };
  oneOf('evictionStrategy', config?.evictionStrategy, EVICTION);
  oneOf('network.defaultNetworkInterface', config?.network?.defaultNetworkInterface, BINDINGS);
  oneOf('vmRolloutStrategy', config?.vmRolloutStrategy, ROLLOUT);
  out.push(...overheadRatioCauses(config, `${base}.additionalGuestMemoryOverheadRatio`));
  return out;
}
