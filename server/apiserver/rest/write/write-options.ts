import type { User } from '../api-context';
import type { ApiObject } from '../types/api-object';
import { fieldValidationFrom, type FieldValidation } from './schema-gate';

export interface WriteOptions {
  user: User;
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /**
   * the body was decoded for this request alone (nothing else holds it): the schema's pruning
   * and defaulting may work on it in place instead of on a copy
   */
  ownsBody?: boolean;
}

export interface WriteResult {
  object: ApiObject;
  warnings: string[];
  /** create: 201; update/patch: 200 */
  created?: boolean;
  /** the text this write stored for object (without its resourceVersion): the response reuses it */
  stored?: string;
}

export function writeOptionsFrom(query: URLSearchParams, user: User): WriteOptions {
  return { user, dryRun: query.getAll('dryRun').includes('All'), fieldValidation: fieldValidationFrom(query) };
}
