/**
 * The ResourceQuota registry strategy: a new quota starts without status (the quota controller
 * fills status.hard and status.used), spec writes keep the status, quantities must parse.
 */
import type { Strategy } from '../strategies';
import { checkQuantities } from '../storage-kinds/storage-quantity';
import { asRecord } from '../storage-kinds/field-errors';
import { validateResourceQuota } from './quota-validation';

type Obj = Record<string, unknown>;

const quantities = (q: Obj) => checkQuantities('ResourceQuota', [asRecord(q.spec).hard, asRecord(q.status).hard, asRecord(q.status).used]);

export const RESOURCE_QUOTA_STRATEGY: Strategy = {
  prepareForCreate(q: Obj) {
    quantities(q);
    q.status = {};
  },
  prepareForUpdate(q: Obj) { quantities(q); },
  prepareForStatusUpdate(q: Obj) { quantities(q); },
  validate: validateResourceQuota,
  validateUpdate: (obj) => validateResourceQuota(obj),
};
