import type { ExtractFieldType } from '@tradecraft/shared';
import { Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import classes from '../player.module.css';
import type { ControlProps } from './control-props';
import { AnswerForm } from './answer-form';
import { VerdictIcon } from '../../credit';

const FIELD_TYPE_HELP: Record<ExtractFieldType, string> = {
  domain: 'A domain; defanged is fine, such as bad-site[.]example',
  ip: 'An IP address; defanged is fine, such as 203.0.113[.]7',
  url: 'A URL; defanged is fine, such as hxxps://bad-site[.]example/login',
  email: 'An email address; defanged is fine, such as user[@]bad-site[.]example',
  hash: 'A file hash (MD5, SHA-1 or SHA-256)',
  cve: 'A CVE id, such as CVE-2024-3400',
  technique: 'An ATT&CK technique id, such as T1566.001',
  text: 'Text; case and extra spaces do not matter',
};

/** extract: one text field per value to find (defanged values are accepted); once answered, each value against the key. */
export function ExtractControl({ step, result, busy, onSubmit }: ControlProps<'extract'>) {
  const [values, setValues] = useState(() => step.fields.map(() => ''));

  if (!result) {
    return (
      <AnswerForm
        busy={busy}
        onSubmit={() => {
          onSubmit({ values });
        }}
      >
        <Text size="sm">Find these in the intel. A field you cannot fill may stay empty.</Text>
        {step.fields.map((field, index) => (
          <TextInput
            key={index}
            label={field.label}
            description={FIELD_TYPE_HELP[field.type]}
            value={values[index]}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setValues((current) => current.map((old, at) => (at === index ? value : old)));
            }}
            disabled={busy}
            maxLength={2000}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            classNames={{ input: classes.mono }}
          />
        ))}
      </AnswerForm>
    );
  }

  const rightCount = result.fields.filter((field) => field.right).length;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {rightCount} of {result.fields.length} right after normalising (trimmed, refanged, canonical case).
      </Text>
      <Stack component="ul" gap="xs" className={classes.plainList} aria-label="Extracted values">
        {result.fields.map((field, index) => (
          <li key={index} className={classes.lockedOption} data-state={field.right ? 'correct' : 'wrong'}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <VerdictIcon verdict={field.right ? 'right' : 'wrong'} />
              <Stack gap={2} miw={0}>
                <Text size="sm" fw={600}>
                  {field.label}
                </Text>
                <Text size="sm">
                  Your value:{' '}
                  {field.given.trim() ? (
                    <span className={classes.mono}>{field.given}</span>
                  ) : (
                    <Text span c="dimmed">
                      (empty)
                    </Text>
                  )}
                  {field.given.trim() && field.normalised !== field.given ? (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      read as <span className={classes.mono}>{field.normalised}</span>
                    </Text>
                  ) : null}
                </Text>
                <Text size="sm">
                  {field.accepted.length === 1 ? 'Key' : 'Accepted'}:{' '}
                  <span className={classes.mono}>{field.accepted.join(', ')}</span>
                </Text>
              </Stack>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
