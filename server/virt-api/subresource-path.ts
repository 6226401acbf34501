/** PURE: parsing `/apis/subresources.kubevirt.io/{version}/namespaces/{ns}/{plural}/{name}/{sub}`. */
import { SUBRESOURCES_GROUP } from '../../lib/kubevirt';
import { SERVED_VERSIONS } from './discovery';
import { decodePathSegment } from '../http/request-target';

export interface SubresourcePath {
  namespace: string;
  resource: 'virtualmachines' | 'virtualmachineinstances';
  name: string;
  /** `start`, `vnc`, `vnc/screenshot`, ... */
  subresource: string;
}

const PREFIX = `/apis/${SUBRESOURCES_GROUP}/`;

export function parseSubresourcePath(pathname: string): SubresourcePath | undefined {
  if (!pathname.startsWith(PREFIX)) return undefined;
  const decoded = pathname.slice(PREFIX.length).split('/').map(decodePathSegment);
  if (decoded.some((p) => p === undefined)) return undefined;
  const parts = decoded as string[];
  const [version, nsWord, namespace, resource, name, ...rest] = parts;
  if (!(SERVED_VERSIONS as readonly string[]).includes(version) || nsWord !== 'namespaces') return undefined;
  if (resource !== 'virtualmachines' && resource !== 'virtualmachineinstances') return undefined;
  if (!namespace || !name || !rest.length || rest.some((p) => !p)) return undefined;
  return { namespace, resource, name, subresource: rest.join('/') };
}


/** `/apis/subresources.kubevirt.io/{version}/namespaces/{ns}/expand-vm-spec`: the namespace ('' when the path leaves it empty). */
export function parseExpandVMSpecPath(pathname: string): { namespace: string } | undefined {
  if (!pathname.startsWith(PREFIX)) return undefined;
  const parts = pathname.slice(PREFIX.length).split('/').map(decodePathSegment);
  if (parts.length !== 4 || parts.some((p) => p === undefined)) return undefined;
  const [version, nsWord, namespace, resource] = parts as string[];
  if (!(SERVED_VERSIONS as readonly string[]).includes(version) || nsWord !== 'namespaces' || resource !== 'expand-vm-spec') return undefined;
  return { namespace };
}
