import { SECOND_FACTOR_POLICIES, type SecondFactorPolicy } from '@tradecraft/shared';
import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconDeviceMobile, IconFingerprint, IconShieldLock } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useSession } from '../../../lib/session';
import {
  startTotpEnrolment,
  useAccountSecurity,
  useAddPasskey,
  useConfirmTotp,
  useRemoveFactor,
  useRenewRecoveryCodes,
  useSecondFactorPolicy,
  useSetSecondFactorPolicy,
} from '../api/security';
import { formatDateTime } from '../../../lib/dates';

const POLICY_LABELS: Record<SecondFactorPolicy, string> = {
  off: 'Off: each person decides',
  admins: 'Required for admins',
  everyone: 'Required for everyone',
};

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'never');

/** Recovery codes, shown this once. */
function RecoveryCodesModal({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Modal opened={codes !== null} onClose={onClose} title="Your recovery codes" size="md">
      <Stack>
        <Text size="sm">
          Each code signs you in once if you lose your authenticator or passkey. Keep them somewhere safe: they are
          shown only now.
        </Text>
        <SimpleGrid cols={2} spacing="xs" aria-label="Recovery codes" data-testid="recovery-codes">
          {(codes ?? []).map((code) => (
            <Code key={code} fz="md">
              {code}
            </Code>
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button onClick={onClose}>I have saved them</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TotpEnrolModal({
  opened,
  onClose,
  onEnrolled,
}: {
  opened: boolean;
  onClose: () => void;
  onEnrolled: (codes: string[] | null) => void;
}) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [label, setLabel] = useState('Authenticator app');
  const confirm = useConfirmTotp();
  useEffect(() => {
    if (!opened) return;
    let current = true;
    startTotpEnrolment().then(
      (started) => current && setEnrolment(started),
      (error: Error) => current && setStartError(error.message),
    );
    return () => {
      current = false;
    };
  }, [opened]);
  const close = () => {
    setEnrolment(null);
    setStartError(null);
    setCode('');
    confirm.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(
      { code, label },
      {
        onSuccess: (result) => {
          close();
          onEnrolled(result.recoveryCodes);
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={close} title="Add an authenticator app" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Scan the QR code with your authenticator app, then enter the 6-digit code it shows.</Text>
          {startError && <Alert color="red">{startError}</Alert>}
          {enrolment && (
            <>
              <Box
                role="img"
                aria-label="QR code for your authenticator app"
                w={200}
                h={200}
                mx="auto"
                bg="white"
                style={{ borderRadius: 8 }}
                dangerouslySetInnerHTML={{ __html: enrolment.qrSvg }}
              />
              <Text size="sm" ta="center">
                Or enter this key by hand: <Code data-testid="totp-secret">{enrolment.secret}</Code>
              </Text>
            </>
          )}
          {confirm.error && (
            <Alert color="red" role="alert">
              {confirm.error.message}
            </Alert>
          )}
          <TextInput label="Name" value={label} onChange={(event) => setLabel(event.currentTarget.value)} required />
          <TextInput
            label="6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={confirm.isPending} disabled={!enrolment || !code.trim()}>
              Add app
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function PasskeyModal({
  opened,
  onClose,
  onEnrolled,
}: {
  opened: boolean;
  onClose: () => void;
  onEnrolled: (codes: string[] | null) => void;
}) {
  const [label, setLabel] = useState('Passkey');
  const add = useAddPasskey();
  const close = () => {
    add.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(label, {
      onSuccess: (result) => {
        close();
        onEnrolled(result.recoveryCodes);
      },
    });
  };
  return (
    <Modal opened={opened} onClose={close} title="Add a passkey" size="md">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Your browser asks your device (fingerprint, face, PIN or security key) to create it.</Text>
          {add.error && (
            <Alert color="red" role="alert">
              {add.error.name === 'NotAllowedError' ? 'The passkey was not created.' : add.error.message}
            </Alert>
          )}
          <TextInput label="Name" value={label} onChange={(event) => setLabel(event.currentTarget.value)} required />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending} disabled={!label.trim()}>
              Create passkey
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Settings › Two-step sign-in: the person's factors, recovery codes, and (admins) the platform policy. */
export function SecondFactorSection() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const security = useAccountSecurity();
  const remove = useRemoveFactor();
  const renew = useRenewRecoveryCodes();
  const [adding, setAdding] = useState<'totp' | 'passkey' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const factors = security.data?.factors ?? [];
  const showCodes = (next: string[] | null) => setCodes(next);

  return (
    <Stack gap="md" id="second-factor">
      {security.data && factors.length === 0 && (security.data.required || isAdmin) && (
        <Alert color={security.data.required ? 'red' : 'yellow'} icon={<IconAlertTriangle />} role="status">
          {security.data.required
            ? 'Your organisation requires a second factor. Add an authenticator app or a passkey now.'
            : 'Admins hold the keys to everyone’s training: we recommend you add a second factor.'}
        </Alert>
      )}
      {factors.length > 0 ? (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your second factors">
          {factors.map((factor) => (
            <Group key={factor.id} component="li" justify="space-between" wrap="wrap" gap="xs">
              <Group gap="sm" wrap="nowrap">
                {factor.kind === 'passkey' ? (
                  <IconFingerprint size={20} aria-hidden />
                ) : (
                  <IconDeviceMobile size={20} aria-hidden />
                )}
                <div>
                  <Text fw={500}>
                    {factor.label}{' '}
                    <Badge variant="light" size="sm">
                      {factor.kind === 'passkey' ? 'Passkey' : 'Authenticator app'}
                    </Badge>
                  </Text>
                  <Text size="xs" c="dimmed">
                    Added {when(factor.createdAt)} · last used {when(factor.lastUsedAt)}
                  </Text>
                </div>
              </Group>
              <Button
                variant="subtle"
                color="red"
                size="xs"
                onClick={() => remove.mutate(factor.id)}
                aria-label={`Remove ${factor.label}`}
              >
                Remove
              </Button>
            </Group>
          ))}
        </Stack>
      ) : (
        <Text size="sm">No second factor yet: signing in needs your password only.</Text>
      )}
      <Group gap="sm">
        <Button
          leftSection={<IconDeviceMobile size={18} aria-hidden />}
          variant="default"
          onClick={() => setAdding('totp')}
        >
          Add authenticator app
        </Button>
        <Button
          leftSection={<IconFingerprint size={18} aria-hidden />}
          variant="default"
          onClick={() => setAdding('passkey')}
        >
          Add passkey
        </Button>
      </Group>
      {factors.length > 0 && security.data && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            <IconShieldLock size={16} aria-hidden style={{ verticalAlign: 'text-bottom' }} />{' '}
            {security.data.recoveryCodesLeft} of 10 recovery codes left
          </Text>
          <Button
            variant="subtle"
            size="xs"
            onClick={() => renew.mutate(undefined, { onSuccess: (r) => showCodes(r.recoveryCodes) })}
          >
            New recovery codes
          </Button>
        </Group>
      )}
      {isAdmin && <PolicySelect />}
      <TotpEnrolModal opened={adding === 'totp'} onClose={() => setAdding(null)} onEnrolled={showCodes} />
      <PasskeyModal opened={adding === 'passkey'} onClose={() => setAdding(null)} onEnrolled={showCodes} />
      <RecoveryCodesModal codes={codes} onClose={() => setCodes(null)} />
    </Stack>
  );
}

function PolicySelect() {
  const policy = useSecondFactorPolicy(true);
  const setPolicy = useSetSecondFactorPolicy();
  return (
    <Select
      label="Second factor for this platform (admins)"
      description="Off by default. When required, people without one are asked to add one right after signing in."
      data={SECOND_FACTOR_POLICIES.map((value) => ({ value, label: POLICY_LABELS[value] }))}
      value={policy.data?.policy ?? null}
      onChange={(value) => value && setPolicy.mutate(value as SecondFactorPolicy)}
      allowDeselect={false}
      maw={360}
    />
  );
}
