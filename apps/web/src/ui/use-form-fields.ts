import { useState, type ChangeEvent } from 'react';
import type { z } from 'zod';

/**
 * A form's text values and per-field errors: `set(field)` updates a value and clears its error, `validate`
 * checks the values with the shared schema and shows its first message per field.
 */
export function useFormFields<Values extends Record<string, string>>(initial: Values) {
  type Field = keyof Values & string;
  const [values, setValues] = useState(initial);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});

  const set = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** The parsed values, or null after showing every field's first problem. */
  function validate<Schema extends z.ZodType>(schema: Schema): z.output<Schema> | null {
    const parsed = schema.safeParse(values);
    if (parsed.success) return parsed.data;
    const errors: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as Field] ??= issue.message;
    setFieldErrors(errors);
    return null;
  }

  return { values, setValues, fieldErrors, set, validate };
}
