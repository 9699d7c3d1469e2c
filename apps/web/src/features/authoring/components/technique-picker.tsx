import { ATTACK_VERSION, findTechnique, techniqueLabel, techniques } from '@tradecraft/shared/attack';
import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useField } from './form-bits';

// Every active Enterprise technique, "T1566.001 Phishing: Spearphishing Attachment", searchable by id or name.
const TECHNIQUE_ITEMS = techniques
  .map((technique) => ({ value: technique.id, label: techniqueLabel(technique.id) }))
  .sort((a, b) => a.value.localeCompare(b.value, 'en', { numeric: true }));

/** The step's ATT&CK technique, picked from the dataset the checker knows (a stray id stays visible). */
export function TechniquePicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (id: string | undefined) => void;
}) {
  const field = useField('mitre_attack');
  const data = useMemo(
    () =>
      value && !findTechnique(value)
        ? [{ value, label: `${value} (not an ATT&CK ${ATTACK_VERSION} technique)` }, ...TECHNIQUE_ITEMS]
        : TECHNIQUE_ITEMS,
    [value],
  );
  return (
    <Select
      label="ATT&CK technique"
      description={`Search by id or name (Enterprise ${ATTACK_VERSION})`}
      placeholder="T1566.001 or Spearphishing"
      searchable
      clearable
      limit={40}
      data={data}
      value={value ?? null}
      onChange={(id) => onChange(id ?? undefined)}
      nothingFoundMessage="No technique matches"
      {...field}
    />
  );
}
