/**
 * `kv hotplug-disk`: the command of a hot-plug attachment Pod (KubeVirt's hp-volume Pod). It does
 * nothing but live: while it runs, the kubelet keeps its claims bound and linked on the VMI's node,
 * where virt-handler hands them to the launcher. SIGTERM ends it at once.
 */
export async function runHotplugHolderCommand(): Promise<void> {
  await new Promise<void>((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => { clearInterval(keepAlive); resolve(); });
  });
  process.exit(0);
}
