import {
  Button,
  ColorSwatch,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconKey, IconMoon, IconPalette } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { usePreferences } from '../../../ui/preferences';
import { ACCENT_ORDER, ACCENTS, type Accent } from '../../../ui/theme';
import { ReauthenticateDialog } from '../components/reauthenticate-dialog';
import { MailNoticesSwitch } from '../components/mail-notices-switch';
import { ResetPasswordDialog } from '../components/reset-password-dialog';
import { SecondFactorSection } from '../components/second-factor-section';
import { SessionsSection } from '../components/sessions-section';

const ACCENT_NAMES: Record<Accent, string> = { cyan: 'Cyan', teal: 'Teal', purple: 'Purple' };

function nextAccent(accent: Accent): Accent {
  return ACCENT_ORDER[(ACCENT_ORDER.indexOf(accent) + 1) % ACCENT_ORDER.length]!;
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

export default function SettingsPage() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const { accent, cycleAccent } = usePreferences();
  const [passwordOpened, password] = useDisclosure(false);

  return (
    <Stack gap="lg" maw={720}>
      <div>
        <Title order={1}>Settings</Title>
        <Text c="dimmed">
          How Tradecraft looks in this browser, your password, two-step sign-in, sessions and mail.
        </Text>
      </div>

      <Section title="Appearance" description="Kept in this browser and applied to every screen at once.">
        <Switch
          checked={scheme === 'dark'}
          onChange={(event) => setColorScheme(event.currentTarget.checked ? 'dark' : 'light')}
          size="md"
          labelPosition="left"
          label={
            <Group gap="sm" wrap="nowrap" component="span">
              <IconMoon size={20} aria-hidden style={{ flexShrink: 0 }} />
              Dark mode
            </Group>
          }
          description="Light text on a dark background, easier on the eyes at night."
          styles={{ body: { justifyContent: 'space-between' }, description: { paddingInlineStart: 32 } }}
        />
        <Group justify="space-between" wrap="wrap" align="flex-start" gap="sm">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <IconPalette size={20} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />
            <div>
              <Text fw={500}>Accent colour</Text>
              <Text size="sm" c="dimmed">
                Cycles cyan, teal and purple. Now {ACCENT_NAMES[accent]}; next {ACCENT_NAMES[nextAccent(accent)]}.
              </Text>
            </div>
          </Group>
          <Button
            variant="default"
            onClick={cycleAccent}
            leftSection={<ColorSwatch color={ACCENTS[accent]} size={18} data-testid="accent-swatch" aria-hidden />}
            aria-label={`Accent colour: ${ACCENT_NAMES[accent]}. Change to ${ACCENT_NAMES[nextAccent(accent)]}`}
          >
            {ACCENT_NAMES[accent]}
          </Button>
        </Group>
      </Section>

      <Section title="Security" description="Your password must meet the same rule as at registration.">
        <Group>
          <Button leftSection={<IconKey size={18} aria-hidden />} onClick={password.open}>
            Reset Password
          </Button>
        </Group>
      </Section>

      <Section
        title="Two-step sign-in"
        description="After your password, sign-in asks for a passkey or a code from an authenticator app."
      >
        <SecondFactorSection />
      </Section>

      <Section title="Sessions" description="Where you are signed in. End any session you do not recognise.">
        <SessionsSection />
      </Section>

      <Section title="Mail" description="What comes to your email address besides the bell.">
        <MailNoticesSwitch />
      </Section>

      <ResetPasswordDialog opened={passwordOpened} onClose={password.close} />
      <ReauthenticateDialog />
    </Stack>
  );
}
