import { describe, expect, it } from 'vitest';
import { guessLayout, keysymOf, KEYBOARD_LAYOUTS, planTyping } from './keyboard-layouts';

const keys = (text: string, layout: string) => planTyping(text, layout).strokes.map((s) => `${s.shift ? 'S+' : ''}${s.altgr ? 'G+' : ''}${s.code}`);

describe('planTyping', () => {
  it.each([
    ['Yz', 'us', ['S+KeyY', 'KeyZ']],
    ['Yz', 'de', ['S+KeyZ', 'KeyY']], // the Y/Z swap users hit when pasting into a German guest
    ['a1', 'fr', ['KeyQ', 'S+Digit1']],
    ['^', 'de', ['Backquote', 'Space']], // dead key, then Space
    ['@', 'us', ['S+Digit2']],
    ['@', 'de', ['G+KeyQ']],
    ['@', 'fr', ['G+Digit0']],
    ['root\n', 'us', ['KeyR', 'KeyO', 'KeyO', 'KeyT', 'Enter']],
    ['a\r\nb', 'us', ['KeyA', 'Enter', 'KeyB']],
  ])('%j on %s', (text, layout, want) => expect(keys(text, layout)).toEqual(want));

  it('skips what the layout cannot type and says so', () => {
    const p = planTyping('aé✓b', 'us');
    expect(p.strokes.map((s) => s.ch)).toEqual(['a', 'b']);
    expect(planTyping('^', 'de').strokes.map((s) => s.ch).join('')).toBe('^');
    expect(p.unsupported).toEqual(['é', '✓']);
  });

  it('every layout types all of printable ASCII', () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    for (const layout of Object.keys(KEYBOARD_LAYOUTS)) expect(planTyping(ascii, layout).unsupported, layout).toEqual([]);
  });
});

describe('keysymOf and guessLayout', () => {
  it.each([['a', 0x61], ['é', 0xe9], ['€', 0x010020ac], ['\n', 0xff0d]])('%j → %i', (ch, ks) => expect(keysymOf(ch)).toBe(ks));
  it.each([['de-DE', 'de'], ['fr-FR', 'fr'], ['fr-CA', 'us'], ['en-GB', 'us'], [undefined, 'us']])('%s → %s', (lang, l) => expect(guessLayout(lang)).toBe(l));
});
