import { inflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { certificatePdf, drawableText, MISSING_GLYPH, scenarioLines } from './certificate-pdf';

const content = (holderName: string, pathName = 'Phishing triage') => ({
  holderName,
  pathName,
  issuedAt: '2026-11-25T10:00:00.000Z',
  verifyUrl: 'https://range.example/verify/abc',
  revoked: false,
});

/** Every stream of the PDF as text (inflated when compressed): the fonts' ToUnicode maps are among them. */
async function streamsOf(bytes: Uint8Array): Promise<{ text: string; embedsTrueType: boolean }> {
  const pdf = await PDFDocument.load(bytes);
  const objects = pdf.context.enumerateIndirectObjects();
  const embedsTrueType = objects.some(([, object]) => object instanceof PDFDict && object.has(PDFName.of('FontFile2')));
  const text = objects
    .flatMap(([, object]) => {
      if (!(object instanceof PDFRawStream)) return [];
      const raw = Buffer.from(object.contents);
      try {
        return [inflateSync(raw).toString('latin1')];
      } catch {
        return [raw.toString('latin1')];
      }
    })
    .join('\n');
  return { text, embedsTrueType };
}

/** The hex code a ToUnicode map gives a character, as pdf-lib writes it (UTF-16, upper case). */
const unicodeHex = (char: string) => Buffer.from(char, 'utf16le').swap16().toString('hex').toUpperCase();

describe('certificate PDF', () => {
  it.each(['Zoë Łukasiewicz', 'Ольга Смирнова', 'Γιώργος'])(
    'draws every letter of %s with the embedded font',
    async (name) => {
      const bytes = await certificatePdf(content(name));
      const { text, embedsTrueType } = await streamsOf(bytes);
      for (const char of new Set(name.replace(/ /g, ''))) expect(text).toContain(`<${unicodeHex(char)}>`);
      expect(embedsTrueType).toBe(true);
    },
  );

  it('embeds only the glyphs it draws, so the file stays small', async () => {
    const bytes = await certificatePdf(content('Ольга Смирнова', 'Γιώργος and Zoë Łukasiewicz'));
    expect(bytes.length).toBeLessThan(40_000);
  });

  it('draws a question mark for a character the font lacks, and does not fail', async () => {
    const bytes = await certificatePdf(content('李小龍 \u{10FFFF} Ann\u0007', '😀🦖 path'));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(drawableText('李 Ann\u0007', (codePoint) => codePoint < 0x80)).toBe(`${MISSING_GLYPH} Ann `);
  });

  it('composes a letter and its separate accent into the letter the font has', () => {
    const drawn = drawableText('Zoe\u0308', (codePoint) => codePoint < 0x0300);
    expect(drawn).toBe('Zoë');
  });

  it("lists the path's scenarios with the holder's best score on each", async () => {
    const scenarios = [
      { name: 'Voicemail lure', bestPercent: 92 },
      { name: 'Zoë’s relay', bestPercent: null },
    ];
    expect(scenarioLines(scenarios)).toEqual(['Voicemail lure: 92 %', 'Zoë’s relay: no score recorded']);
    const { text } = await streamsOf(await certificatePdf({ ...content('Ann Lee'), scenarios }));
    // Each character drawn is in the font's ToUnicode map; the score's digits among them.
    for (const char of new Set('Voicemail lure: 92 % Zoë’s relay no score recorded'.replace(/ /g, '')))
      expect(text, char).toContain(`<${unicodeHex(char)}>`);
  });

  it('counts the scenarios past the fifth line instead of running into the verification link', () => {
    const many = Array.from({ length: 8 }, (_, index) => ({ name: `Scenario ${index + 1}`, bestPercent: 80 }));
    expect(scenarioLines(many)).toEqual([
      'Scenario 1: 80 %',
      'Scenario 2: 80 %',
      'Scenario 3: 80 %',
      'Scenario 4: 80 %',
      'and 4 more scenarios',
    ]);
  });
});
