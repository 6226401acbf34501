/** Names virt-handler writes: conditions, reasons, annotations, close codes (KubeVirt's where they exist). */
import { VMIConditionType } from '../../lib/kubevirt';

export { Label, VMIPhase as Phase, Reason as SharedReason } from '../../lib/kubevirt';
export const Condition = VMIConditionType;

export const Reason = {
  PausedByUser: 'PausedByUser',
  PausedIOError: 'PausedIOError',
  PausedStartStrategy: 'PausedStartStrategy',
  InterfaceNotLiveMigratable: 'InterfaceNotLiveMigratable',
  DisksNotLiveMigratable: 'DisksNotLiveMigratable',
  /** SoftwareEmulation=True: QEMU runs with TCG because KVM is not usable on the node. */
  UseEmulation: 'UseEmulation',
  LauncherExited: 'LauncherExited',
  ShuttingDown: 'ShuttingDown',
  Deleted: 'Deleted',
  Started: 'Started',
  Stopped: 'Stopped',
  Created: 'Created',
} as const;

// The node's handler URL is the Node annotation Annotation.HandlerEndpoint (lib/kubevirt/labels.ts);
// the token virt-api presents is in dataPaths(dir).handlerToken(node) (server/data-dir.ts).

/** WebSocket close codes the handler uses on console/VNC streams. */
export const CloseCode = {
  /** A newer session for the same VMI and stream took over (one client at a time, like KubeVirt). */
  Replaced: 4001,
  /** The guest's socket closed (VMI stopped). */
  GuestGone: 4002,
} as const;

export const MASQUERADE_GUEST_IP = '10.0.2.15';
