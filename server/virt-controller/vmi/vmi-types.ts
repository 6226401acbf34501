/**
 * The VMI shape this controller reads. Temporary until lib/kubevirt lands; structurally a subset of it.
 */
import type { V1Affinity, V1ObjectMeta, V1Toleration, V1TopologySpreadConstraint } from '@kubernetes/client-node';

export interface VMICondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
}

export interface VirtualMachineInstance {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec?: {
    domain?: {
      cpu?: { sockets?: number; cores?: number; threads?: number; dedicatedCpuPlacement?: boolean; model?: string };
      memory?: { guest?: string };
      resources?: {
        requests?: Record<string, string>;
        limits?: Record<string, string>;
        overcommitGuestOverhead?: boolean;
      };
      devices?: { autoattachGraphicsDevice?: boolean; disks?: { name: string }[]; interfaces?: unknown[] };
      [k: string]: unknown;
    };
    volumes?: { name: string; containerDisk?: { image: string }; [k: string]: unknown }[];
    nodeSelector?: Record<string, string>;
    affinity?: V1Affinity;
    tolerations?: V1Toleration[];
    topologySpreadConstraints?: V1TopologySpreadConstraint[];
    schedulerName?: string;
    priorityClassName?: string;
    terminationGracePeriodSeconds?: number;
    hostname?: string;
    subdomain?: string;
    [k: string]: unknown;
  };
  status?: {
    phase?: string;
    reason?: string;
    nodeName?: string;
    conditions?: VMICondition[];
    activePods?: Record<string, string>;
    phaseTransitionTimestamps?: { phase: string; phaseTransitionTimestamp: string }[];
    qosClass?: string;
    [k: string]: unknown;
  };
}
