export const PROJECT_DIR: string;
export const BUNDLE_ROOT: string;
export const MANIFEST_FILE: string;
export type FileStamp = [mtimeMs: number, size: number];
export function fileStamp(path: string): FileStamp | undefined;
export function freshBundleEntry(root?: string, projectDir?: string): string | undefined;
export function bundleEntry(env?: Record<string, string | undefined>): string | undefined;
export function resolvePackage(specifier: string): string;
