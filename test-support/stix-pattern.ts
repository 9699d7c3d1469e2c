// A parser of the STIX 2.1 patterning language (STIX 2.1, section 9, and the ANTLR grammar STIXPattern.g4 the
// specification publishes), written as recursive descent for the tests: an exported pattern either parses into
// a tree of observation and comparison expressions or throws a StixPatternError naming where it stopped. Not a
// regular expression: quoting, nesting, qualifiers and literal types are read as the grammar reads them.
//
//   pattern                  : observationExpressions EOF
//   observationExpressions   : observationExpressionOr (FOLLOWEDBY observationExpressionOr)*
//   observationExpressionOr  : observationExpressionAnd (OR observationExpressionAnd)*
//   observationExpressionAnd : observationExpression (AND observationExpression)*
//   observationExpression    : ( '[' comparisonExpression ']' | '(' observationExpressions ')' ) qualifier*
//   qualifier                : START TimestampLiteral STOP TimestampLiteral
//                            | WITHIN (IntPosLiteral | FloatPosLiteral) SECONDS | REPEATS IntPosLiteral TIMES
//   comparisonExpression     : comparisonExpressionAnd (OR comparisonExpressionAnd)*
//   comparisonExpressionAnd  : propTest (AND propTest)*
//   propTest                 : objectPath NOT? (EQ | NEQ) primitiveLiteral
//                            | objectPath NOT? (GT | LT | GE | LE) orderableLiteral
//                            | objectPath NOT? IN setLiteral
//                            | objectPath NOT? (LIKE | MATCHES | ISSUBSET | ISSUPERSET) StringLiteral
//                            | '(' comparisonExpression ')' | EXISTS objectPath
//   objectPath               : objectType ':' firstPathComponent objectPathComponent*
//   objectPathComponent      : '.' (Identifier | StringLiteral) | '[' (IntPosLiteral | IntNegLiteral | '*') ']'
//   setLiteral               : '(' ')' | '(' primitiveLiteral (',' primitiveLiteral)* ')'

