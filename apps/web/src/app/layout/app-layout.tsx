import { hasRole } from '@tradecraft/shared';
import {
  ActionIcon,
  Anchor,
  AppShell,
  Box,
  Burger,
  Group,
  NavLink,
  ScrollArea,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  IconActivity,
  IconAdjustments,
  IconKey,
  IconChartBar,
  IconClipboardList,
  IconFileUpload,
  IconHelpCircle,
  IconLayoutDashboard,
  IconListCheck,
  IconMail,
  IconSettings,
  IconShieldLock,
  IconTarget,
  IconTimeline,
  IconUserCheck,
  IconUsers,
  IconUsersGroup,
  IconWriting,
  type Icon,
} from '@tabler/icons-react';
import { useEffect, type MouseEvent, type ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { avatarInitials, UserAvatar } from '../../features/profile/components/user-avatar';
import { paths } from '../../lib/paths';
import classes from './app-layout.module.css';
import { LiveClock } from './live-clock';
import { LogoutButton } from './logout-button';

interface NavItem {
  to: string;
  label: string;
  icon: Icon;
}

const MAIN_NAV: NavItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: IconLayoutDashboard },
  { to: paths.scenarios, label: 'Scenarios', icon: IconTarget },
  { to: paths.skills, label: 'ATT&CK Skill Map', icon: IconTimeline },
];

const ADMIN_NAV: NavItem[] = [
  { to: paths.manageUsers, label: 'Manage Users', icon: IconUsers },
  { to: paths.pendingUsers, label: 'Pending Approvals', icon: IconUserCheck },
  { to: paths.monitoring, label: 'User Monitoring', icon: IconActivity },
  { to: paths.auditLog, label: 'Audit Log', icon: IconClipboardList },
  { to: paths.trainingProgress, label: 'Training Progress', icon: IconChartBar },
  { to: paths.reviews, label: 'Review Queue', icon: IconWriting },
  { to: paths.scenarioConfig, label: 'Scenario Configurator', icon: IconListCheck },
  { to: paths.difficulty, label: 'Difficulty Adjuster', icon: IconAdjustments },
  { to: paths.apiTokens, label: 'API Tokens', icon: IconKey },
  { to: paths.cohorts, label: 'Cohorts', icon: IconUsersGroup },
];

const TOP_LINKS: NavItem[] = [
  { to: paths.help, label: 'Help & FAQ', icon: IconHelpCircle },
  { to: paths.contact, label: 'Contact Us', icon: IconMail },
  { to: paths.settings, label: 'Settings', icon: IconSettings },
];

const NAVBAR_ID = 'main-navigation';
const MAIN_ID = 'main-content';

function SideLink({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const active = pathname === item.to;
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={18} stroke={1.6} aria-hidden />}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

/** An icon link of the top bar, named for screen readers, with its name as a tooltip on hover and focus. */
function TopLink({
  item,
  name = item.label,
  children,
}: {
  item: Omit<NavItem, 'icon'>;
  name?: string;
  children: ReactNode;
}) {
  const { pathname } = useLocation();
  const active = pathname === item.to;
  return (
    <Tooltip label={item.label} events={{ hover: true, focus: true, touch: false }}>
      <ActionIcon
        component={Link}
        to={item.to}
        variant={active ? 'light' : 'subtle'}
        color={active ? 'accent' : 'gray'}
        size="lg"
        aria-label={name}
        aria-current={active ? 'page' : undefined}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** Moves focus to the page content, past the top bar and the sidebar. */
function skipToContent(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  const main = document.getElementById(MAIN_ID);
  main?.focus();
  main?.scrollIntoView();
}

/** The frame of every signed-in screen: sidebar (open at 640 px and wider), top bar, and the page. */
export function AppLayout() {
  const wide = useMediaQuery('(min-width: 40em)', true, { getInitialValueInEffect: false });
  const [opened, { toggle, close, open }] = useDisclosure(wide);
  const { user } = useSession();
  const isAdmin = hasRole(user?.role, 'admin');
  const initials = user ? avatarInitials(user) : '';
  const profileLinkName = initials ? `My Profile (${initials})` : 'My Profile';

  useEffect(() => {
    if (wide) open();
    else close();
  }, [wide, open, close]);

  const closeOnNarrow = () => {
    if (!wide) close();
  };

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !opened } }}
      padding="md"
    >
      <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skipToContent}>
        Skip to content
      </a>
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls={NAVBAR_ID}
            />
            <Anchor component={Link} to={paths.home} underline="never" c="inherit">
              <Group gap={6} wrap="nowrap">
                <IconShieldLock size={22} aria-hidden />
                <Text fw={700} visibleFrom="xs">
                  Tradecraft
                </Text>
                <VisuallyHidden>Tradecraft home</VisuallyHidden>
              </Group>
            </Anchor>
          </Group>
          <Group gap={4} wrap="nowrap">
            <LiveClock />
            {TOP_LINKS.map((item) => (
              <TopLink key={item.to} item={item}>
                <item.icon size={20} stroke={1.6} aria-hidden />
              </TopLink>
            ))}
            {/* The initials written on the link are part of its name too (WCAG 2.5.3, label in name). */}
            <TopLink item={{ to: paths.profile, label: 'My Profile' }} name={profileLinkName}>
              {user ? <UserAvatar user={user} size={28} /> : null}
            </TopLink>
            <NotificationBell />
            <LogoutButton />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar
        id={NAVBAR_ID}
        p="xs"
        aria-label="Main navigation"
        className={classes.navbar}
        mod={{ closed: !opened }}
        inert={!opened}
      >
        <ScrollArea>
          {MAIN_NAV.map((item) => (
            <SideLink key={item.to} item={item} onNavigate={closeOnNarrow} />
          ))}
          {isAdmin && (
            <>
              <SideLink
                item={{ to: paths.admin, label: 'Admin Panel', icon: IconShieldLock }}
                onNavigate={closeOnNarrow}
              />
              <Box pl="md" role="group" aria-label="Admin Panel">
                {ADMIN_NAV.map((item) => (
                  <SideLink key={item.to} item={item} onNavigate={closeOnNarrow} />
                ))}
              </Box>
              <SideLink
                item={{ to: paths.upload, label: 'Upload Scenario', icon: IconFileUpload }}
                onNavigate={closeOnNarrow}
              />
            </>
          )}
        </ScrollArea>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_ID} tabIndex={-1} className={classes.main}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
