import { scanLabelSelector, type Scanned, type Token } from './label-lexer';
import { invalidValue, validateLabelKey, validateLabelValue } from './label-validation';
import { SelectorError } from './selector-error';

export type LabelOperator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

/** A parsed label selector: all requirements must hold. `nothing` matches no object. */
export interface LabelSelector {
  requirements: LabelRequirement[];
  nothing?: boolean;
}

const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const OPERATOR_OF: Partial<Record<Token, LabelOperator>> = {
  in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt',
};

/** Parses kube's label selector syntax (`a=b,c!=d,e in (f,g),!h,i`); errors carry kube's messages. */
export function parseLabelSelector(s: string): LabelSelector {
  const p = new Parser(scanLabelSelector(s));
  const requirements = p.parse();
  requirements.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { requirements };
}

class Parser {
  private pos = 0;
  constructor(private readonly items: Scanned[]) {}

  /** In a value position the keywords `in`/`notin` are plain identifiers. */
  private peek(values = true): Scanned {
    const it = this.items[this.pos];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }

  private next(values = true): Scanned {
    const it = this.peek(values);
    this.pos++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek();
      if (tok === 'end') return reqs;
      if (tok !== 'id' && tok !== '!') throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      reqs.push(this.parseRequirementOrThrow());
      const after = this.next();
      if (after.tok === 'end') return reqs;
      if (after.tok !== ',') throw new SelectorError(`found '${after.lit}', expected: ',' or 'end of string'`);
      const ahead = this.peek();
      if (ahead.tok !== 'id' && ahead.tok !== '!') throw new SelectorError(`found '${ahead.lit}', expected: identifier after ','`);
    }
  }

  private parseRequirementOrThrow(): LabelRequirement {
    try {
      return this.parseRequirement();
    } catch (e) {
      throw new SelectorError(`unable to parse requirement: ${(e as Error).message}`);
    }
  }

  private parseRequirement(): LabelRequirement {
    let { tok, lit } = this.next();
    const negated = tok === '!';
    if (negated) ({ tok, lit } = this.next());
    if (tok !== 'id') throw new Error(`found '${lit}', expected: identifier`);
    const keyErrs = validateLabelKey(lit);
    if (keyErrs.length) throw new Error(invalidValue('', lit, keyErrs));
    const ahead = this.peek().tok;
    if (negated || ahead === 'end' || ahead === ',') {
      return newRequirement(lit, negated ? '!' : 'exists', []);
    }
    const opItem = this.next(false);
    const operator = OPERATOR_OF[opItem.tok];
    if (!operator) throw new Error(`found '${opItem.lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(lit, operator, values);
  }

  private parseValues(): string[] {
    const open = this.next();
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const first = this.peek();
    if (first.tok === ')') {
      this.next();
      return [''];
    }
    if (first.tok !== 'id' && first.tok !== ',') throw new Error(`found '${first.lit}', expected: ',', ')' or identifier`);
    const values = this.parseIdentifiers();
    if (this.next().tok !== ')') throw new Error(`found '${first.lit}', expected: ')'`);
    return values;
  }

  private parseIdentifiers(): string[] {
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = this.next();
      if (tok === 'id') {
        set.add(lit);
        const ahead = this.peek();
        if (ahead.tok === ')') return [...set].sort();
        if (ahead.tok !== ',') throw new Error(`found '${ahead.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        const ahead = this.peek().tok;
        if (set.size === 0 || ahead === ')' || ahead === ',') set.add('');
        if (ahead === ')') return [...set].sort();
      } else {
        throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const ahead = this.peek();
    if (ahead.tok === 'end' || ahead.tok === ',') return [''];
    const { tok, lit } = this.next();
    if (tok === 'id') return [lit];
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/** Builds one requirement with kube's NewRequirement checks (value count and syntax). */
export function newRequirement(key: string, operator: LabelOperator, values: string[]): LabelRequirement {
  if ((operator === 'in' || operator === 'notin') && values.length === 0) {
    throw new SelectorError("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
  }
  if ((operator === 'exists' || operator === '!') && values.length !== 0) {
    throw new SelectorError(`values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`);
  }
  if ((operator === '=' || operator === '==' || operator === '!=') && values.length !== 1) {
    throw new SelectorError('values: Invalid value: []: exact-match compatibility requires one single value');
  }
  if (operator === 'gt' || operator === 'lt') {
    if (values.length !== 1) throw new SelectorError("values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required");
    if (!/^-?\d+$/.test(values[0])) {
      throw new SelectorError(`values[0]: Invalid value: ${JSON.stringify(values[0])}: for 'Gt', 'Lt' operators, the value must be an integer`);
    }
  }
  values.forEach((v, i) => {
    const errs = validateLabelValue(v);
    if (errs.length) throw new SelectorError(invalidValue(`values[${i}][${key}]`, v, errs));
  });
  return { key, operator, values };
}

/** True when every requirement holds for these labels (an empty selector matches everything). */
export function matchLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  if (sel.nothing) return false;
  const ls = labels ?? {};
  return sel.requirements.every((r) => matchRequirement(r, ls));
}

function matchRequirement(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.operator) {
    case 'exists': return has;
    case '!': return !has;
    case 'in': case '=': case '==': return has && r.values.includes(v);
    case 'notin': case '!=': return !has || !r.values.includes(v);
    case 'gt': case 'lt': {
      if (!has || !/^-?\d+$/.test(v)) return false;
      const n = Number(v), bound = Number(r.values[0]);
      return r.operator === 'gt' ? n > bound : n < bound;
    }
  }
}
