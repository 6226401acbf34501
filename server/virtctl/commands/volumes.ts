/**
 * `virtctl addvolume VMI --volume-name=NAME [--serial S] [--persist] [--cache C] [--dry-run]` and
 * `virtctl removevolume VMI --volume-name=NAME [--persist] [--dry-run]`, as KubeVirt's: the volume
 * is a DataVolume when one of that name exists, else a PersistentVolumeClaim; `--persist` goes
 * through the VM (the disk stays in its spec), otherwise through the VMI (this run only).
 */
import { VirtualMachineInstanceResource, VirtualMachineResource, subresourcePath } from '../../../lib/kubevirt/resources';
import { ApiCallError, apiRequest } from '../api-request';
import { loadClientConfig } from '../client-config';
import { exactArgs, parseFlags } from '../flags';
import { UsageError, VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

const FLAGS = {
  'volume-name': { type: 'string' as const },
  serial: { type: 'string' as const },
  cache: { type: 'string' as const },
  persist: { type: 'boolean' as const },
  'dry-run': { type: 'boolean' as const },
};

export async function volumeCommand(verb: 'add' | 'remove', argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, FLAGS);
  const [vmi] = exactArgs(positionals, 1);
  const volume = values['volume-name'];
  if (typeof volume !== 'string' || !volume) throw new UsageError('required flag(s) "volume-name" not set');
  const { kc, namespace } = loadClientConfig(global);
  const persist = values.persist === true;
  const dryRun = values['dry-run'] === true ? { dryRun: ['All'] } : {};
  let body: object;
  if (verb === 'add') {
    const isDataVolume = await apiRequest(kc, 'GET', `/apis/cdi.kubevirt.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/datavolumes/${encodeURIComponent(volume)}`)
      .then(() => true, (err: unknown) => { if (err instanceof ApiCallError && err.statusCode === 404) return false; throw err; });
    const disk: Record<string, unknown> = { disk: { bus: 'scsi' } };
    if (typeof values.serial === 'string') disk.serial = values.serial;
    if (typeof values.cache === 'string') disk.cache = values.cache;
    body = { name: volume, disk, volumeSource: isDataVolume ? { dataVolume: { name: volume, hotpluggable: true } } : { persistentVolumeClaim: { claimName: volume, hotpluggable: true } }, ...dryRun };
  } else {
    body = { name: volume, ...dryRun };
  }
  const path = persist ? subresourcePath(VirtualMachineResource, namespace, vmi, `${verb}volume`) : subresourcePath(VirtualMachineInstanceResource, namespace, vmi, `${verb}volume`);
  try {
    await apiRequest(kc, 'PUT', path, body);
  } catch (err) {
    throw new VirtctlError(`error ${verb === 'add' ? 'adding' : 'removing'} volume, ${err instanceof Error ? err.message : String(err)}`);
  }
  out.stdout(`Successfully submitted ${verb} volume request to ${persist ? 'VM' : 'VMI'} ${vmi} for volume ${volume}\n`);
}
