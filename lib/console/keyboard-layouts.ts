/**
 * Paste-as-typing: text → the physical keys (and Shift/AltGr) a guest with a given keyboard layout
 * needs to produce it. QEMU's extended key events carry the physical key (scancode), so the
 * guest's layout decides the character — the plan must follow the guest's layout, not ours.
 */

export interface KeyStroke { ch: string; keysym: number; code: string; shift: boolean; altgr: boolean }
/** `dead`: a dead key, followed by Space to produce the character itself. */
type Entry = [code: string, shift?: boolean, altgr?: boolean, dead?: boolean];
type Table = Record<string, Entry>;

export const KEYSYM = { Shift: 0xffe1, AltGr: 0xfe03, Return: 0xff0d, Tab: 0xff09, Control: 0xffe3, Alt: 0xffe9, Delete: 0xffff, BackSpace: 0xff08, Escape: 0xff1b, Super: 0xffeb, SysReq: 0xff15, F1: 0xffbe } as const;

function letters(map: Record<string, string> = {}): Table {
  const t: Table = {};
  for (let i = 0; i < 26; i++) {
    const ch = String.fromCharCode(97 + i);
    const code = map[ch] ?? `Key${ch.toUpperCase()}`;
    t[ch] = [code];
    t[ch.toUpperCase()] = [code, true];
  }
  return t;
}

const pairs = (spec: string, shift = false, altgr = false): Table =>
  Object.fromEntries(spec.trim().split(/\s+/).map((p) => {
    const at = p.lastIndexOf('=');
    return [p.slice(0, at) === 'SP' ? ' ' : p.slice(0, at), [p.slice(at + 1), shift, altgr] as Entry];
  }));

const COMMON: Table = { ' ': ['Space'], '\n': ['Enter'], '\t': ['Tab'] };
const DIGITS = pairs('1=Digit1 2=Digit2 3=Digit3 4=Digit4 5=Digit5 6=Digit6 7=Digit7 8=Digit8 9=Digit9 0=Digit0');

const US: Table = {
  ...COMMON, ...letters(), ...DIGITS,
  ...pairs('!=Digit1 @=Digit2 #=Digit3 $=Digit4 %=Digit5 ^=Digit6 &=Digit7 *=Digit8 (=Digit9 )=Digit0 ~=Backquote _=Minus +=Equal {=BracketLeft }=BracketRight |=Backslash :=Semicolon "=Quote <=Comma >=Period ?=Slash', true),
  ...pairs('`=Backquote -=Minus ==Equal [=BracketLeft ]=BracketRight \\=Backslash ;=Semicolon \'=Quote ,=Comma .=Period /=Slash'),
};

const DE: Table = {
  ...COMMON, ...letters({ y: 'KeyZ', z: 'KeyY' }), ...DIGITS,
  ...pairs('ß=Minus ü=BracketLeft +=BracketRight ö=Semicolon ä=Quote #=Backslash ,=Comma .=Period -=Slash <=IntlBackslash'),
  '^': ['Backquote', false, false, true], '`': ['Equal', true, false, true],
  ...pairs('!=Digit1 "=Digit2 §=Digit3 $=Digit4 %=Digit5 &=Digit6 /=Digit7 (=Digit8 )=Digit9 ==Digit0 ?=Minus Ü=BracketLeft *=BracketRight Ö=Semicolon Ä=Quote \'=Backslash ;=Comma :=Period _=Slash >=IntlBackslash °=Backquote', true),
  ...pairs('@=KeyQ €=KeyE {=Digit7 [=Digit8 ]=Digit9 }=Digit0 \\=Minus ~=BracketRight |=IntlBackslash', false, true),
};

