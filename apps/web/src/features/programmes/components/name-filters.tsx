import { Group, Switch, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export interface NameFilterValues {
  search: string;
  archived: '' | 'true';
}

/** The cohorts' and learning paths' list filters: a search by name and "Show archived". */
export function NameFilters({
  filters,
  onChange,
  placeholder,
}: {
  filters: NameFilterValues;
  onChange: <K extends keyof NameFilterValues>(key: K, value: NameFilterValues[K]) => void;
  placeholder: string;
}) {
  return (
    <Group align="flex-end" justify="space-between">
      <TextInput
        label="Search"
        placeholder={placeholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={filters.search}
        onChange={(event) => onChange('search', event.currentTarget.value)}
        style={{ flex: 1, minWidth: 200, maxWidth: 360 }}
      />
      <Switch
        label="Show archived"
        checked={filters.archived === 'true'}
        onChange={(event) => onChange('archived', event.currentTarget.checked ? 'true' : '')}
      />
    </Group>
  );
}
