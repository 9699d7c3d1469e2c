/** A problem as the scenario checker reports one (its ScenarioProblem). */
interface ScenarioProblem {
  path: string;
  message: string;
}

// NUL and the other C0 and C1 control characters (and DEL) have no place in a scenario's text: PostgreSQL refuses
// NUL in text outright, and the others hide in a list or a title. Tab and line feed are how text is laid out, and
// a carriage return before a line feed is how some editors end lines, so those stay.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

/** Where a value sits: its key and its parent's place, so no path is built until a problem needs one. */
interface Place {
  key: string | number;
  parent: Place | undefined;
}

function pathOf(place: Place | undefined): string {
  const keys: (string | number)[] = [];
  for (let at = place; at; at = at.parent) keys.push(at.key);
  let path = '';
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    const key = keys[index]!;
    path = typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
  }
  return path || '(file)';
}

function describe(character: string): string {
  const code = character.codePointAt(0)!;
  return code === 0 ? 'a NUL character' : `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * Every text field of a parsed scenario (a value, or an object key) that holds a control character other than
 * tab and newline, as problems. An explicit stack, so a deeply nested value cannot overflow the walk.
 */
export function controlCharacterProblems(value: unknown): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const stack: { value: unknown; place: Place | undefined }[] = [{ value, place: undefined }];
  while (stack.length > 0) {
    const { value: current, place } = stack.pop()!;
    if (typeof current === 'string') {
      const found = CONTROL.exec(current);
      if (found) {
        problems.push({
          path: pathOf(place),
          message: `contains ${describe(found[0])}; text may hold tabs and line breaks but no other control characters`,
        });
      }
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        stack.push({ value: current[index], place: { key: index, parent: place } });
      }
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, inner] = entries[index]!;
        const found = CONTROL.exec(key);
        if (found) problems.push({ path: pathOf(place), message: `has a field name with ${describe(found[0])}` });
        stack.push({ value: inner, place: { key, parent: place } });
      }
    }
  }
  return problems;
}
