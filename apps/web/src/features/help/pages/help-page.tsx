import { ATTACK_NOTICE, ATTACK_VERSION } from '@tradecraft/shared/attack';
import { Accordion, Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { FAQ } from '../content/faq';

export default function HelpPage() {
  return (
    <Stack gap="lg" maw={860}>
      <div>
        <Title order={1}>Help &amp; FAQ</Title>
        <Text c="dimmed">Answers to the questions people ask most about Tradecraft. Select a question to open it.</Text>
      </div>

      <section aria-labelledby="faq-heading">
        <Title order={2} size="h3" id="faq-heading" mb="sm">
          Frequently asked questions
        </Title>
        <Accordion multiple variant="separated" order={3} chevronPosition="right">
          {FAQ.map((entry) => (
            <Accordion.Item key={entry.id} value={entry.id}>
              <Accordion.Control>{entry.question}</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="xs">
                  {entry.answer.map((paragraph) => (
                    <Text key={paragraph} size="sm">
                      {paragraph}
                    </Text>
                  ))}
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </section>

      <Paper component="section" withBorder p={{ base: 'md', sm: 'lg' }} radius="md" aria-labelledby="attack-heading">
        <Stack gap="xs">
          <Title order={2} size="h4" id="attack-heading">
            About MITRE ATT&amp;CK
          </Title>
          <Text size="sm">
            Scenario steps are mapped to MITRE ATT&amp;CK® Enterprise, release {ATTACK_VERSION}, which ships with the
            range. ATT&amp;CK® is a registered trademark of The MITRE Corporation.
          </Text>
          <Text size="sm" c="dimmed">
            {ATTACK_NOTICE}
          </Text>
          <Text size="sm">
            <Anchor href="/ATTACK-LICENSE.txt" target="_blank" rel="noopener">
              Read the ATT&amp;CK licence
            </Anchor>
            {' · '}
            <Anchor href="https://attack.mitre.org/" target="_blank" rel="noopener noreferrer">
              attack.mitre.org
              <IconExternalLink
                size={14}
                aria-label="(opens in a new tab)"
                style={{ marginLeft: 2, verticalAlign: 'text-top' }}
              />
            </Anchor>
          </Text>
        </Stack>
      </Paper>

      <Text size="sm">
        Did not find your answer?{' '}
        <Anchor component={Link} to={paths.contact}>
          Contact us
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
