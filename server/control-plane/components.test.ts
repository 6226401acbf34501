import { describe, expect, it } from 'vitest';
import { joinComponents, parseComponents } from './components';

describe('kv control-plane components', () => {
  it('splits at --and, each component keeping exactly its own flags', () => {
    expect(parseComponents(['scheduler', '--data-dir', '/d', '--and', 'node', '--name', 'node-1', '--stop-pods-on-exit', '--and', 'handler', '--node', 'node-1'])).toEqual([
      { command: 'scheduler', argv: ['--data-dir', '/d'] },
      { command: 'node', argv: ['--name', 'node-1', '--stop-pods-on-exit'] },
      { command: 'handler', argv: ['--node', 'node-1'] },
    ]);
  });

  it('lets virt-api and the console share a process with each other', () => {
    expect(parseComponents(['virt-api', '--port', '8443', '--and', 'console', '--port', '3000'])).toEqual([
      { command: 'virt-api', argv: ['--port', '8443'] },
      { command: 'console', argv: ['--port', '3000'] },
    ]);
  });

  it('joinComponents is the inverse', () => {
    const parts = [['controller', '--kubeconfig', 'k'], ['storage', '--upload-port', '1234']];
    expect(parseComponents(joinComponents(parts)).map((c) => [c.command, ...c.argv])).toEqual(parts);
  });

  it.each([
    [[], /no components given/],
    [['scheduler', '--and'], /component 2 is empty/],
    [['--and', 'scheduler'], /component 1 is empty/],
    [['apiserver', '--port', '6443'], /"apiserver" cannot share a process; one of: scheduler, controller/],
    [['scheduler', '--and', 'virt-api'], /"virt-api" cannot share a process with "scheduler": virt-api and console share only with each other/],
    [['console', '--port', '3000', '--and', 'handler', '--node', 'node-1'], /"handler" cannot share a process with "console"/],
  ])('refuses %j with a clear message', (argv, message) => {
    expect(() => parseComponents(argv)).toThrow(message);
  });
});
