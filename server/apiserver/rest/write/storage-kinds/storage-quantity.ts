/** Storage sizes of PVs and PVCs: parsed with the shared quantity grammar; a malformed one is kube's 400 decode error. */
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../../../../../lib/kubevirt/quantity';
import { badRequest } from '../../status-error';
import { asRecord } from './field-errors';

export { parseQuantity };

/** the storage entry of a resource list (`requests`, `capacity`), in bytes; undefined when absent or malformed */
export function storageBytes(list: unknown): number | undefined {
  return parseQuantity(asRecord(list).storage);
}

/** throws kube's decode error (400) when a quantity in one of `lists` does not parse */
export function checkQuantities(kind: string, lists: unknown[]): void {
  for (const list of lists) {
    for (const v of Object.values(asRecord(list))) {
      if (parseQuantity(v) === undefined) throw badRequest(`${kind} in version "v1" cannot be handled as a ${kind}: ${QUANTITY_FORMAT_ERROR}`);
    }
  }
}
