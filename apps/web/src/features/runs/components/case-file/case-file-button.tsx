import { ActionIcon, Button, Drawer, Group, Loader, Portal, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconFolderOpen, IconX } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { CaseFileTab } from './case-file-panel';
import classes from './case-file.module.css';

// The case file's code loads when it first opens: the player's first screen does not wait for it.
const CaseFilePanel = lazy(() => import('./case-file-panel'));

function Loading() {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" aria-hidden />
      <Text size="sm">Loading the case file...</Text>
    </Group>
  );
}

/**
 * 'Case file' in the player's header: every artifact met so far in this run, the evidence board and the notebook.
 * On a wide screen it docks beside the step and leaves the decision in reach (a panel, not a dialog); on a phone it
 * is a full-screen drawer.
 */
export function CaseFileButton({ runId }: { runId: string }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const wide = useMediaQuery('(min-width: 62em)');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [tab, setTab] = useState<CaseFileTab>('artifacts');
  const panel = (
    <Suspense fallback={<Loading />}>
      <CaseFilePanel runId={runId} tab={tab} onTabChange={setTab} />
    </Suspense>
  );
  const closeAndReturn = () => {
    close();
    buttonRef.current?.focus();
  };
  return (
    <>
      <Button
        ref={buttonRef}
        variant={opened ? 'light' : 'default'}
        leftSection={<IconFolderOpen size={18} aria-hidden />}
        aria-expanded={opened}
        onClick={toggle}
        px="sm"
      >
        Case file
      </Button>
      {wide && opened && <SidePanel onClose={closeAndReturn}>{panel}</SidePanel>}
      {/* Always rendered: when the window widens, the drawer closes through its own transition and the side panel takes over. */}
      <Drawer.Root opened={opened && !wide} onClose={close} position="right" size="100%">
        <Drawer.Overlay />
        <Drawer.Content>
          {/* A plain header: a <header> here would count as a second banner of the page. */}
          <Drawer.Header component="div">
            <Drawer.Title>Case file</Drawer.Title>
            <Drawer.CloseButton aria-label="Close the case file" />
          </Drawer.Header>
          <Drawer.Body>{panel}</Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
    </>
  );
}

/** The case file docked beside the step: the page stays usable, Escape or Close puts it away. */
function SidePanel({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Portal>
      <section
        className={classes.sidePanel}
        aria-labelledby={headingId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <div className={classes.sidePanelHeader}>
          <Title order={2} size="h4" id={headingId} ref={headingRef} tabIndex={-1}>
            Case file
          </Title>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Close the case file" onClick={onClose}>
            <IconX size={18} aria-hidden />
          </ActionIcon>
        </div>
        <div className={classes.sidePanelBody}>{children}</div>
      </section>
    </Portal>
  );
}
