import { PasswordInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { PasswordStrengthBar } from './password-strength-bar';

type Field = 'newPassword' | 'confirmPassword';

export interface NewPasswordFieldsProps {
  values: Record<Field, string>;
  errors: Partial<Record<Field, string>>;
  /** useFormFields' `set`: the change handler of a field. */
  set(field: Field): (event: ChangeEvent<HTMLInputElement>) => void;
  labels?: Record<Field, string>;
}

/** A new password with its strength bar, and its confirmation: the fields of every password change. */
export function NewPasswordFields({
  values,
  errors,
  set,
  labels = { newPassword: 'New Password', confirmPassword: 'Confirm New Password' },
}: NewPasswordFieldsProps) {
  return (
    <>
      <div>
        <PasswordInput
          label={labels.newPassword}
          required
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          error={errors.newPassword}
        />
        <PasswordStrengthBar password={values.newPassword} />
      </div>
      <PasswordInput
        label={labels.confirmPassword}
        required
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={set('confirmPassword')}
        error={errors.confirmPassword}
      />
    </>
  );
}
