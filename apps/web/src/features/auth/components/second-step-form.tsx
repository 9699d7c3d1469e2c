import { Alert, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconFingerprint } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useSecondStep } from '../api/login';

type Method = 'totp' | 'passkey' | 'recovery';

/** After the right password: a passkey, a code from the authenticator app, or a recovery code. */
export function SecondStepForm({ methods, onSignedIn }: { methods: Method[]; onSignedIn: () => void }) {
  const [code, setCode] = useState('');
  const secondStep = useSecondStep();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    secondStep.mutate({ code }, { onSuccess: onSignedIn });
  };
  const error =
    secondStep.error && secondStep.error.name === 'NotAllowedError'
      ? 'The passkey was not used. Try again or enter a code instead.'
      : secondStep.error?.message;
  return (
    <Stack>
      <Text>Your account has a second factor. Confirm it is you to finish signing in.</Text>
      {error && (
        <Alert color="red" icon={<IconAlertCircle />} role="alert">
          {error}
        </Alert>
      )}
      {methods.includes('passkey') && (
        <>
          <Button
            leftSection={<IconFingerprint size={18} aria-hidden />}
            onClick={() => secondStep.mutate({ passkey: true }, { onSuccess: onSignedIn })}
            loading={secondStep.isPending}
          >
            Use your passkey
          </Button>
          <Divider label="or" labelPosition="center" />
        </>
      )}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={methods.includes('totp') ? 'Code from your authenticator app, or a recovery code' : 'Recovery code'}
            autoComplete="one-time-code"
            inputMode={methods.includes('totp') ? 'numeric' : 'text'}
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          <Button type="submit" variant={methods.includes('passkey') ? 'default' : 'filled'} disabled={!code.trim()}>
            Verify
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
