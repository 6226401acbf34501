/** kubevirt-ts's version (package.json's; server/version-agreement.test.ts keeps them equal), reported as KubeVirt's. */
export const KUBEVIRT_TS_VERSION = 'v0.1.0';
