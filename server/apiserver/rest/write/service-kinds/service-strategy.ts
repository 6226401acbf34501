/** The Service registry strategy: defaults, the status a new Service starts with, validation. */
import type { Strategy } from '../strategies';
import { defaultService, inheritAllocated } from './service-defaults';
import { validateService, validateServiceUpdate } from './service-validation';

type Obj = Record<string, unknown>;

export const SERVICE_STRATEGY: Strategy = {
  prepareForCreate(svc: Obj) {
    defaultService(svc);
    svc.status = { loadBalancer: {} };
  },
  prepareForUpdate(svc: Obj, old: Obj) {
    inheritAllocated(svc, old);
    defaultService(svc);
    svc.status = old.status;
  },
  validate: validateService,
  validateUpdate: validateServiceUpdate,
};
