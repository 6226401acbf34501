import type { ApiContext } from '../rest/api-context';
import { startGarbageCollector } from './garbage-collector';
import { startNamespaceController } from './namespace-controller';
import { startNodeLeaseController } from './node-lease-controller';
import { startCRDCleanupController } from './crd-cleanup-controller';
import { startEventTTLController } from './event-ttl-controller';
import { startClusterRoleAggregationController } from './clusterrole-aggregation-controller';
import { startServiceAccountController } from './service-account-controller';
import { startRootCAPublisher } from './root-ca-publisher';
import { startAPIServiceAvailabilityController } from './apiservice-availability';
import { startQuotaController } from './quota-controller';

export interface ControllerOptions { nodeLeaseTimeoutMs?: number; eventTTLMs?: number }

/** starts the API server's own controllers; returns the function that stops them */
export function startControllers(ctx: ApiContext, opts: ControllerOptions = {}): () => void {
  const stops = [startGarbageCollector(ctx), startNamespaceController(ctx), startNodeLeaseController(ctx, opts.nodeLeaseTimeoutMs), startCRDCleanupController(ctx), startEventTTLController(ctx, opts.eventTTLMs), startClusterRoleAggregationController(ctx), startServiceAccountController(ctx), startRootCAPublisher(ctx), startAPIServiceAvailabilityController(ctx), startQuotaController(ctx)];
  return () => stops.forEach((stop) => stop());
}
