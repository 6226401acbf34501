/**
 * The Settings page's form over the KubeVirt CR, pure: the editable fields read from the CR, the
 * merge patch a change becomes (only what changed), and the checks the server will run (the same
 * lib/kubevirt rules admission applies, so the page says no before the server does).
 */
import { enabledFeatureGates, kubeVirtConfigurationCauses, type KubeVirt, type KubeVirtConfiguration } from '../kubevirt/kubevirt-cr';

export interface SettingsForm {
  featureGates: string;
  parallelMigrationsPerCluster: string;
  parallelOutboundMigrationsPerNode: string;
  bandwidthPerMigration: string;
  completionTimeoutPerGiB: string;
  progressTimeout: string;
  allowPostCopy: boolean;
  allowAutoConverge: boolean;
  evictionStrategy: string;
  /** a float ≥ 1 as text (KubeVirt keeps it a string); '' = unset: the overhead as computed */
  additionalGuestMemoryOverheadRatio: string;
}

/** What KubeVirt uses when the CR says nothing (shown as placeholders). */
export const SETTINGS_DEFAULTS = { parallelMigrationsPerCluster: '5', parallelOutboundMigrationsPerNode: '2', bandwidthPerMigration: '0 (unlimited)', completionTimeoutPerGiB: '150', progressTimeout: '150', additionalGuestMemoryOverheadRatio: '1 (the overhead as computed)' };

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function settingsFormOf(cr: KubeVirt | undefined): SettingsForm {
  const c = cr?.spec?.configuration ?? {};
  const m = c.migrations ?? {};
  return {
    featureGates: enabledFeatureGates(c).join(', '),
    parallelMigrationsPerCluster: text(m.parallelMigrationsPerCluster),
    parallelOutboundMigrationsPerNode: text(m.parallelOutboundMigrationsPerNode),
    bandwidthPerMigration: text(m.bandwidthPerMigration),
    completionTimeoutPerGiB: text(m.completionTimeoutPerGiB),
    progressTimeout: text(m.progressTimeout),
    allowPostCopy: m.allowPostCopy ?? false,
    allowAutoConverge: m.allowAutoConverge ?? false,
    evictionStrategy: c.evictionStrategy ?? '',
    additionalGuestMemoryOverheadRatio: text(c.additionalGuestMemoryOverheadRatio),
  };
}

/** a number when the text is an integer; otherwise the text itself, which the checks then refuse */
const int = (s: string): number | string | null => (s.trim() === '' ? null : /^-?\d+$/.test(s.trim()) ? Number(s.trim()) : s.trim());

/** The configuration the form describes (null = remove the field: back to the default). */
function configurationOf(f: SettingsForm): Record<string, unknown> {
  const gates = f.featureGates.split(/[\s,]+/).filter(Boolean);
  return {
    developerConfiguration: { featureGates: gates },
    migrations: {
      parallelMigrationsPerCluster: int(f.parallelMigrationsPerCluster),
      parallelOutboundMigrationsPerNode: int(f.parallelOutboundMigrationsPerNode),
      bandwidthPerMigration: f.bandwidthPerMigration.trim() === '' ? null : f.bandwidthPerMigration.trim(),
      completionTimeoutPerGiB: int(f.completionTimeoutPerGiB),
      progressTimeout: int(f.progressTimeout),
      allowPostCopy: f.allowPostCopy,
      allowAutoConverge: f.allowAutoConverge,
    },
    evictionStrategy: f.evictionStrategy === '' ? null : f.evictionStrategy,
    additionalGuestMemoryOverheadRatio: f.additionalGuestMemoryOverheadRatio.trim() === '' ? null : f.additionalGuestMemoryOverheadRatio.trim(),
  };
}

/** Problems with the form, by field, in the server's words. */
export function settingsErrors(f: SettingsForm): Record<string, string> {
  const cfg = configurationOf(f);
  const withoutNulls = JSON.parse(JSON.stringify(cfg, (_k, v: unknown) => (v === null ? undefined : v))) as KubeVirtConfiguration;
  const out: Record<string, string> = {};
  for (const c of kubeVirtConfigurationCauses(withoutNulls)) out[c.field.replace(/^spec\.configuration\./, '')] = c.message;
  return out;
}

/** `{ spec: { configuration: … } }` merge patch for the fields that changed against `cr`. */
export function settingsPatch(cr: KubeVirt | undefined, f: SettingsForm): object | undefined {
  const before = configurationOf(settingsFormOf(cr));
  const after = configurationOf(f);
  const diff = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> | undefined => {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(b)) {
      const av = a[k];
      const bv = b[k];
      if (bv && typeof bv === 'object' && !Array.isArray(bv)) {
        const d = diff((av ?? {}) as Record<string, unknown>, bv as Record<string, unknown>);
        if (d) out[k] = d;
      } else if (JSON.stringify(av) !== JSON.stringify(bv)) out[k] = bv;
    }
    return Object.keys(out).length ? out : undefined;
  };
  const d = diff(before, after);
  return d ? { spec: { configuration: d } } : undefined;
}
