import { Box, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** The sign-in and registration frame: the pitch beside the form (stacked on narrow screens). */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="main" mih="100dvh" p={{ base: 'md', sm: 'xl' }} style={{ display: 'grid', placeItems: 'center' }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" maw={980} w="100%">
        <Stack justify="center" gap="md">
          <Group gap="xs">
            <ThemeIcon size="lg" radius="md" variant="filled">
              <IconShieldLock size={20} />
            </ThemeIcon>
            <Text fw={800} fz="xl">
              Tradecraft
            </Text>
          </Group>
          <Title order={2} fz={{ base: 24, sm: 30 }}>
            Train like a real analyst.
          </Title>
          <Text c="dimmed">
            Work branching cases built from real threat reports, dark-web chatter and intel feeds. Every decision gets
            immediate feedback, a score and its MITRE ATT&amp;CK technique.
          </Text>
          <List
            spacing={6}
            size="sm"
            icon={
              <ThemeIcon size={20} radius="xl" variant="light">
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            <List.Item>Triage, enrich, attribute, contain and report, step by step</List.Item>
            <List.Item>After-action reports and an ATT&amp;CK skill map of what you have mastered</List.Item>
            <List.Item>Team leads follow every analyst&apos;s progress</List.Item>
          </List>
        </Stack>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          <Title order={1} fz={26} mb="md">
            {title}
          </Title>
          {children}
        </Paper>
      </SimpleGrid>
    </Box>
  );
}
