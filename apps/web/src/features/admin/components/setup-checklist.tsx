import type { SetupItem } from '@tradecraft/shared';
import { Alert, Anchor, Button, Card, Group, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed, IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { useDismissSetupItem } from '../api/dismiss-setup-item';
import { useSetupChecklist } from '../api/get-setup-checklist';

interface Step {
  title: string;
  what: string;
  /** Where to do it: a screen of the product, or (for the server's environment) the configuration guide. */
  action: { label: string; to: string } | { label: string; guide: true };
}

const STEPS: Record<SetupItem, Step> = {
  passwordChanged: {
    title: 'Change your password',
    what: 'A password of your own, not one from a console or a configuration file.',
    action: { label: 'Open Settings', to: paths.settings },
  },
  publicOriginSet: {
    title: 'Set the public address',
    what: 'PUBLIC_ORIGIN tells the server the address people open (say https://range.example.org); then restart it.',
    action: { label: 'Read the configuration guide', guide: true },
  },
  traineeApproved: {
    title: 'Approve your first trainee',
    what: 'Trainees register themselves; each waits in Pending Approvals until an admin lets them in.',
    action: { label: 'Open Pending Approvals', to: paths.pendingUsers },
  },
  difficultyChosen: {
    title: 'Choose the platform difficulty',
    what: 'The scenario picker recommends scenarios of this difficulty to every trainee.',
    action: { label: 'Open Difficulty Adjuster', to: paths.difficulty },
  },
  scenarioUploaded: {
    title: 'Upload a scenario of your own',
    what: 'The built-in library is a start; a case from your own reporting teaches your team most.',
    action: { label: 'Open Upload', to: paths.upload },
  },
};

/**
 * The first admin's setup steps, on the dashboard until each is done or dismissed (dismissals are kept on the
 * server, for every admin). Done steps stay ticked while others remain, so the progress reads right.
 */
export function SetupChecklist() {
  const checklist = useSetupChecklist();
  const dismiss = useDismissSetupItem();
  const data = checklist.data;
  if (!data) return null;
  const shown = data.items.filter((item) => !item.dismissed);
  if (shown.every((item) => item.done)) return null;
  const doneCount = data.items.filter((item) => item.done).length;

  return (
    <Card withBorder padding="lg" radius="md" component="section" aria-labelledby="setup-checklist-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="setup-checklist-title">
            Set up Tradecraft
          </Title>
          <Text size="sm" c="dimmed">
            A few first steps for a new range. The list goes once each is done; dismiss any you do not need.
          </Text>
        </div>
        <Group gap="sm" wrap="nowrap">
          <Progress
            value={(doneCount / data.items.length) * 100}
            aria-label={`${doneCount} of ${data.items.length} setup steps done`}
            size="sm"
            style={{ flex: 1 }}
          />
          <Text size="sm" className="tabular-nums">
            {doneCount} of {data.items.length} done
          </Text>
        </Group>
        {dismiss.error && (
          <Alert color="red" role="alert">
            {dismiss.error.message}
          </Alert>
        )}
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {shown.map((item) => {
            const step = STEPS[item.id];
            return (
              <Group key={item.id} component="li" align="flex-start" wrap="nowrap" gap="sm">
                <ThemeIcon
                  variant={item.done ? 'filled' : 'light'}
                  color={item.done ? 'green' : 'gray'}
                  radius="xl"
                  size={26}
                  aria-hidden
                >
                  {item.done ? <IconCheck size={16} /> : <IconCircleDashed size={16} />}
                </ThemeIcon>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {step.title}
                    {item.done && (
                      <Text span c="green" size="sm" fw={600}>
                        {' '}
                        · Done
                      </Text>
                    )}
                  </Text>
                  {!item.done && (
                    <>
                      <Text size="sm" c="dimmed">
                        {step.what}
                      </Text>
                      <Group gap="md">
                        {'to' in step.action ? (
                          <Anchor component={Link} to={step.action.to} size="sm" fw={600}>
                            {step.action.label}
                          </Anchor>
                        ) : (
                          <Anchor href={data.configurationGuideUrl} target="_blank" rel="noreferrer" size="sm" fw={600}>
                            {step.action.label}{' '}
                            <IconExternalLink size={14} aria-label="(opens in a new tab)" role="img" />
                          </Anchor>
                        )}
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="gray"
                          loading={dismiss.isPending && dismiss.variables === item.id}
                          onClick={() => dismiss.mutate(item.id)}
                          aria-label={`Dismiss: ${step.title}`}
                        >
                          Dismiss
                        </Button>
                      </Group>
                    </>
                  )}
                </Stack>
              </Group>
            );
          })}
        </Stack>
      </Stack>
    </Card>
  );
}
