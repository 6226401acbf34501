import { describe, expect, it } from 'vitest';
import { exactArgs, intFlag, mapFlag, parseFlags } from './flags';
import { UsageError } from './virtctl-error';

describe('virtctl flags', () => {
  it('takes global flags anywhere on the line, in both cobra forms', () => {
    const p = parseFlags(['-n', 'prod', 'demo', '--kubeconfig=/k', '--paused'], { paused: { type: 'boolean' } });
    expect(p.global).toEqual({ namespace: 'prod', kubeconfig: '/k', context: undefined });
    expect(p.positionals).toEqual(['demo']);
    expect(p.values.paused).toBe(true);
  });

  it('takes --flag=true and --flag=false for a boolean flag, as cobra does', () => {
    expect(parseFlags(['--stdio=true', 'vmi/x', '22'], { stdio: { type: 'boolean' } }).values.stdio).toBe(true);
    expect(parseFlags(['--stdio=false', 'vmi/x', '22'], { stdio: { type: 'boolean' } }).values.stdio).toBeUndefined();
    expect(() => parseFlags(['--name=true'], { name: { type: 'boolean' }, other: { type: 'string' } })).not.toThrow();
  });

  it('refuses an unknown flag and a wrong argument count as usage errors', () => {
    expect(() => parseFlags(['demo', '--bogus'], {})).toThrow(UsageError);
    expect(() => exactArgs(['a', 'b'], 1)).toThrow('accepts 1 arg(s), received 2');
  });

  it('reads integers and key=value maps as cobra does, naming the flag on bad input', () => {
    expect(intFlag({ 'grace-period': '0' }, 'grace-period')).toBe(0);
    expect(() => intFlag({ 'grace-period': 'soon' }, 'grace-period')).toThrow('invalid argument "soon" for "--grace-period" flag');
    expect(mapFlag({ sel: 'a=1,b=x=y' }, 'sel')).toEqual({ a: '1', b: 'x=y' });
    expect(() => mapFlag({ sel: 'a' }, 'sel')).toThrow('a must be formatted as key=value');
  });
});
