/** KubeVirt types, constants and pure status logic shared by the browser and the server. */
export * from './meta';
export * from './enums';
export * from './labels';
export * from './resources';
export * from './vmi-spec-types';
export * from './vmi-types';
export * from './vm-types';
export * from './migration-types';
export * from './conditions';
export * from './run-strategy';
export * from './storage-state';
export * from './printable-status';
export * from './quantity';
export * from './lifecycle-rules';
export * from './kubevirt-cr';
export * from './version';
