/** Tokens of kube's label selector grammar (apimachinery/pkg/labels lexer). */
export type Token =
  | 'id' | 'end' | 'error' | ',' | '(' | ')' | '!' | '=' | '==' | '!=' | 'in' | 'notin' | '>' | '<';

export interface Scanned {
  tok: Token;
  lit: string;
}

const KEYWORDS: Record<string, Token> = { in: 'in', notin: 'notin' };
const SYMBOLS: Record<string, Token> = {
  ',': ',', '(': '(', ')': ')', '!': '!', '=': '=', '==': '==', '!=': '!=', '>': '>', '<': '<',
};
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

/** Splits a selector string into tokens; the last is always `end`. */
export function scanLabelSelector(s: string): Scanned[] {
  const out: Scanned[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && WHITESPACE.has(s[pos])) pos++;
    if (pos >= s.length) {
      out.push({ tok: 'end', lit: '' });
      return out;
    }
    if (SPECIAL.has(s[pos])) {
      const [item, next] = scanSymbol(s, pos);
      out.push(item);
      pos = next;
      continue;
    }
    const start = pos;
    while (pos < s.length && !SPECIAL.has(s[pos]) && !WHITESPACE.has(s[pos])) pos++;
    const lit = s.slice(start, pos);
    out.push({ tok: KEYWORDS[lit] ?? 'id', lit });
  }
}

/** Longest run of special characters that is still a known operator. */
function scanSymbol(s: string, pos: number): [Scanned, number] {
  let buffer = '';
  let last: Scanned | undefined;
  let end = pos;
  for (let i = pos; i < s.length && SPECIAL.has(s[i]); i++) {
    buffer += s[i];
    const tok = SYMBOLS[buffer];
    if (tok) {
      last = { tok, lit: buffer };
      end = i + 1;
    } else if (last) break;
  }
  if (!last) return [{ tok: 'error', lit: `error expected: keyword found '${buffer}'` }, pos + buffer.length];
  return [last, end];
}
