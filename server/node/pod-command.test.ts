import { describe, expect, it } from 'vitest';
import { executableProblem, expandVars, resolveContainerLaunch, type LaunchContext } from './pod-command';
import { makePod, withPodSpec } from './testing-builders';

const ctx: LaunchContext = {
  podDir: '/d/nodes/n1/pods/uid-p',
  nodeName: 'n1',
  dataDir: '/d',
  kvScript: '/repo/bin/kv.mjs',
  nodeExecutable: '/usr/bin/node',
  hostEnv: { PATH: '/usr/bin:/bin', SECRET_TOKEN: 'x' },
};

describe('resolveContainerLaunch', () => {
  it('runs `kv` as this repo\'s bin/kv.mjs with the current node executable', () => {
    const pod = makePod('p', withPodSpec({ containers: [{ name: 'compute', command: ['kv', 'launcher'], args: ['--x'] }] }));
    expect(resolveContainerLaunch(pod, pod.spec!.containers[0], ctx)).toMatchObject({ file: '/usr/bin/node', args: ['/repo/bin/kv.mjs', 'launcher', '--x'], cwd: ctx.podDir });
  });

  it('gives the pod its identity env, container env and fieldRefs, and only a few host variables', () => {
    const pod = makePod('p', withPodSpec({
      nodeName: 'n1',
      containers: [{ name: 'c', command: ['sleep', '$(DELAY)'], env: [
        { name: 'DELAY', value: '5' },
        { name: 'WHERE', value: 'node $(KV_NODE_NAME)' },
        { name: 'MY_NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      ] }],
    }));
    const launch = resolveContainerLaunch(pod, pod.spec!.containers[0], ctx);
    expect(launch).toMatchObject({ file: 'sleep', args: ['5'] });
    const env = (launch as { env: Record<string, string> }).env;
    expect(env).toMatchObject({ KV_POD_DIR: ctx.podDir, KV_NODE_NAME: 'n1', KV_DATA_DIR: '/d', POD_NAME: 'p', POD_NAMESPACE: 'default', POD_UID: 'uid-p', PATH: '/usr/bin:/bin', WHERE: 'node n1', MY_NODE: 'n1' });
    expect(env.SECRET_TOKEN).toBeUndefined();
  });

  it('keeps shell metacharacters as plain argument text', () => {
    const pod = makePod('p', withPodSpec({ containers: [{ name: 'c', command: ['echo', '$(rm -rf /); `x`'] }] }));
    expect(resolveContainerLaunch(pod, pod.spec!.containers[0], ctx)).toMatchObject({ file: 'echo', args: ['$(rm -rf /); `x`'] });
  });

  it('runs the project image as its container: entrypoint kv for args alone, none of the node\'s KV_* variables', () => {
    const pod = makePod('p', withPodSpec({ nodeName: 'n1', containers: [{ name: 'virt-handler', image: 'kubevirt-ts:latest', args: ['handler', '--node', '$(NODE_NAME)'], env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }] }] }));
    const launch = resolveContainerLaunch(pod, pod.spec!.containers[0], { ...ctx, asContainer: true });
    expect(launch).toMatchObject({ file: '/usr/bin/node', args: ['/repo/bin/kv.mjs', 'handler', '--node', 'n1'] });
    const env = (launch as { env: Record<string, string> }).env;
    expect(Object.keys(env).filter((k) => k.startsWith('KV_') || k.startsWith('POD_'))).toEqual([]);
    expect(env.PATH).toBe('/usr/bin:/bin');
  });

  it('reports a missing Secret as CreateContainerConfigError with kube\'s message', () => {
    const pod = makePod('p', withPodSpec({ containers: [{ name: 'c', image: 'kubevirt-ts:latest', command: ['kv', 'x'], env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'virt-handler-token', key: 'token' } } }] }] }));
    expect(resolveContainerLaunch(pod, pod.spec!.containers[0], { ...ctx, asContainer: true })).toEqual({ error: 'secret "virt-handler-token" not found', reason: 'CreateContainerConfigError' });
  });

  it('refuses a container without a command', () => {
    const pod = makePod('p');
    expect(resolveContainerLaunch(pod, pod.spec!.containers[0], ctx)).toHaveProperty('error');
  });
});

describe('expandVars', () => {
  it.each([
    ['$(A)-$(B)', 'a-$(B)'],
    ['$$(A)', '$(A)'],
    ['plain', 'plain'],
  ])('%s → %s', (input, out) => {
    expect(expandVars(input, { A: 'a' })).toBe(out);
  });
});

describe('executableProblem', () => {
  const env = { PATH: '/nonexistent:/bin:/usr/bin' };
  it('finds a name on the container PATH and says what the runtime says when it is not there', () => {
    expect(executableProblem('sh', env, '/')).toBeUndefined();
    expect(executableProblem('no-such-command-kv', env, '/')).toBe('exec: "no-such-command-kv": executable file not found in $PATH');
    expect(executableProblem('sh', { PATH: '/nonexistent' }, '/')).toBe('exec: "sh": executable file not found in $PATH');
  });

  it('checks a path from the working dir, unless mounts may still bring it', () => {
    expect(executableProblem('/bin/sh', env, '/')).toBeUndefined();
    expect(executableProblem('bin/sh', env, '/')).toBeUndefined();
    expect(executableProblem('/no/such/bin', env, '/')).toBe('exec: "/no/such/bin": stat /no/such/bin: no such file or directory');
    expect(executableProblem('/etc', env, '/')).toBeDefined(); // a directory does not run
    expect(executableProblem('/no/such/bin', env, '/', false)).toBeUndefined();
  });
});
