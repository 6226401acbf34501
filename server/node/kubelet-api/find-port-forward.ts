/**
 * Where `kubectl port-forward` dials a Pod on this node: its pod-network address when it has its
 * own network namespace, else 127.0.0.1 (the Pod shares the host's network; then only the ports
 * its containers declare), with the kubelet's
 * answers when the Pod is not here or not running.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { POD_IP } from '../pod-command';
import { isContainerRunning } from '../pod-process';
import type { PodRuntime } from '../pod-runtime';
import type { PortForwardPod } from './port-forward';

export function findPortForwardTarget(pod: V1Pod | undefined, runtimes: Iterable<PodRuntime>, name: string): PortForwardPod | { code: number; message: string } {
  // a kubelet's answer for a Pod it does not run
  if (!pod) return { code: 404, message: 'pod does not exist' };
  const rt = [...runtimes].find((r) => r.uid === pod.metadata?.uid);
  if (!rt || !isContainerRunning(rt)) return { code: 400, message: `pod ${name} is not running` };
  if (rt.netns && rt.podIP) return { host: rt.podIP, podId: rt.uid, namespaceName: rt.netns };
  const declaredPorts = new Set((pod.spec?.containers ?? []).flatMap((c) => (c.ports ?? []).map((p) => p.containerPort)));
  return { host: POD_IP, podId: rt.uid, namespaceName: 'host', declaredPorts };
}
