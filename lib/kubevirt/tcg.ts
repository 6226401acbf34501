/**
 * QEMU's TCG translation cache, in MiB (`-accel tcg,tb-size=N`). Without it QEMU (≥ 5.0, x86-64 host)
 * reserves 1 GiB and fills it as the guest runs new code, flushing only when full: a demo guest's QEMU
 * held 66 MiB of it ten seconds after the login prompt, and one whose guest never booted (stuck in its
 * kernel's unpacker) passed 400 MiB RSS in 80 s. With tb-size=32 (QEMU's own default before 5.0) the
 * demo boots no slower; a guest whose code outgrows it has the cache flushed and retranslated. The
 * launcher passes this bound when it runs a guest under TCG, and virt-controller counts it in every
 * launcher Pod's memory overhead (it cannot know a node's accelerator before scheduling).
 * Figures: docs/performance.md, "Density".
 */
export const TCG_TB_SIZE_MIB = 32;
