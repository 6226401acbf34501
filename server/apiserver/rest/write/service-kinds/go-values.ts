/**
 * Values printed as Go's %#v prints them, for the kube messages whose bad value is a Go slice or
 * struct (`[]string{"10.96.0.5"}`, `core.ServicePort{…}`).
 */

export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** the key kube checks duplicate ports with: a core.ServicePort holding only protocol and port */
export function goServicePortKey(protocol: string, port: number): string {
  return `core.ServicePort{Name:"", Protocol:${JSON.stringify(protocol)}, AppProtocol:(*string)(nil), Port:${port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}
