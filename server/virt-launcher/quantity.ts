/** Kubernetes resource quantities (`256Mi`, `1G`, `100m`, `2`) → numbers. */
import { invalid } from './converter-error';

const SUFFIXES: Record<string, number> = {
  '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  m: 1e-3,
};
const QUANTITY = /^([+]?[0-9]+(?:\.[0-9]+)?)(?:[eE]([+-]?[0-9]+))?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?$/;

/** Parses a quantity; throws ConverterError(InvalidVMISpec) naming `field` when malformed. */
export function parseQuantity(value: string | number, field: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw invalid(`${field}: invalid quantity ${value}`);
    return value;
  }
  const m = QUANTITY.exec(value.trim());
  if (!m) throw invalid(`${field}: invalid quantity ${JSON.stringify(value)}`);
  const exponent = m[2] ? 10 ** Number(m[2]) : 1;
  return Number(m[1]) * exponent * SUFFIXES[m[3] ?? ''];
}

/** Bytes, rounded up to a whole number. */
export function parseBytes(value: string | number, field: string): number {
  return Math.ceil(parseQuantity(value, field));
}
