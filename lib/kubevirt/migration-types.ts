/** VirtualMachineInstanceMigration (kubevirt.io/v1) and MigrationPolicy (migrations.kubevirt.io/v1alpha1). */
import type { Condition, KubeObject, ObjectMeta, Quantity } from './meta';
import type { MigrationPhase } from './enums';
import type { VMIMigrationState } from './vmi-types';

export interface VirtualMachineInstanceMigrationSpec {
  vmiName: string;
  addedNodeSelector?: Record<string, string>;
  priority?: 'system-critical' | 'user-triggered' | 'system-maintenance';
}

export interface VirtualMachineInstanceMigrationStatus {
  phase?: MigrationPhase;
  phaseTransitionTimestamps?: { phase: MigrationPhase; phaseTransitionTimestamp: string }[];
  conditions?: Condition[];
  migrationState?: VMIMigrationState;
}

export interface VirtualMachineInstanceMigration extends KubeObject {
  metadata: ObjectMeta;
  spec: VirtualMachineInstanceMigrationSpec;
  status?: VirtualMachineInstanceMigrationStatus;
}

export interface MigrationPolicySpec {
  selectors?: {
    namespaceSelector?: Record<string, string>;
    virtualMachineInstanceSelector?: Record<string, string>;
  };
  allowAutoConverge?: boolean;
  bandwidthPerMigration?: Quantity;
  completionTimeoutPerGiB?: number;
  maxDowntimeMs?: number;
  allowPostCopy?: boolean;
  allowWorkloadDisruption?: boolean;
  experimental?: boolean;
}

export interface MigrationPolicy extends KubeObject {
  metadata: ObjectMeta;
  spec: MigrationPolicySpec;
  status?: Record<string, unknown>;
}
