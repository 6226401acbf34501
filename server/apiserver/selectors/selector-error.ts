/** A label or field selector kube-apiserver would refuse (the REST layer answers 400 BadRequest). */
export class SelectorError extends Error {
  readonly code = 400;
  constructor(message: string) {
    super(message);
    this.name = 'SelectorError';
  }
}
