import { expect, it } from 'vitest';
import { screenConsoleRequest } from './request-screen';

it.each([
  ['GET', '/vms', undefined],
  ['GET', '/vms/default/a%20b', undefined],
  ['PATCH', '/vms/@/%C3', 400],
  ['PUT', '/api/kube/api/v1/nodes/%zz/a;b', 400],
  ['GET', '//[', 400],
  ['POST', '*', 400],
  ['GET', 'http://evil/', 400],
  ['TRACE', '/api/kube/apis/kubevirt.io/v1/virtualmachines', 405],
  ['PROPFIND', '/', 405],
  [undefined, '/', 405],
] as const)('%s %s → %s', (method, target, code) => {
  expect(screenConsoleRequest(method, target)?.code).toBe(code);
});
