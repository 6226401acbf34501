/** KubeVirt's well-known labels, annotations and finalizers, values verbatim. */

export const Label = {
  /** `kubevirt.io: virt-launcher` on every launcher Pod. */
  App: 'kubevirt.io',
  /** UID of the VMI a launcher Pod belongs to. */
  CreatedBy: 'kubevirt.io/created-by',
  NodeName: 'kubevirt.io/nodeName',
  MigrationJobUID: 'kubevirt.io/migrationJobUID',
  MigrationTargetNodeName: 'kubevirt.io/migrationTargetNodeName',
  Schedulable: 'kubevirt.io/schedulable',
  InstallStrategy: 'kubevirt.io/install-strategy',
  VMIName: 'kubevirt.io/vmi-name',
  VMName: 'vm.kubevirt.io/name',
  VMIID: 'vmi.kubevirt.io/id',
} as const;

export const LAUNCHER_APP_VALUE = 'virt-launcher';

/** Labels a user may not set on a VMI (admission rejects create and change). */
export const RESERVED_VMI_LABELS: readonly string[] = [
  Label.CreatedBy,
  Label.MigrationJobUID,
  Label.NodeName,
  Label.MigrationTargetNodeName,
  Label.Schedulable,
  Label.InstallStrategy,
];

export const Annotation = {
  Domain: 'kubevirt.io/domain',
  VMGeneration: 'kubevirt.io/vm-generation',
  MemoryOverheadBytes: 'kubevirt.io/memory-overhead-bytes',
  MigrationJobName: 'kubevirt.io/migrationJobName',
  EvacuationMigration: 'kubevirt.io/evacuationMigration',
  Heartbeat: 'kubevirt.io/heartbeat',
  ImmediateDataVolumeCreation: 'kubevirt.io/immediate-data-volume-creation',
  DefaultContainer: 'kubectl.kubernetes.io/default-container',
  /** on a Node: the URL where virt-api reaches that node's virt-handler (kubevirt-ts; KubeVirt uses the handler's Pod IP) */
  HandlerEndpoint: 'kubevirt.io/handler-endpoint',
  /**
   * on a launcher Pod (kubevirt-ts): the containerDisk images the kubelet pulls before it starts the
   * launcher, JSON [{image, imagePullPolicy?}] (KubeVirt renders one container per containerDisk instead)
   */
  ContainerDisks: 'kubevirt-ts.io/container-disks',
} as const;

export const Finalizer = {
  /** On the VM and on each VMI the VM controller created. */
  VirtualMachineController: 'kubevirt.io/virtualMachineControllerFinalize',
  /** Added to every VMI by the mutating webhook on create. */
  ForegroundDeleteVirtualMachine: 'kubevirt.io/foregroundDeleteVirtualMachine',
  /** Added to every VMIM by the mutating webhook on create. */
  MigrationJob: 'kubevirt.io/migrationJobFinalize',
} as const;

/** Pod readiness gate that is False while the guest is paused. */
export const READINESS_GATE_UNPAUSED = 'kubevirt.io/virtual-machine-unpaused';
/** Name of the launcher Pod's main container. */
export const LAUNCHER_CONTAINER = 'compute';
