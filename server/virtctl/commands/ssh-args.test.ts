import { describe, expect, it } from 'vitest';
import { parseScpPath, parseSshTarget, scpArgs, sshArgs, type SshOptions } from './ssh-args';

const o: SshOptions = { self: ['virtctl'], namespace: 'default', port: 22, localSshOpts: [] };

describe('virtctl ssh/scp arguments for the local OpenSSH client', () => {
  it('parses [USER@]TYPE/NAME[.NS]', () => {
    expect(parseSshTarget('root@vmi/demo')).toEqual({ kind: 'vmi', name: 'demo', namespace: undefined, user: 'root' });
    expect(parseSshTarget('vm/web.prod')).toEqual({ kind: 'vm', name: 'web', namespace: 'prod', user: undefined });
    expect(() => parseSshTarget('@vmi/x')).toThrow('empty user name');
    expect(() => parseSshTarget('pod/x')).toThrow("unsupported resource type 'pod'");
  });

  it('runs ssh through `virtctl port-forward --stdio=true` as KubeVirt does', () => {
    expect(sshArgs(parseSshTarget('root@vmi/demo'), { ...o, identityFile: 'k', knownHostsFile: 'kh', localSshOpts: ['-oBatchMode=yes'] }, 'uname -r')).toEqual([
      '-o', 'ProxyCommand=virtctl port-forward --stdio=true vmi/demo.default 22',
      '-i', 'k', '-o', 'UserKnownHostsFile=kh', '-oBatchMode=yes', 'root@vmi/demo.default', 'uname -r',
    ]);
    expect(sshArgs(parseSshTarget('vm/web.prod'), { ...o, user: 'fedora', port: 2222 }, undefined)).toEqual([
      '-o', 'ProxyCommand=virtctl port-forward --stdio=true vm/web.prod 2222', 'fedora@vm/web.prod',
    ]);
  });

  it('tells remote scp paths from local ones and names the guest without a slash', () => {
    expect(parseScpPath('root@vmi/demo:/tmp/x')).toEqual({ remote: { kind: 'vmi', name: 'demo', namespace: undefined, user: 'root' }, path: '/tmp/x' });
    expect(parseScpPath('./local:file')).toEqual({ path: './local:file' });
    expect(parseScpPath('/abs/path')).toEqual({ path: '/abs/path' });
    const args = scpArgs(parseScpPath('notes.txt'), parseScpPath('root@vmi/demo.ns1:/root/'), o, true);
    expect(args).toEqual([
      '-o', 'ProxyCommand=virtctl port-forward --stdio=true vmi/demo.ns1 22', '-o', 'HostKeyAlias=vmi/demo.ns1', '-r', 'notes.txt', 'root@vmi.demo.ns1:/root/',
    ]);
    expect(() => scpArgs(parseScpPath('a'), parseScpPath('b'), o, false)).toThrow('exactly one of source and destination');
  });
});