export class StixPatternError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at character ${position}`);
  }
}

type TokenKind =
  'keyword' | 'identifier' | 'string' | 'int' | 'float' | 'hex' | 'binary' | 'timestamp' | 'bool' | 'punct' | 'eof';

interface Token {
  kind: TokenKind;
  text: string;
  /** The literal's value: a string's unescaped text, a number, a boolean. */
  value?: string | number | boolean;
  position: number;
}

const KEYWORDS = new Set([
  'AND',
  'OR',
  'NOT',
  'FOLLOWEDBY',
  'LIKE',
  'MATCHES',
  'ISSUPERSET',
  'ISSUBSET',
  'EXISTS',
  'LAST',
  'IN',
  'START',
  'STOP',
  'SECONDS',
  'WITHIN',
  'REPEATS',
  'TIMES',
]);

const TIMESTAMP = /^t'\d{4}-(0[1-9]|1[012])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?Z'/;
const HEX = /^h'(?:[0-9a-fA-F]{2})*'/;
const BINARY = /^b'(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)'/;
const FLOAT = /^[+-]?\d*\.\d+/;
const INT = /^[+-]?(?:0|[1-9]\d*)/;
const IDENTIFIER = /^[a-zA-Z_][a-zA-Z0-9_-]*/;
const PUNCTUATION = ['==', '!=', '<>', '<=', '>=', '=', '<', '>', ':', '.', ',', '(', ')', '[', ']', '*'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const rest = source.slice(at);
    const space = /^(?:\s+|\/\*[\s\S]*?\*\/|\/\/[^\n]*)/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    const push = (kind: TokenKind, text: string, value?: Token['value']) => {
      tokens.push({ kind, text, value, position: at });
      at += text.length;
    };
    if (rest[0] === "'") {
      let end = 1;
      let value = '';
      while (end < rest.length && rest[end] !== "'") {
        if (rest[end] === '\\') {
          const next = rest[end + 1];
          if (next !== "'" && next !== '\\') throw new StixPatternError("Only \\' and \\\\ may be escaped", at + end);
          value += next;
          end += 2;
        } else {
          value += rest[end];
          end += 1;
        }
      }
      if (end >= rest.length) throw new StixPatternError('Unterminated string literal', at);
      push('string', rest.slice(0, end + 1), value);
      continue;
    }
    const literal =
      (TIMESTAMP.exec(rest) && { kind: 'timestamp' as const, match: TIMESTAMP.exec(rest)! }) ||
      (HEX.exec(rest) && { kind: 'hex' as const, match: HEX.exec(rest)! }) ||
      (BINARY.exec(rest) && { kind: 'binary' as const, match: BINARY.exec(rest)! });
    if (literal) {
      push(literal.kind, literal.match[0], literal.match[0].slice(2, -1));
      continue;
    }
    if (/^[tbh]'/.test(rest)) throw new StixPatternError(`Malformed ${rest[0]}'...' literal`, at);
    const float = FLOAT.exec(rest);
    if (float) {
      push('float', float[0], Number(float[0]));
      continue;
    }
    const int = INT.exec(rest);
    if (int && !/^[+-]?\d+[a-zA-Z_]/.test(rest)) {
      push('int', int[0], Number(int[0]));
      continue;
    }
    const identifier = IDENTIFIER.exec(rest);
    if (identifier) {
      const word = identifier[0];
      // Keywords are matched before identifiers, and never carry a hyphen.
      const bare = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(word)![0];
      if (KEYWORDS.has(bare)) push('keyword', bare);
      else if (bare === 'true' || bare === 'false') push('bool', bare, bare === 'true');
      else push('identifier', word);
      continue;
    }
    const punctuation = PUNCTUATION.find((candidate) => rest.startsWith(candidate));
    if (punctuation) {
      push('punct', punctuation);
      continue;
    }
    throw new StixPatternError(`Unexpected character ${JSON.stringify(rest[0])}`, at);
  }
  tokens.push({ kind: 'eof', text: '', position: source.length });
  return tokens;
}

export type Literal = { type: Exclude<TokenKind, 'keyword' | 'identifier' | 'punct' | 'eof'>; value: Token['value'] };

export interface ObjectPath {
  objectType: string;
  /** The property path after the colon: names, and list indexes (`*` for any). */
  steps: (string | number | '*')[];
}

export type Comparison =
  | { kind: 'and' | 'or'; operands: Comparison[] }
  | { kind: 'exists'; path: ObjectPath }
  | {
      kind: 'test';
      path: ObjectPath;
      negated: boolean;
      operator: '=' | '!=' | '<' | '<=' | '>' | '>=' | 'IN' | 'LIKE' | 'MATCHES' | 'ISSUBSET' | 'ISSUPERSET';
      value: Literal | Literal[];
    };

export type Qualifier =
  | { kind: 'within'; seconds: number }
  | { kind: 'repeats'; times: number }
  | { kind: 'start-stop'; start: string; stop: string };

export type Observation =
  | { kind: 'followedby' | 'or' | 'and'; operands: Observation[]; qualifiers: Qualifier[] }
  | { kind: 'observation'; comparison: Comparison; qualifiers: Qualifier[] };

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  private get token(): Token {
    return this.tokens[this.index]!;
  }

  private is(kind: TokenKind, text?: string): boolean {
    return this.token.kind === kind && (text === undefined || this.token.text === text);
  }

  private take(kind: TokenKind, text?: string): Token {
    if (!this.is(kind, text)) {
      const wanted = text ? `"${text}"` : `a ${kind}`;
      const found = this.token.kind === 'eof' ? 'the end' : `"${this.token.text}"`;
      throw new StixPatternError(`Expected ${wanted}, found ${found}`, this.token.position);
    }
    const token = this.token;
    this.index += 1;
    return token;
  }

  pattern(): Observation {
    const expression = this.observationExpressions();
    this.take('eof');
    return expression;
  }

  private binary(kind: 'followedby' | 'or' | 'and', keyword: string, operand: () => Observation): Observation {
    const operands = [operand()];
    while (this.is('keyword', keyword)) {
      this.index += 1;
      operands.push(operand());
    }
    return operands.length === 1 ? operands[0]! : { kind, operands, qualifiers: [] };
  }

  private observationExpressions(): Observation {
    return this.binary('followedby', 'FOLLOWEDBY', () => this.observationExpressionOr());
  }

  private observationExpressionOr(): Observation {
    return this.binary('or', 'OR', () => this.observationExpressionAnd());
  }

  private observationExpressionAnd(): Observation {
    return this.binary('and', 'AND', () => this.observationExpression());
  }

  private observationExpression(): Observation {
    let expression: Observation;
    if (this.is('punct', '[')) {
      this.index += 1;
      const comparison = this.comparisonExpression();
      this.take('punct', ']');
      expression = { kind: 'observation', comparison, qualifiers: [] };
    } else if (this.is('punct', '(')) {
      this.index += 1;
      const inner = this.observationExpressions();
      this.take('punct', ')');
      expression = { ...inner, qualifiers: [...inner.qualifiers] };
    } else {
      throw new StixPatternError(
        `An observation expression starts with "[" or "(", found "${this.token.text}"`,
        this.token.position,
      );
    }
    for (;;) {
      if (this.is('keyword', 'START')) {
        this.index += 1;
        const start = String(this.take('timestamp').value);
        this.take('keyword', 'STOP');
        expression.qualifiers.push({ kind: 'start-stop', start, stop: String(this.take('timestamp').value) });
      } else if (this.is('keyword', 'WITHIN')) {
        this.index += 1;
        const seconds = this.is('float') ? this.take('float') : this.take('int');
        if (Number(seconds.value) <= 0 || seconds.text.startsWith('-')) {
          throw new StixPatternError('WITHIN takes a positive number of seconds', seconds.position);
        }
        this.take('keyword', 'SECONDS');
        expression.qualifiers.push({ kind: 'within', seconds: Number(seconds.value) });
      } else if (this.is('keyword', 'REPEATS')) {
        this.index += 1;
        const times = this.take('int');
        if (times.text.startsWith('-')) throw new StixPatternError('REPEATS takes a positive integer', times.position);
        this.take('keyword', 'TIMES');
        expression.qualifiers.push({ kind: 'repeats', times: Number(times.value) });
      } else {
        return expression;
      }
    }
  }

  private comparisonExpression(): Comparison {
    const operands = [this.comparisonExpressionAnd()];
    while (this.is('keyword', 'OR')) {
      this.index += 1;
      operands.push(this.comparisonExpressionAnd());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands };
  }

  private comparisonExpressionAnd(): Comparison {
    const operands = [this.propTest()];
    while (this.is('keyword', 'AND')) {
      this.index += 1;
      operands.push(this.propTest());
    }
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands };
  }

  private propTest(): Comparison {
    if (this.is('punct', '(')) {
      this.index += 1;
      const inner = this.comparisonExpression();
      this.take('punct', ')');
      return inner;
    }
    if (this.is('keyword', 'EXISTS')) {
      this.index += 1;
      return { kind: 'exists', path: this.objectPath() };
    }
    const path = this.objectPath();
    const negated = this.is('keyword', 'NOT');
    if (negated) this.index += 1;
    const token = this.token;
    if (token.kind === 'punct' && ['=', '==', '!=', '<>'].includes(token.text)) {
      this.index += 1;
      const operator = token.text === '=' || token.text === '==' ? '=' : '!=';
      return { kind: 'test', path, negated, operator, value: this.primitiveLiteral() };
    }
    if (token.kind === 'punct' && ['<', '<=', '>', '>='].includes(token.text)) {
      this.index += 1;
      const operator = token.text as '<' | '<=' | '>' | '>=';
      return { kind: 'test', path, negated, operator, value: this.orderableLiteral() };
    }
    if (token.kind === 'keyword' && token.text === 'IN') {
      this.index += 1;
      return { kind: 'test', path, negated, operator: 'IN', value: this.setLiteral() };
    }
    if (token.kind === 'keyword' && ['LIKE', 'MATCHES', 'ISSUBSET', 'ISSUPERSET'].includes(token.text)) {
      this.index += 1;
      const value = this.take('string');
      return {
        kind: 'test',
        path,
        negated,
        operator: token.text as 'LIKE' | 'MATCHES' | 'ISSUBSET' | 'ISSUPERSET',
        value: { type: 'string', value: value.value },
      };
    }
    throw new StixPatternError(`Expected a comparison operator, found "${token.text}"`, token.position);
  }

  private objectPath(): ObjectPath {
    const objectType = this.take('identifier');
    if (!/^[a-z0-9-]+$/.test(objectType.text) || objectType.text.length < 3 || objectType.text.length > 250) {
      throw new StixPatternError(`"${objectType.text}" is not an object type`, objectType.position);
    }
    this.take('punct', ':');
    const steps: ObjectPath['steps'] = [this.pathName(true)];
    for (;;) {
      if (this.is('punct', '.')) {
        this.index += 1;
        steps.push(this.pathName(false));
      } else if (this.is('punct', '[')) {
        this.index += 1;
        if (this.is('punct', '*')) {
          this.index += 1;
          steps.push('*');
        } else {
          steps.push(Number(this.take('int').value));
        }
        this.take('punct', ']');
      } else {
        return { objectType: objectType.text, steps };
      }
    }
  }

  private pathName(first: boolean): string {
    if (this.is('string')) return String(this.take('string').value);
    const name = this.take('identifier');
    // A property name is an identifier without a hyphen; only the object type may carry one.
    if (name.text.includes('-')) {
      throw new StixPatternError(
        `${first ? 'The first path component' : 'A path component'} "${name.text}" has a hyphen: quote it`,
        name.position,
      );
    }
    return name.text;
  }

  private orderableLiteral(): Literal {
    const token = this.token;
    if (['int', 'float', 'string', 'binary', 'hex', 'timestamp'].includes(token.kind)) {
      this.index += 1;
      return { type: token.kind as Literal['type'], value: token.value };
    }
    throw new StixPatternError(`Expected a literal, found "${token.text}"`, token.position);
  }

  private primitiveLiteral(): Literal {
    if (this.is('bool')) return { type: 'bool', value: this.take('bool').value };
    return this.orderableLiteral();
  }

  private setLiteral(): Literal[] {
    this.take('punct', '(');
    const values: Literal[] = [];
    if (this.is('punct', ')')) {
      this.index += 1;
      return values;
    }
    values.push(this.primitiveLiteral());
    while (this.is('punct', ',')) {
      this.index += 1;
      values.push(this.primitiveLiteral());
    }
    this.take('punct', ')');
    return values;
  }
}

/** The parse tree of a STIX 2.1 pattern; throws StixPatternError where the pattern leaves the grammar. */
export function parseStixPattern(pattern: string): Observation {
  return new Parser(tokenize(pattern)).pattern();
}

/** Every comparison of a parsed pattern, in order: what the tests read the compared values from. */
export function comparisonsOf(observation: Observation): Extract<Comparison, { kind: 'test' }>[] {
  const found: Extract<Comparison, { kind: 'test' }>[] = [];
  const observations: Observation[] = [observation];
  while (observations.length > 0) {
    const next = observations.shift()!;
    if (next.kind !== 'observation') {
      observations.push(...next.operands);
      continue;
    }
    const comparisons: Comparison[] = [next.comparison];
    while (comparisons.length > 0) {
      const comparison = comparisons.shift()!;
      if (comparison.kind === 'test') found.push(comparison);
      else if (comparison.kind !== 'exists') comparisons.push(...comparison.operands);
    }
  }
  return found;
}
