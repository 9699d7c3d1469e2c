import { AUTH_MESSAGES, PASSWORD_RULE_MESSAGE, meetsPasswordRule, registerInputSchema } from '@tradecraft/shared';
import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { useFormFields } from '../../../ui/use-form-fields';
import { useRegister } from '../api/register';
import { AuthFrame } from '../components/auth-frame';
import { PasswordStrengthBar } from '../../../ui/password-strength-bar';

const EMPTY = { firstName: '', lastName: '', designation: '', email: '', password: '' };

export default function RegisterPage() {
  const { values, fieldErrors, set, validate } = useFormFields(EMPTY);
  const register = useRegister();
  const navigate = useNavigate();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = validate(registerInputSchema);
    if (!input) return;
    register.mutate(input, {
      onSuccess: () => void navigate(paths.login, { state: { registered: true } }),
    });
  };

  const passwordProblem = values.password && !meetsPasswordRule(values.password) ? PASSWORD_RULE_MESSAGE : undefined;

  return (
    <AuthFrame title="Create your account">
      <form onSubmit={submit} noValidate>
        <Stack>
          {register.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert">
              {register.error.message.startsWith(AUTH_MESSAGES.registrationFailedPrefix)
                ? register.error.message
                : AUTH_MESSAGES.registrationFailedPrefix + register.error.message}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label="First name"
              required
              autoComplete="given-name"
              value={values.firstName}
              onChange={set('firstName')}
              error={fieldErrors.firstName}
            />
            <TextInput
              label="Last name"
              required
              autoComplete="family-name"
              value={values.lastName}
              onChange={set('lastName')}
              error={fieldErrors.lastName}
            />
          </SimpleGrid>
          <TextInput
            label="Designation"
            description="Optional, e.g. SOC Analyst L1"
            autoComplete="organization-title"
            value={values.designation}
            onChange={set('designation')}
            error={fieldErrors.designation}
          />
          <TextInput
            label="Email"
            type="email"
            required
            autoComplete="email"
            value={values.email}
            onChange={set('email')}
            error={fieldErrors.email}
          />
          <div>
            <PasswordInput
              label="Password"
              required
              autoComplete="new-password"
              value={values.password}
              onChange={set('password')}
              error={fieldErrors.password ?? passwordProblem}
            />
            <PasswordStrengthBar password={values.password} />
          </div>
          <Button type="submit" loading={register.isPending}>
            Register
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}
