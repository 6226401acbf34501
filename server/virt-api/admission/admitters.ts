/** The webhook paths and, for each, what runs on which operation. */
import type { Cause } from './cause';
import type { AdmissionConfig } from './admission-config';
import type { AdmissionRequest } from './admission-review';
import type { Mutation } from './mutators/mutation';
import { mutateVMInferring } from './mutators/vm-infer-mutator';
import type { VolumeSourceLookups } from '../../../lib/kubevirt';
import { mutateVMICreate, mutateVMIUpdate } from './mutators/vmi-mutator';
import { mutateMigrationCreate } from './mutators/migration-mutator';
import type { PresetLike } from './mutators/preset-merge';
import { validateVM } from './validators/vm-validator';
import { validateReplicaSet } from './validators/replicaset-validator';
import { validatePool } from './validators/pool-validator';
import { validateVMICreate, validateVMIUpdate } from './validators/vmi-validator';
import { validateMigrationCreate, validateMigrationUpdate, type MigrationLookups } from './validators/migration-validator';
import { validateMigrationPolicy } from './validators/migration-policy-validator';
import { validateKubeVirt } from './validators/kubevirt-validator';
import { validateInstancetypeRefs, type InstancetypeLookups } from './validators/instancetype-validator';
import { validateEviction, type EvictionLookups, type EvictionVerdict } from './validators/eviction-validator';
import { validateRestoreCreate, validateRestoreUpdate, type RestoreLookups } from './validators/restore-validator';

/** The VMI presets of a namespace, and where a skipped preset is reported (an Event on the VMI). */
export interface PresetLookups {
  list(namespace: string): Promise<PresetLike[]>;
  skipped(vmi: unknown, message: string): void;
}

export interface AdmitterContext extends MigrationLookups, Partial<Omit<EvictionLookups, 'getVMI'>> {
  config: AdmissionConfig;
  now: Date;
  instancetypes?: InstancetypeLookups;
  presets?: PresetLookups;
  volumeSources?: VolumeSourceLookups;
  restores?: RestoreLookups;
}

type Mutate = (req: AdmissionRequest, ctx: AdmitterContext) => Mutation | Promise<Mutation>;
type Validate = (req: AdmissionRequest, ctx: AdmitterContext) => Cause[] | Promise<Cause[]>;
/** A validator whose refusal is not a list of causes (the eviction interceptor's 429). */
type Decide = (req: AdmissionRequest, ctx: AdmitterContext) => Promise<EvictionVerdict>;

export interface WebhookRoute {
  resource: { group: string; version: string; resource: string };
  mutate?: Mutate;
  validate?: Validate;
  decide?: Decide;
}

const core = (resource: string) => ({ group: 'kubevirt.io', version: 'v1', resource });
const mctx = (req: AdmissionRequest, ctx: AdmitterContext) => ({ config: ctx.config, user: req.userInfo, now: ctx.now });
const vctx = (req: AdmissionRequest, ctx: AdmitterContext) => ({ config: ctx.config, user: req.userInfo });
const isCreate = (req: AdmissionRequest) => req.operation === 'CREATE';

export const WebhookPath = {
  MutateVM: '/mutate-virtualmachines',
  ValidateVM: '/validate-virtualmachines',
  MutateVMI: '/mutate-virtualmachineinstances',
  ValidateVMI: '/validate-virtualmachineinstances',
  MutateMigration: '/mutate-virtualmachineinstancemigrations',
  ValidateMigration: '/validate-virtualmachineinstancemigrations',
  ValidateMigrationPolicy: '/validate-migrationpolicies',
  ValidateReplicaSet: '/validate-virtualmachineinstancereplicasets',
  ValidatePool: '/validate-virtualmachinepools',
  ValidateKubeVirt: '/validate-kubevirts',
  /** KubeVirt serves it at /launcher-eviction-validate; ours keeps virt-api's `/validate-<plural>` shape. */
  ValidateEviction: '/validate-evictions',
  /** KubeVirt serves it at /virtualmachinerestores-validate; ours keeps the `/validate-<plural>` shape. */
  ValidateRestore: '/validate-virtualmachinerestores',
} as const;

