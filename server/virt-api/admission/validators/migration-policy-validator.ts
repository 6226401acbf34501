/** MigrationPolicy (migrations.kubevirt.io/v1alpha1) admission: value ranges of the overridable fields. */
import { invalid, required, type Cause } from '../cause';
import { isObject } from '../json-shape';
import { parseQuantity } from '../../../../lib/kubevirt/quantity';
import { checkSchema } from './schema-check';
import { migrationPolicySpecSchema } from './admission-schemas';

export function validateMigrationPolicy(policy: unknown): Cause[] {
  if (!isObject(policy)) return [invalid('', 'object in body must be of type object')];
  if (!isObject(policy.spec)) return [required('spec', 'spec: Required value')];
  const causes = checkSchema(policy.spec, migrationPolicySpecSchema(), 'spec');
  if (causes.length) return causes;
  const s = policy.spec;
  const bw = parseQuantity(s.bandwidthPerMigration);
  if (bw !== undefined && bw < 0) causes.push(invalid('spec.bandwidthPerMigration', 'must not be negative'));
  if (typeof s.completionTimeoutPerGiB === 'number' && s.completionTimeoutPerGiB < 0) {
    causes.push(invalid('spec.completionTimeoutPerGiB', 'must not be negative'));
  }
  if (typeof s.maxDowntimeMs === 'number' && s.maxDowntimeMs < 1) causes.push(invalid('spec.maxDowntimeMs', 'must be greater than 0'));
  return causes;
}
