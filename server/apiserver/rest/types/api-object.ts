/**
 * An object on the generic REST paths (create, update, patch, delete, read) once its body was
 * checked to be a JSON object with a metadata object: the metadata fields the server owns are
 * typed, everything else stays `unknown` until a kind's code narrows it.
 */
import type { ObjectMeta } from '../../../../lib/kubevirt/meta';
import type { ManagedFieldsEntry } from '../write/apply-patch';

export interface ApiObjectMeta extends ObjectMeta {
  [field: string]: unknown;
  selfLink?: string;
  managedFields?: ManagedFieldsEntry[];
}

export interface ApiObject {
  [field: string]: unknown;
  apiVersion?: string;
  kind?: string;
  metadata: ApiObjectMeta;
}