function decideEviction(req: AdmissionRequest, ctx: AdmitterContext): Promise<EvictionVerdict> {
  const { getPod, markForEvacuation } = ctx;
  if (!getPod || !markForEvacuation) return Promise.resolve({ allowed: true });
  return validateEviction(req, { getPod, markForEvacuation, getVMI: ctx.getVMI, clusterStrategy: ctx.config.evictionStrategy });
}

export const WEBHOOK_ROUTES: Record<string, WebhookRoute> = {
  [WebhookPath.MutateVM]: {
    resource: core('virtualmachines'),
    mutate: (req, ctx) => mutateVMInferring(req.object, isCreate(req) ? undefined : req.oldObject, mctx(req, ctx), ctx.volumeSources),
  },
  [WebhookPath.ValidateVM]: {
    resource: core('virtualmachines'),
    validate: async (req, ctx) => {
      const causes = validateVM(req.object, req.oldObject, vctx(req, ctx));
      return causes.length ? causes : validateInstancetypeRefs(req.object, ctx.instancetypes);
    },
  },
  [WebhookPath.MutateVMI]: {
    resource: core('virtualmachineinstances'),
    mutate: async (req, ctx) => {
      if (!isCreate(req)) return mutateVMIUpdate(req.object, req.oldObject, mctx(req, ctx));
      const presets = ctx.presets && req.namespace ? await ctx.presets.list(req.namespace) : [];
      return mutateVMICreate(req.object, { ...mctx(req, ctx), presets, onPresetSkipped: (m) => (req.dryRun ? undefined : ctx.presets?.skipped(req.object, m)) });
    },
  },
  [WebhookPath.ValidateVMI]: {
    resource: core('virtualmachineinstances'),
    validate: (req, ctx) => (isCreate(req)
      ? validateVMICreate(req.object, vctx(req, ctx))
      : validateVMIUpdate(req.object, req.oldObject, vctx(req, ctx))),
  },
  [WebhookPath.MutateMigration]: {
    resource: core('virtualmachineinstancemigrations'),
    mutate: (req, ctx) => (isCreate(req) ? mutateMigrationCreate(req.object, mctx(req, ctx)) : { patch: [], warnings: [] }),
  },
  [WebhookPath.ValidateMigration]: {
    resource: core('virtualmachineinstancemigrations'),
    validate: (req, ctx) => (isCreate(req)
      ? validateMigrationCreate(req.object, { ...vctx(req, ctx), getVMI: ctx.getVMI, listMigrations: ctx.listMigrations })
      : validateMigrationUpdate(req.object, req.oldObject, vctx(req, ctx))),
  },
  [WebhookPath.ValidateMigrationPolicy]: {
    resource: { group: 'migrations.kubevirt.io', version: 'v1alpha1', resource: 'migrationpolicies' },
    validate: (req) => validateMigrationPolicy(req.object),
  },
  [WebhookPath.ValidateReplicaSet]: {
    resource: core('virtualmachineinstancereplicasets'),
    validate: (req, ctx) => validateReplicaSet(req.object, vctx(req, ctx)),
  },
  [WebhookPath.ValidatePool]: {
    resource: { group: 'pool.kubevirt.io', version: 'v1beta1', resource: 'virtualmachinepools' },
    validate: (req, ctx) => validatePool(req.object, isCreate(req) ? undefined : req.oldObject, vctx(req, ctx)),
  },
  [WebhookPath.ValidateKubeVirt]: {
    resource: core('kubevirts'),
    validate: (req) => validateKubeVirt(req.object),
  },
  [WebhookPath.ValidateRestore]: {
    resource: { group: 'snapshot.kubevirt.io', version: 'v1beta1', resource: 'virtualmachinerestores' },
    validate: (req, ctx) => (isCreate(req) ? validateRestoreCreate(req.object, ctx.restores) : validateRestoreUpdate(req.object, req.oldObject)),
  },
  [WebhookPath.ValidateEviction]: {
    resource: { group: '', version: 'v1', resource: 'pods' },
    decide: decideEviction,
  },
};
