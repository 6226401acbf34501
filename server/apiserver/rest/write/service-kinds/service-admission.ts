/**
 * The Service REST layer's allocation step, run after the strategy validated the write: a 422
 * with kube's allocator message when a requested value is taken or out of range.
 */
import type { Store } from '../../../store/types';
import { invalid } from '../../status-error';
import { asRecord, asString } from '../storage-kinds/field-errors';
import { allocateServiceValues } from './service-allocator';

type Obj = Record<string, unknown>;
type Finish = () => void;

const NOTHING: Finish = () => undefined;
const isServices = (group: string, resource: string) => group === '' && resource === 'services';

/** allocates for a Service create or update; returns what to call once the write is done */
export function allocateForServiceWrite(store: Store, input: { group: string; resource: string; object: Obj; oldObject?: Obj }): Finish {
  if (!isServices(input.group, input.resource)) return NOTHING;
  const { causes, release } = allocateServiceValues(store, input.object, input.oldObject);
  if (causes.length) throw invalid({ group: '', kind: 'Service' }, asString(asRecord(input.object.metadata).name) ?? '', causes);
  return release;
}
