import { stringify } from 'yaml';

/** The draft as a scenario file an author can keep, upload or paste back: YAML, or JSON. */
export function scenarioFileText(definition: Record<string, unknown>, format: 'yaml' | 'json'): string {
  return format === 'json' ? `${JSON.stringify(definition, null, 2)}\n` : stringify(definition, { lineWidth: 0 });
}

export function scenarioFileName(definition: Record<string, unknown>, format: 'yaml' | 'json'): string {
  const id = typeof definition.id === 'string' && definition.id !== '' ? definition.id : 'scenario';
  return `${id}-my-version.${format}`;
}

/** Hands the browser a file to save (nothing is sent anywhere). */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadScenario(definition: Record<string, unknown>, format: 'yaml' | 'json'): void {
  downloadText(
    scenarioFileText(definition, format),
    scenarioFileName(definition, format),
    format === 'json' ? 'application/json' : 'text/yaml',
  );
}
