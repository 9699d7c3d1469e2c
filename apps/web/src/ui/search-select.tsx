import { MultiSelect, Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

const TYPING_PAUSE_MS = 300;

/** What the server answers for a typed text: its first matches (about 20), and whether more match. */
export interface ChoicesPage {
  items: ComboboxItem[];
  more: boolean;
}

interface ChoicesSource {
  /** Names the choices in the query cache (the typed text is added to it). */
  queryKey: readonly unknown[];
  /** Asks the server for the choices matching the text ('' : the first ones by name). */
  fetchChoices(search: string): Promise<ChoicesPage>;
}

/**
 * The server already filtered the options: show those it answered, as they came. The chosen ones it left out stay
 * in the data (so the box shows their label) but not in the list, which then says that nothing matches.
 */
const answeredOnly =
  (answered: ComboboxItem[]): OptionsFilter =>
  ({ options }) => {
    const values = new Set(answered.map((option) => option.value));
    return options.filter((option) => 'value' in option && values.has(option.value));
  };

const MORE_HINT = 'Only the first 20 are listed: type part of the name to find others.';

/** The choices for what is typed, asked of the server once typing pauses (the previous ones shown meanwhile). */
function useChoices({ queryKey, fetchChoices }: ChoicesSource, typed: string) {
  const [search] = useDebouncedValue(typed.trim(), TYPING_PAUSE_MS);
  return useQuery({
    queryKey: [...queryKey, search],
    queryFn: () => fetchChoices(search),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/**
 * What the box says about its choices: "Searching…" before the first answer, the nothing-found message, the hint
 * that only the first 20 are listed, and the server's refusal when asking failed.
 */
function choiceStatus(choices: ReturnType<typeof useChoices>, nothingFoundMessage: string) {
  return {
    nothingFoundMessage: choices.isFetching && !choices.data ? 'Searching…' : nothingFoundMessage,
    description: choices.data?.more ? MORE_HINT : undefined,
    error: choices.isError ? choices.error.message : undefined,
  };
}

/** The answered options plus the chosen ones the answer left out, so a chosen value keeps its label. */
function withChosen(options: ComboboxItem[], chosen: ComboboxItem[]): ComboboxItem[] {
  const listed = new Set(options.map((option) => option.value));
  return [...options, ...chosen.filter((option) => !listed.has(option.value))];
}

interface SearchSelectProps extends ChoicesSource {
  label: string;
  value: string | null;
  /** The chosen value's label when the page knows it already (a link, a saved form). */
  valueLabel?: string | undefined;
  onChange(value: string | null): void;
  /** Said when nothing matches what is typed. */
  nothingFoundMessage: string;
  required?: boolean;
  maw?: number;
}

/**
 * A searchable select whose choices come from the server: at most about 20 matches of what is typed (the first
 * by name when nothing is), so the page never loads the whole list (docs/operations.md, "Searching and counting").
 */
export function SearchSelect({ label, value, valueLabel, onChange, nothingFoundMessage, ...rest }: SearchSelectProps) {
  const [typed, setTyped] = useState('');
  const [chosen, setChosen] = useState<ComboboxItem | null>(null);
  const chosenItem =
    value === null ? null : chosen?.value === value ? chosen : { value, label: valueLabel ?? chosen?.label ?? value };
  // Once chosen, the box shows the chosen label: opening the list again shows the first choices, not that one.
  const search = chosenItem && typed === chosenItem.label ? '' : typed;
  const choices = useChoices(rest, search);
  const options = choices.data?.items ?? [];
  return (
    <Select
      label={label}
      data={withChosen(options, chosenItem ? [chosenItem] : [])}
      value={value}
      onChange={(next, option) => {
        setChosen(next === null ? null : option);
        onChange(next);
      }}
      searchable
      searchValue={typed}
      onSearchChange={setTyped}
      filter={answeredOnly(options)}
      {...choiceStatus(choices, nothingFoundMessage)}
      required={rest.required}
      maw={rest.maw}
    />
  );
}

interface SearchMultiSelectProps extends ChoicesSource {
  label: string;
  value: string[];
  /** The labels of the chosen values, for those the page knows already (a saved form). */
  knownLabels?: ReadonlyMap<string, string>;
  onChange(value: string[], labels: Map<string, string>): void;
  nothingFoundMessage: string;
  required?: boolean;
}

/** A searchable multi-select whose choices come from the server, as SearchSelect. */
export function SearchMultiSelect({
  label,
  value,
  knownLabels,
  onChange,
  nothingFoundMessage,
  ...rest
}: SearchMultiSelectProps) {
  const [typed, setTyped] = useState('');
  const [labels, setLabels] = useState(() => new Map(knownLabels));
  const choices = useChoices(rest, typed);
  const options = choices.data?.items ?? [];
  const chosen = value.map((id) => ({ value: id, label: labels.get(id) ?? knownLabels?.get(id) ?? id }));
  return (
    <MultiSelect
      label={label}
      data={withChosen(options, chosen)}
      value={value}
      onChange={(next) => {
        const nextLabels = new Map(labels);
        for (const option of options) if (next.includes(option.value)) nextLabels.set(option.value, option.label);
        setLabels(nextLabels);
        onChange(next, nextLabels);
      }}
      searchable
      searchValue={typed}
      onSearchChange={setTyped}
      filter={answeredOnly(options)}
      {...choiceStatus(choices, nothingFoundMessage)}
      required={rest.required}
    />
  );
}
