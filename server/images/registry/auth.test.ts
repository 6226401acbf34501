import { describe, expect, it } from 'vitest';
import { parseAuthChallenge, tokenUrl } from './auth-challenge';
import { credentialsFor, parseDockerConfigSecret } from './docker-config';

describe('parseAuthChallenge', () => {
  it('reads a Bearer challenge as Docker Hub sends it', () => {
    const c = parseAuthChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/alpine:pull"');
    expect(c).toEqual({ scheme: 'bearer', params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:library/alpine:pull' } });
    expect(tokenUrl(c!, 'library/alpine').toString()).toBe('https://auth.docker.io/token?service=registry.docker.io&scope=repository%3Alibrary%2Falpine%3Apull');
  });

  it('reads Basic, unquoted values, spaces and escapes', () => {
    expect(parseAuthChallenge('Basic realm="Registry Realm"')).toEqual({ scheme: 'basic', params: { realm: 'Registry Realm' } });
    expect(parseAuthChallenge('bearer  realm=http://r/t , service = "a \\"b\\""')).toEqual({ scheme: 'bearer', params: { realm: 'http://r/t', service: 'a "b"' } });
  });

  it('asks for pull of the repository when the challenge names no scope', () => {
    expect(tokenUrl({ scheme: 'bearer', params: { realm: 'http://127.0.0.1:1/token' } }, 'a/b').searchParams.get('scope')).toBe('repository:a/b:pull');
  });

  it('gives nothing for an empty header', () => {
    expect(parseAuthChallenge(null)).toBeUndefined();
    expect(parseAuthChallenge('')).toBeUndefined();
  });
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secretData = (doc: object) => ({ '.dockerconfigjson': b64(JSON.stringify(doc)) });

describe('dockerconfigjson pull secrets', () => {
  it('decodes auth (user:password, the password may hold colons) by host:port', () => {
    const auths = parseDockerConfigSecret('kubernetes.io/dockerconfigjson', secretData({ auths: { '127.0.0.1:5000': { auth: b64('alice:s3:cr:et') } } }));
    expect(credentialsFor('127.0.0.1:5000', [auths])).toEqual({ username: 'alice', password: 's3:cr:et' });
    expect(credentialsFor('127.0.0.1:5001', [auths])).toBeUndefined();
  });

  it('takes username/password, URL keys and Docker Hub aliases', () => {
    const auths = parseDockerConfigSecret('kubernetes.io/dockerconfigjson', secretData({ auths: {
      'https://index.docker.io/v1/': { username: 'hub', password: 'p1' },
      'https://quay.io': { username: 'q', password: 'p2' },
    } }));
    expect(credentialsFor('docker.io', [auths])).toEqual({ username: 'hub', password: 'p1' });
    expect(credentialsFor('quay.io', [auths])).toEqual({ username: 'q', password: 'p2' });
  });

  it('uses the first Secret that has the registry, and reads legacy dockercfg', () => {
    const legacy = parseDockerConfigSecret('kubernetes.io/dockercfg', { '.dockercfg': b64(JSON.stringify({ 'quay.io': { auth: b64('old:1') } })) });
    const modern = parseDockerConfigSecret('kubernetes.io/dockerconfigjson', secretData({ auths: { 'quay.io': { auth: b64('new:2') } } }));
    expect(credentialsFor('quay.io', [legacy, modern])).toEqual({ username: 'old', password: '1' });
  });

  it('ignores Secrets that are not docker configs or do not parse', () => {
    expect(parseDockerConfigSecret('Opaque', { '.dockerconfigjson': b64('{"auths":{}}') })).toEqual({});
    expect(parseDockerConfigSecret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('nope') })).toEqual({});
  });
});
