import {
  formatCredit,
  hasRole,
  skillColor,
  skillComment,
  skillLevel,
  SKILL_SCALE_COLORS,
  type Skills,
  type TechniqueSkill,
} from '@tradecraft/shared';
import { ATTACK_NOTICE, tactics } from '@tradecraft/shared/attack';
import {
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Switch,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink, IconTargetArrow } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { skillsLayerUrl, useSkills, type SkillsScope } from '../api/get-skills';
import { useUserSearch } from '../api/search-users';
import { AnalystSkillsTable } from '../../../ui/analyst-skills-table';
import { DownloadButton } from '../../../ui/download-button';
import { LoadError } from '../../../ui/load-error';
import { AnalystSkillsChart } from '../components/analyst-skills';
import { CalibrationPanel } from '../components/calibration-panel';
import classes from './skill-map-page.module.css';

const NAVIGATOR_URL = 'https://mitre-attack.github.io/attack-navigator/';
const ME = 'me';
const ALL = 'all';

function scopeFromValue(value: string): SkillsScope {
  if (value === ME) return { kind: 'me' };
  if (value === ALL) return { kind: 'all' };
  return { kind: 'user', userId: value };
}

/** Admins choose whose map: their own, everyone together, or a trainee found by name or email. */
function ScopePicker({
  value,
  currentLabel,
  onChange,
}: {
  value: string;
  currentLabel: string;
  onChange: (value: string, label: string) => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [chosenLabel, setChosenLabel] = useState<Record<string, string>>({});
  const users = useUserSearch(debounced, true);
  const data = useMemo(() => {
    const found = (users.data?.items ?? []).map((user) => ({
      value: user.id,
      label: `${`${user.firstName} ${user.lastName}`.trim()} (${user.email})`,
    }));
    const fixed = [
      { value: ME, label: 'My own skills' },
      { value: ALL, label: 'Everyone together' },
    ];
    const current =
      value !== ME &&
      value !== ALL &&
      !found.some((option) => option.value === value) &&
      (chosenLabel[value] ?? currentLabel);
    return [...fixed, ...(current ? [{ value, label: current }] : []), ...found];
  }, [users.data, value, chosenLabel, currentLabel]);

  return (
    <Select
      label="Whose skills"
      description="Search trainees by name or email"
      searchable
      w={{ base: '100%', sm: 380 }}
      data={data}
      value={value}
      allowDeselect={false}
      nothingFoundMessage={users.isFetching ? 'Searching...' : 'No user matches'}
      onSearchChange={setSearch}
      // The server has already filtered by the search text; show what it found.
      filter={({ options }) => options}
      onChange={(next, option) => {
        if (!next || !option) return;
        setChosenLabel((labels) => ({ ...labels, [next]: option.label }));
        onChange(next, option.label);
      }}
    />
  );
}

function Legend() {
  return (
    <Group gap="sm" wrap="wrap" aria-label="Colour scale: share of first answers right">
      <Text size="sm" c="dimmed">
        First answers right:
      </Text>
      <div
        className={classes.scale}
        style={{ background: `linear-gradient(to right, ${SKILL_SCALE_COLORS.join(', ')})` }}
        aria-hidden
      />
      <Text size="sm">0% Needs practice · 50% Developing · 100% Strong</Text>
    </Group>
  );
}

function TechniqueCell({ technique }: { technique: TechniqueSkill }) {
  const counts = skillComment(technique.correct, technique.attempts);
  const tooltip = `${technique.label}: ${counts} · credit ${formatCredit(technique.credit)} · ${skillLevel(technique.sharePercent)}`;
  const content = (
    <>
      <span className={classes.cellId}>{technique.id}</span>
      <span className={classes.cellName}>{technique.name}</span>
      <span className={classes.cellShare}>
        {technique.sharePercent}%
        <VisuallyHidden>
          {' '}
          : {counts}, {skillLevel(technique.sharePercent)}
        </VisuallyHidden>
      </span>
    </>
  );
  return (
    <Tooltip label={tooltip} multiline w={260} events={{ hover: true, focus: true, touch: true }} withArrow>
      {technique.url ? (
        <a
          className={classes.cell}
          style={{ background: skillColor(technique.sharePercent) }}
          href={technique.url}
          target="_blank"
          rel="noopener noreferrer"
          data-technique={technique.id}
        >
          {content}
        </a>
      ) : (
        <span
          className={classes.cell}
          style={{ background: skillColor(technique.sharePercent) }}
          tabIndex={0}
          data-technique={technique.id}
        >
          {content}
        </span>
      )}
    </Tooltip>
  );
}

function Matrix({ skills }: { skills: Skills }) {
  const [hideEmpty, setHideEmpty] = useState(false);
  const byTactic = tactics.map((tactic) => ({
    tactic,
    techniques: skills.techniques.filter((technique) => technique.tactics.includes(tactic.shortname)),
  }));
  const shown = hideEmpty ? byTactic.filter(({ techniques }) => techniques.length > 0) : byTactic;
  const outside = skills.techniques.filter((technique) => technique.tactics.length === 0);
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Switch
          label="Hide tactics with no technique met"
          checked={hideEmpty}
          onChange={(event) => setHideEmpty(event.currentTarget.checked)}
        />
        <Text size="xs" c="dimmed">
          {shown.length} of {tactics.length} tactics in matrix order · scroll sideways for more
        </Text>
      </Group>
      <div
        className={classes.scroller}
        role="region"
        aria-label="ATT&CK Enterprise matrix, scrolls sideways"
        tabIndex={0}
      >
        <div className={classes.matrix}>
          {shown.map(({ tactic, techniques }) => (
            <section
              key={tactic.shortname}
              className={techniques.length === 0 ? `${classes.column} ${classes.emptyColumn}` : classes.column}
              aria-labelledby={`tactic-${tactic.shortname}`}
            >
              <header className={classes.columnHeader}>
                <Text size="sm" fw={700} id={`tactic-${tactic.shortname}`} lh={1.2}>
                  {tactic.name}
                </Text>
                <Text size="xs" c="dimmed" className="tabular-nums">
                  {tactic.id} · {techniques.length} met
                </Text>
              </header>
              {techniques.length === 0 ? (
                <Text size="xs" c="dimmed" className={classes.none}>
                  None met
                </Text>
              ) : (
                <ul className={classes.cells}>
                  {techniques.map((technique) => (
                    <li key={technique.id}>
                      <TechniqueCell technique={technique} />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
        </div>
      </div>
      {outside.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Not in the ATT&amp;CK Enterprise dataset
          </Text>
          <ul className={classes.cellsInline}>
            {outside.map((technique) => (
              <li key={technique.id}>
                <TechniqueCell technique={technique} />
              </li>
            ))}
          </ul>
        </Stack>
      )}
    </Stack>
  );
}

function EmptySkills({ own }: { own: boolean }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray" aria-hidden>
          <IconTargetArrow size={26} />
        </ThemeIcon>
        <Title order={2} size="h4">
          No techniques met yet
        </Title>
        <Text>
          {own
            ? 'Answer scenario steps that map to ATT&CK techniques and each technique will appear here, coloured by how often you got it right.'
            : 'No answer to a step mapped to an ATT&CK technique has been recorded for this choice yet.'}
        </Text>
        {own && (
          <Button component={Link} to={paths.scenarios}>
            Choose a scenario
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/** The analyst skills (credit per skill, chart and table) and the calibration panel, above the ATT&CK matrix. */
function AnalystSkillsSection({ skills, own }: { skills: Skills; own: boolean }) {
  const practised = skills.analystSkills.some((skill) => skill.attempts > 0);
  return (
    <>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="analyst-skills-heading">
        <Stack gap="sm">
          <div>
            <Title order={2} size="h3" id="analyst-skills-heading">
              Analyst skills
            </Title>
            <Text size="sm" c="dimmed">
              The share of credit earned per skill, over the first answer of every scored step.
            </Text>
          </div>
          {practised && <AnalystSkillsChart skills={skills.analystSkills} />}
          <AnalystSkillsTable
            skills={skills.analystSkills}
            emptyText={own ? 'No scored step answered yet.' : 'No scored step has been answered yet.'}
          />
        </Stack>
      </Paper>
      <CalibrationPanel calibration={skills.calibration} own={own} />
    </>
  );
}

export default function SkillMapPage() {
  const { user } = useSession();
  const isAdmin = hasRole(user?.role, 'admin');
  // Training Progress links here with the trainee in the address (admins only; the server checks the role).
  const [searchParams] = useSearchParams();
  const linkedUser = isAdmin ? searchParams.get('userId') : null;
  const [scopeValue, setScopeValue] = useState(linkedUser ?? ME);
  const [scopeLabel, setScopeLabel] = useState('My own skills');
  const scope = scopeFromValue(scopeValue);
  const skills = useSkills(scope);
  const scopeUser = skills.data?.scope.user;
  const shownLabel =
    scope.kind === 'user' && scopeUser
      ? `${`${scopeUser.firstName} ${scopeUser.lastName}`.trim()} (${scopeUser.email})`
      : scopeLabel;

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>ATT&amp;CK Skill Map</Title>
        <Text c="dimmed">
          Your analyst skills and calibration, then every ATT&amp;CK technique met in training, in its tactic columns,
          coloured by the share of first answers that were right.
        </Text>
      </div>

      <Group justify="space-between" align="flex-end" gap="md">
        {isAdmin ? (
          <ScopePicker
            value={scopeValue}
            currentLabel={shownLabel}
            onChange={(value, label) => {
              setScopeValue(value);
              setScopeLabel(label);
            }}
          />
        ) : (
          <span />
        )}
        <Group gap="xs">
          <DownloadButton
            href={skills.data && skills.data.techniques.length > 0 ? skillsLayerUrl(scope) : null}
            filename="tradecraft-attack-layer.json"
          >
            Download Navigator layer
          </DownloadButton>
          <Button
            component="a"
            href={NAVIGATOR_URL}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            rightSection={<IconExternalLink size={16} aria-hidden />}
          >
            Open ATT&amp;CK Navigator
          </Button>
        </Group>
      </Group>

      {skills.data && <AnalystSkillsSection skills={skills.data} own={scope.kind === 'me'} />}

      {skills.isPending ? (
        <Skeleton height={320} radius="md" role="status" aria-busy="true" aria-label="Loading the skill map" />
      ) : skills.isError ? (
        <LoadError
          title="The skill map could not be loaded"
          error={skills.error}
          onRetry={() => void skills.refetch()}
        />
      ) : skills.data.techniques.length === 0 ? (
        <EmptySkills own={scope.kind === 'me'} />
      ) : (
        <>
          <Group justify="space-between" gap="sm">
            <Text size="sm" className="tabular-nums" role="status">
              {isAdmin && scope.kind !== 'me' ? `${shownLabel}: ` : ''}
              {skills.data.totals.techniques} {skills.data.totals.techniques === 1 ? 'technique' : 'techniques'} met ·{' '}
              {skillComment(skills.data.totals.correct, skills.data.totals.attempts)}
            </Text>
            <Legend />
          </Group>
          <Matrix skills={skills.data} />
          <Text size="sm" c="dimmed">
            To explore the same data in MITRE&apos;s ATT&amp;CK Navigator, download the layer, open the Navigator,
            choose &quot;Open Existing Layer&quot;, then &quot;Upload from local&quot;.{' '}
            <Anchor href={NAVIGATOR_URL} target="_blank" rel="noopener noreferrer" size="sm">
              ATT&amp;CK Navigator
            </Anchor>
          </Text>
        </>
      )}
      <Text size="xs" c="dimmed">
        ATT&amp;CK Enterprise {skills.data?.attackVersion ?? ''}. {ATTACK_NOTICE}
      </Text>
    </Stack>
  );
}