const FR: Table = {
  ...COMMON, ...letters({ a: 'KeyQ', q: 'KeyA', z: 'KeyW', w: 'KeyZ', m: 'Semicolon' }),
  ...pairs('1=Digit1 2=Digit2 3=Digit3 4=Digit4 5=Digit5 6=Digit6 7=Digit7 8=Digit8 9=Digit9 0=Digit0 °=Minus +=Equal ?=KeyM .=Comma /=Period §=Slash %=Quote µ=Backslash >=IntlBackslash £=BracketRight', true),
  ...pairs('&=Digit1 é=Digit2 "=Digit3 \'=Digit4 (=Digit5 -=Digit6 è=Digit7 _=Digit8 ç=Digit9 à=Digit0 )=Minus ==Equal ,=KeyM ;=Comma :=Period !=Slash ù=Quote *=Backslash <=IntlBackslash $=BracketRight'),
  ...pairs('~=Digit2 #=Digit3 {=Digit4 [=Digit5 |=Digit6 `=Digit7 \\=Digit8 ^=Digit9 @=Digit0 ]=Minus }=Equal €=KeyE', false, true),
};

export const KEYBOARD_LAYOUTS: Record<string, { label: string; table: Table }> = {
  us: { label: 'English (US)', table: US },
  de: { label: 'German (QWERTZ)', table: DE },
  fr: { label: 'French (AZERTY)', table: FR },
};

/** X11 keysym of a character (Latin-1 directly, others as Unicode keysyms). */
export function keysymOf(ch: string): number {
  if (ch === '\n') return KEYSYM.Return;
  if (ch === '\t') return KEYSYM.Tab;
  const cp = ch.codePointAt(0) ?? 0;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) ? cp : 0x01000000 | cp;
}

/** The strokes for a text, and the characters this layout cannot type (skipped). */
export function planTyping(text: string, layout: string): { strokes: KeyStroke[]; unsupported: string[] } {
  const table = KEYBOARD_LAYOUTS[layout]?.table ?? US;
  const strokes: KeyStroke[] = [];
  const unsupported = new Set<string>();
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    const e = table[ch];
    if (!e) { unsupported.add(ch); continue; }
    strokes.push({ ch, keysym: keysymOf(ch), code: e[0], shift: !!e[1], altgr: !!e[2] });
    if (e[3]) strokes.push({ ch: '', keysym: keysymOf(' '), code: 'Space', shift: false, altgr: false });
  }
  return { strokes, unsupported: [...unsupported] };
}

/** Guess the guest layout from the browser's language (a starting point the user can change). */
export function guessLayout(language: string | undefined): string {
  const l = (language ?? '').toLowerCase();
  if (l.startsWith('de')) return 'de';
  if (l.startsWith('fr') && !l.startsWith('fr-ca')) return 'fr';
  return 'us';
}

export interface KeyCombo { label: string; keys: [keysym: number, code: string][] }

const F = (n: number): [number, string] => [KEYSYM.F1 + n - 1, `F${n}`];
const CTRL: [number, string] = [KEYSYM.Control, 'ControlLeft'];
const ALT: [number, string] = [KEYSYM.Alt, 'AltLeft'];

/** Key combinations a browser would swallow, pressed in order and released in reverse. */
export const KEY_COMBOS: KeyCombo[] = [
  { label: 'Ctrl+Alt+Del', keys: [CTRL, ALT, [KEYSYM.Delete, 'Delete']] },
  { label: 'Ctrl+Alt+Backspace', keys: [CTRL, ALT, [KEYSYM.BackSpace, 'Backspace']] },
  ...[1, 2, 3, 7].map((n) => ({ label: `Ctrl+Alt+F${n}`, keys: [CTRL, ALT, F(n)] })),
  { label: 'Alt+Tab', keys: [ALT, [KEYSYM.Tab, 'Tab']] },
  { label: 'Alt+F4', keys: [ALT, F(4)] },
  { label: 'Win (Super)', keys: [[KEYSYM.Super, 'MetaLeft']] },
  { label: 'Esc', keys: [[KEYSYM.Escape, 'Escape']] },
  { label: 'Alt+SysRq+S (sync)', keys: [ALT, [KEYSYM.SysReq, 'PrintScreen'], [0x73, 'KeyS']] },
  { label: 'Alt+SysRq+B (reboot)', keys: [ALT, [KEYSYM.SysReq, 'PrintScreen'], [0x62, 'KeyB']] },
];
