/** Label key and value validation with kube's messages (apimachinery/pkg/util/validation). */

const QUALIFIED_NAME_MAX = 63;
const DNS1123_SUBDOMAIN_MAX = 253;
const LABEL_VALUE_MAX = 63;

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_MSG =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

/** Problems with a label key (a qualified name: optional DNS subdomain prefix + '/' + name). */
export function validateLabelKey(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) {
    return ["a qualified name " + NAME_PART_MSG.replace('name part ', '') + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0]];
  const errs: string[] = [];
  if (prefix !== undefined) {
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else if (prefix.length > DNS1123_SUBDOMAIN_MAX) errs.push(`prefix part must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
    else if (!DNS1123_SUBDOMAIN.test(prefix)) errs.push(SUBDOMAIN_MSG);
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > QUALIFIED_NAME_MAX) errs.push(`name part must be no more than ${QUALIFIED_NAME_MAX} characters`);
  if (name.length > 0 && !NAME_PART.test(name)) errs.push(NAME_PART_MSG);
  return errs;
}

/** Problems with a label value. */
export function validateLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_VALUE_MAX) errs.push(`must be no more than ${LABEL_VALUE_MAX} characters`);
  if (!LABEL_VALUE.test(value)) errs.push(LABEL_VALUE_MSG);
  return errs;
}

/** kube's field.Invalid(...).Error() text. */
export const invalidValue = (path: string, value: string, details: string[]) =>
  `${path}: Invalid value: ${JSON.stringify(value)}: ${details.join('; ')}`;
