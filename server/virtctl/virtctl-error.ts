/**
 * An error virtctl prints on stderr before it exits 1 (cobra's `cmd.PrintErrln(err)` in KubeVirt's
 * virtctl): the message is the whole line, no stack.
 */
export class VirtctlError extends Error {}

/** Flag or argument problems: printed with the command's usage line, exit 1 as cobra does. */
export class UsageError extends VirtctlError {}
