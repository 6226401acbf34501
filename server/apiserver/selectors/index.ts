export { SelectorError } from './selector-error';
export {
  parseLabelSelector, matchLabels, newRequirement,
  type LabelSelector, type LabelRequirement, type LabelOperator,
} from './label-selector';
export { labelSelectorFromObject } from './label-selector-object';
export {
  parseFieldSelector, matchFields, findUnsupportedField, SELECTABLE_FIELDS,
  type FieldSelector, type FieldRequirement,
} from './field-selector';
export { validateLabelKey, validateLabelValue } from './label-validation';
