/** The Mutating/ValidatingWebhookConfiguration objects that point the API server at our webhooks. */
import { WebhookPath } from './admitters';

export const MUTATING_CONFIGURATION_NAME = 'virt-api-mutator';
export const VALIDATING_CONFIGURATION_NAME = 'virt-api-validator';
const TIMEOUT_SECONDS = 10;

export type WebhookTarget =
  | { url: string; caBundle?: string }
  | { service: { namespace: string; name: string; port?: number }; caBundle: string };

type Op = 'CREATE' | 'UPDATE';

interface Hook { name: string; path: string; group: string; version: string; resource: string; ops: Op[]; alsoVersions?: string[] }

const MUTATING: Hook[] = [
  { name: 'virtualmachines-mutator.kubevirt.io', path: WebhookPath.MutateVM, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines', ops: ['CREATE', 'UPDATE'] },
  { name: 'virtualmachineinstances-mutator.kubevirt.io', path: WebhookPath.MutateVMI, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstances', ops: ['CREATE', 'UPDATE'] },
  { name: 'migrations-mutator.kubevirt.io', path: WebhookPath.MutateMigration, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstancemigrations', ops: ['CREATE'] },
];

const VALIDATING: Hook[] = [
  { name: 'virtualmachine-validator.kubevirt.io', path: WebhookPath.ValidateVM, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines', ops: ['CREATE', 'UPDATE'] },
  { name: 'virtualmachineinstances-create-validator.kubevirt.io', path: WebhookPath.ValidateVMI, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstances', ops: ['CREATE'] },
  { name: 'virtualmachineinstances-update-validator.kubevirt.io', path: WebhookPath.ValidateVMI, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstances', ops: ['UPDATE'] },
  { name: 'migration-create-validator.kubevirt.io', path: WebhookPath.ValidateMigration, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstancemigrations', ops: ['CREATE'] },
  { name: 'migration-update-validator.kubevirt.io', path: WebhookPath.ValidateMigration, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstancemigrations', ops: ['UPDATE'] },
  { name: 'virt-launcher-eviction-interceptor.kubevirt.io', path: WebhookPath.ValidateEviction, group: '', version: 'v1', resource: 'pods/eviction', ops: ['CREATE'] },
  { name: 'virtualmachinereplicaset-validator.kubevirt.io', path: WebhookPath.ValidateReplicaSet, group: 'kubevirt.io', version: 'v1', resource: 'virtualmachineinstancereplicasets', ops: ['CREATE', 'UPDATE'] },
  { name: 'virtualmachinepool-validator.kubevirt.io', path: WebhookPath.ValidatePool, group: 'pool.kubevirt.io', version: 'v1beta1', resource: 'virtualmachinepools', ops: ['CREATE', 'UPDATE'], alsoVersions: ['v1alpha1'] },
  { name: 'kubevirt-update-validator.kubevirt.io', path: WebhookPath.ValidateKubeVirt, group: 'kubevirt.io', version: 'v1', resource: 'kubevirts', ops: ['CREATE', 'UPDATE'] },
  { name: 'virtualmachinerestore-validator.snapshot.kubevirt.io', path: WebhookPath.ValidateRestore, group: 'snapshot.kubevirt.io', version: 'v1beta1', resource: 'virtualmachinerestores', ops: ['CREATE', 'UPDATE'] },
  { name: 'migration-policy-validator.kubevirt.io', path: WebhookPath.ValidateMigrationPolicy, group: 'migrations.kubevirt.io', version: 'v1alpha1', resource: 'migrationpolicies', ops: ['CREATE', 'UPDATE'] },
];

function clientConfig(target: WebhookTarget, path: string): Record<string, unknown> {
  const ca = target.caBundle ? { caBundle: target.caBundle } : {};
  if ('url' in target) return { url: `${target.url.replace(/\/$/, '')}${path}`, ...ca };
  return { service: { ...target.service, port: target.service.port ?? 443, path }, ...ca };
}

function toWebhook(h: Hook, target: WebhookTarget, mutating: boolean): Record<string, unknown> {
  return {
    name: h.name,
    clientConfig: clientConfig(target, h.path),
    rules: [{ apiGroups: [h.group], apiVersions: [h.version, ...(h.alsoVersions ?? [])], operations: h.ops, resources: [h.resource], scope: '*' }],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: TIMEOUT_SECONDS,
    matchPolicy: 'Equivalent',
    ...(mutating ? { reinvocationPolicy: 'Never' } : {}),
  };
}

/** `[MutatingWebhookConfiguration, ValidatingWebhookConfiguration]` for a URL (embedded) or a Service (cluster). */
export function webhookConfigurations(target: WebhookTarget): [Record<string, unknown>, Record<string, unknown>] {
  const meta = (name: string) => ({ name, labels: { 'app.kubernetes.io/managed-by': 'kubevirt-ts' } });
  return [
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: meta(MUTATING_CONFIGURATION_NAME), webhooks: MUTATING.map((h) => toWebhook(h, target, true)) },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: meta(VALIDATING_CONFIGURATION_NAME), webhooks: VALIDATING.map((h) => toWebhook(h, target, false)) },
  ];
}
