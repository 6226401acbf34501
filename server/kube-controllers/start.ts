/**
 * kube-controller-manager's workload controllers — Deployment, ReplicaSet, DaemonSet — over one
 * set of shared informers. `kv kube-controllers` runs them alone; `kv up` runs them inside the
 * scheduler's process (`kv scheduler --kube-controllers`), saving a Node.js process.
 */
import { CoreV1Api, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { EventRecorder } from '../kube/events';
import { Informer } from '../kube/informer';
import { collectionPath, NodeResource, PodResource } from '../kube/resources';
import { log } from '../log';
import { DaemonSetController } from './daemonset-controller';
import { DeploymentController } from './deployment-controller';
import { ReplicaSetController } from './replicaset-controller';
import { DaemonSetResource, DeploymentResource, ReplicaSetResource } from './resources';
import { WorkloadApi } from './workload-api';

export interface KubeControllers {
  deployments: DeploymentController;
  replicaSets: ReplicaSetController;
  daemonSets: DaemonSetController;
  /** resolves once every informer and controller stopped (the signal aborted) */
  done: Promise<void>;
}

export function startKubeControllers(kc: KubeConfig, signal: AbortSignal): KubeControllers {
  const api = new WorkloadApi(kc);
  const core = kc.makeApiClient(CoreV1Api);
  const informer = (path: string) => new Informer<KubernetesObject>({ kc, path });
  const pods = informer(collectionPath(PodResource));
  const nodes = informer(collectionPath(NodeResource));
  const sets = informer(collectionPath(ReplicaSetResource));
  const deploymentObjs = informer(collectionPath(DeploymentResource));
  const daemonSetObjs = informer(collectionPath(DaemonSetResource));
  const recorder = (component: string) => new EventRecorder(core, { component });
  const replicaSets = new ReplicaSetController({ api, sets, pods, recorder: recorder('replicaset-controller') });
  const deployments = new DeploymentController({ api, deployments: deploymentObjs, sets, recorder: recorder('deployment-controller') });
  const daemonSets = new DaemonSetController({ api, daemonSets: daemonSetObjs, pods, nodes, recorder: recorder('daemonset-controller') });
  log.child({ component: 'kube-controllers' }).info({ server: kc.getCurrentCluster()?.server }, 'deployment, replicaset and daemonset controllers starting');
  const done = Promise.all([
    ...[pods, nodes, sets, deploymentObjs, daemonSetObjs].map((i) => i.run(signal)),
    replicaSets.run(signal), deployments.run(signal), daemonSets.run(signal),
  ]).then(() => undefined);
  return { deployments, replicaSets, daemonSets, done };
}
