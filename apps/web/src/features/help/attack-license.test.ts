import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => fs.readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');

describe('the ATT&CK licence the help page links to', () => {
  it('is the very file shipped with the ATT&CK data', () => {
    const served = read('../../../public/ATTACK-LICENSE.txt');
    const shipped = read('../../../../../packages/shared/src/attack/ATTACK-LICENSE.txt');
    expect(served).toBe(shipped);
    expect(served).toContain('The MITRE Corporation');
  });
});
