/** The structural schema of the VMI spec fields admission reads (see shape-schema.ts). */
import { any, arr, bool, int, map, obj, qty, str, type Shape } from './shape-schema';

const diskTarget = obj({ bus: str, readonly: bool, pciAddress: str, tray: str, reservation: bool });
const disk = obj({
  name: str, disk: diskTarget, cdrom: diskTarget, lun: diskTarget, bootOrder: int, serial: str,
  cache: str, io: str, dedicatedIOThread: bool, errorPolicy: str, shareable: bool,
});
const iface = obj({
  name: str, masquerade: any, bridge: any, sriov: any, passtBinding: any, slirp: any, macvtap: any, passt: any,
  binding: obj({ name: str }), model: str, macAddress: str, bootOrder: int, pciAddress: str, state: str,
  ports: arr(obj({ name: str, port: int, protocol: str })),
});
const cloudInit = obj({
  userData: str, userDataBase64: str, secretRef: obj({ name: str }),
  networkData: str, networkDataBase64: str, networkDataSecretRef: obj({ name: str }),
});
const volume = obj({
  name: str,
  containerDisk: obj({ image: str, path: str, imagePullPolicy: str, imagePullSecret: str }),
  cloudInitNoCloud: cloudInit, cloudInitConfigDrive: cloudInit,
  emptyDisk: obj({ capacity: qty }),
  persistentVolumeClaim: obj({ claimName: str, readOnly: bool, hotpluggable: bool }),
  dataVolume: obj({ name: str, hotpluggable: bool }),
  ephemeral: obj({ persistentVolumeClaim: obj({ claimName: str, readOnly: bool }) }),
  hostDisk: obj({ path: str, type: str, capacity: qty, shared: bool }),
  configMap: obj({ name: str }), secret: obj({ secretName: str }), serviceAccount: obj({ serviceAccountName: str }),
  downwardAPI: any, downwardMetrics: any, sysprep: any, memoryDump: any, containerPath: any,
});
const probe = obj({
  initialDelaySeconds: int, timeoutSeconds: int, periodSeconds: int, successThreshold: int, failureThreshold: int,
  httpGet: any, tcpSocket: any, exec: any, guestAgentPing: any,
});
const resources = obj({ requests: map(qty), limits: map(qty), overcommitGuestOverhead: bool });

export const VMI_SPEC_SHAPE: Shape = obj({
  domain: obj({
    cpu: obj({
      sockets: int, cores: int, threads: int, maxSockets: int, model: str,
      dedicatedCpuPlacement: bool, isolateEmulatorThread: bool, features: arr(obj({ name: str, policy: str })),
    }),
    memory: obj({ guest: qty, maxGuest: qty, hugepages: obj({ pageSize: str }) }),
    resources,
    machine: obj({ type: str }),
    firmware: obj({
      uuid: str, serial: str,
      bootloader: obj({ bios: obj({ useSerial: bool }), efi: obj({ secureBoot: bool, persistent: bool }) }),
      kernelBoot: obj({ kernelArgs: str, container: obj({ image: str, kernelPath: str, initrdPath: str }) }),
    }),
    features: obj({ acpi: obj({ enabled: bool }), smm: obj({ enabled: bool }), apic: obj({ enabled: bool }) }),
    devices: obj({
      disks: arr(disk), interfaces: arr(iface),
      inputs: arr(obj({ name: str, type: str, bus: str })),
      autoattachPodInterface: bool, autoattachGraphicsDevice: bool, autoattachSerialConsole: bool,
      autoattachMemBalloon: bool, autoattachInputDevice: bool,
      watchdog: obj({ name: str, i6300esb: obj({ action: str }) }),
      tpm: obj({ enabled: bool, persistent: bool }),
    }),
  }),
  volumes: arr(volume),
  networks: arr(obj({ name: str, pod: obj({ vmNetworkCIDR: str, vmIPv6NetworkCIDR: str }), multus: obj({ networkName: str, default: bool }) })),
  architecture: str,
  terminationGracePeriodSeconds: int,
  evictionStrategy: str,
  startStrategy: str,
  hostname: str,
  subdomain: str,
  dnsPolicy: str,
  dnsConfig: obj({ nameservers: arr(str), searches: arr(str) }),
  nodeSelector: map(str),
  livenessProbe: probe,
  readinessProbe: probe,
  accessCredentials: arr(obj({
    sshPublicKey: obj({
      source: obj({ secret: obj({ secretName: str }) }),
      propagationMethod: obj({ noCloud: any, configDrive: any, qemuGuestAgent: obj({ users: arr(str) }) }),
    }),
    userPassword: obj({ source: obj({ secret: obj({ secretName: str }) }), propagationMethod: obj({ qemuGuestAgent: any }) }),
  })),
});

export const OBJECT_META_SHAPE: Shape = obj({
  name: str, generateName: str, namespace: str, uid: str,
  labels: map(str), annotations: map(str), finalizers: arr(str),
});
