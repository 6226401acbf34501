/**
 * PURE: RestartRequired (§1.6). The running VMI was built from the VM spec stored in its
 * ControllerRevision; a change of the template spec since then needs a restart to take effect.
 * This is the Stage rollout's rule: every template spec field counts as non-live-updatable;
 * template metadata does not. Under LiveUpdate, live-update.ts lets CPU sockets through.
 */
import { isDeepStrictEqual } from 'node:util';
import type { VirtualMachineInstanceSpec, VirtualMachineSpec } from '../../../lib/kubevirt';

/** The VM spec as stored in a ControllerRevision's `data` (KubeVirt stores `{spec}`). */
export interface RevisionData {
  spec?: VirtualMachineSpec;
}

/** JSON round trip: drops `undefined` members so a spec compares equal to its stored copy. */
const normalize = (spec: VirtualMachineInstanceSpec | undefined): unknown => JSON.parse(JSON.stringify(spec ?? {}));

export function isRestartRequired(current: VirtualMachineSpec, atStart: RevisionData | undefined): boolean {
  if (!atStart?.spec) return false; // unknown start spec: do not nag
  return !isDeepStrictEqual(normalize(current.template?.spec), normalize(atStart.spec.template?.spec));
}
