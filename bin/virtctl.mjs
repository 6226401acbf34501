#!/usr/bin/env node
// `virtctl`: the same as `kv virtctl` (KubeVirt's virtctl commands, flags and output).
process.argv.splice(2, 0, 'virtctl');
await import('./kv.mjs');
