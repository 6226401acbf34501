/** ValidateClassName: a storage class name is a DNS-1123 subdomain. */
import type { StatusCause } from '../../status-error';
import { invalidValue } from './field-errors';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

export function classNameCauses(name: unknown, field: string): StatusCause[] {
  if (typeof name !== 'string' || name === '') return [];
  const causes: StatusCause[] = [];
  if (name.length > 253) causes.push(invalidValue(field, name, 'must be no more than 253 characters'));
  if (!DNS1123_SUBDOMAIN.test(name)) causes.push(invalidValue(field, name, SUBDOMAIN_MSG));
  return causes;
}
