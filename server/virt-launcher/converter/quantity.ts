/**
 * The converter's view of a quantity: lib/kubevirt/quantity.ts's grammar (the one admission and
 * Pod sizing use), plus the converter's rule that a size is never negative; a malformed one is a
 * ConverterError(InvalidVMISpec) naming the field.
 */
import { parseQuantity as parseKubeQuantity } from '../../../lib/kubevirt/quantity';
import { invalid } from './converter-error';

export function parseQuantity(value: string | number, field: string): number {
  const v = parseKubeQuantity(value);
  if (v === undefined || v < 0) throw invalid(`${field}: invalid quantity ${typeof value === 'number' ? value : JSON.stringify(value)}`);
  return v;
}

/** Bytes, rounded up to a whole number. */
export function parseBytes(value: string | number, field: string): number {
  return Math.ceil(parseQuantity(value, field));
}
