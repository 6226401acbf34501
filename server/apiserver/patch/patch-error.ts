/** Reasons kube-apiserver uses in a metav1.Status for patch failures. */
export const REASON_BAD_REQUEST = 'BadRequest';
export const REASON_INVALID = 'Invalid';
export const REASON_UNSUPPORTED_MEDIA_TYPE = 'UnsupportedMediaType';

/** kube's generic message for a 422 whose detail it does not pass on (a failed JSON patch op). */
export const MESSAGE_PATCH_NOT_APPLICABLE = 'the server rejected our request due to an error in our request';

/**
 * A patch that could not be decoded (400), applied (422), or is of a type the kind does not
 * support (415). `message` is what kube-apiserver puts in its Status; `detail` is the underlying
 * reason, for logs (kube does not send it for 422).
 */
export class PatchError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly detail?: string;

  constructor(code: number, reason: string, message: string, detail?: string) {
    super(message);
    this.name = 'PatchError';
    this.code = code;
    this.reason = reason;
    this.detail = detail;
  }

  /** The metav1.Status kube-apiserver answers with. */
  toStatus(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      details: {},
      code: this.code,
    };
  }
}

export const badPatch = (message: string) => new PatchError(400, REASON_BAD_REQUEST, message);
export const unprocessablePatch = (detail: string) =>
  new PatchError(422, REASON_INVALID, MESSAGE_PATCH_NOT_APPLICABLE, detail);
