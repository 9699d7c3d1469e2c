import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PDFFont } from 'pdf-lib';
import { lazyModule } from '../../plugins/lazy-module';

// The certificate of a completed learning path: one A4 landscape page drawn with pdf-lib (text, not a picture),
// so it prints sharply and its words can be searched and copied. docs/programmes.md, "The certificate".

const require = createRequire(import.meta.url);
// Loaded with the first certificate downloaded (plugins/lazy-module.ts).
const pdfLib = lazyModule(() => import('pdf-lib'));
const fontkitModule = lazyModule(() => import('@pdf-lib/fontkit'));

/**
 * DejaVu Sans, TrueType (the dejavu-fonts-ttf package: about 6,000 glyphs covering Latin, Greek and Cyrillic among
 * others; DejaVu's licence, Bitstream Vera's, lets any document embed it). Read once; each PDF embeds only the
 * glyphs it draws (a subset), so a certificate stays under 20 kB. TrueType rather than WOFF: fontkit decompresses a
 * WOFF's tables on every use, ten times slower.
 */
const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const;
let fontBytes: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
function loadFonts() {
  fontBytes ??= Promise.all([
    readFile(require.resolve(FONT_FILES.regular)),
    readFile(require.resolve(FONT_FILES.bold)),
  ]).then(([regular, bold]) => ({ regular, bold }));
  return fontBytes;
}

/** What the font cannot draw. */
export const MISSING_GLYPH = '?';

/**
 * The text as the font can draw it: characters it has stay as they are (after composing accents onto their letters
 * where the font has the composed letter), the others become "?". Line breaks and other controls become spaces.
 * The verification page shows the name exactly as stored.
 */
export function drawableText(text: string, hasGlyph: (codePoint: number) => boolean): string {
  return [...text.normalize('NFC')]
    .map((char) => {
      const codePoint = char.codePointAt(0)!;
      if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return ' ';
      return hasGlyph(codePoint) ? char : MISSING_GLYPH;
    })
    .join('');
}

export interface CertificateContent {
  holderName: string;
  pathName: string;
  issuedAt: string;
  /** Absolute verification address. */
  verifyUrl: string;
  revoked: boolean;
  /** The path's scenarios, in order, with the holder's best score on each (null: none recorded). */
  scenarios?: ReadonlyArray<{ name: string; bestPercent: number | null }>;
}

/** At most this many scenario lines fit between the date and the verification link; the rest are counted. */
const SCENARIO_LINES = 5;

/** "Phishing triage: 92 %", one line per scenario; past SCENARIO_LINES the last line counts the others. */
export function scenarioLines(scenarios: CertificateContent['scenarios'] = []): string[] {
  const line = (scenario: { name: string; bestPercent: number | null }) =>
    `${scenario.name}: ${scenario.bestPercent === null ? 'no score recorded' : `${scenario.bestPercent} %`}`;
  if (scenarios.length <= SCENARIO_LINES) return scenarios.map(line);
  const shown = scenarios.slice(0, SCENARIO_LINES - 1).map(line);
  return [...shown, `and ${scenarios.length - shown.length} more scenarios`];
}

export async function certificatePdf(content: CertificateContent): Promise<Buffer> {
  const [{ PDFDocument, rgb }, { default: fontkit }] = await Promise.all([pdfLib(), fontkitModule()]);
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  // Document properties are UTF-16 strings in the PDF: they keep every character.
  pdf.setTitle(`Certificate: ${content.pathName}`);
  pdf.setAuthor('Tradecraft');
  pdf.setSubject(`${content.holderName} completed ${content.pathName}`);
  pdf.setCreationDate(new Date(content.issuedAt));
  const page = pdf.addPage([842, 595]);
  const fonts = await loadFonts();
  const regular = await pdf.embedFont(fonts.regular, { subset: true });
  const bold = await pdf.embedFont(fonts.bold, { subset: true });
  const glyphs = new Map<PDFFont, Set<number>>([
    [regular, new Set(regular.getCharacterSet())],
    [bold, new Set(bold.getCharacterSet())],
  ]);
  const ink = rgb(0.11, 0.13, 0.18);
  const accent = rgb(0.13, 0.36, 0.66);
  const { width } = page.getSize();

  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: 547, borderColor: accent, borderWidth: 3 });
  const centred = (text: string, y: number, size: number, font = regular, color = ink) => {
    const drawable = drawableText(text, (codePoint) => glyphs.get(font)!.has(codePoint));
    let fontSize = size;
    while (font.widthOfTextAtSize(drawable, fontSize) > width - 120 && fontSize > 8) fontSize -= 1;
    page.drawText(drawable, {
      x: (width - font.widthOfTextAtSize(drawable, fontSize)) / 2,
      y,
      size: fontSize,
      font,
      color,
    });
  };
  centred('TRADECRAFT', 500, 16, bold, accent);
  centred('Certificate of completion', 440, 34, bold);
  centred('This certifies that', 390, 14);
  centred(content.holderName, 345, 30, bold);
  centred('has completed the learning path', 305, 14);
  centred(content.pathName, 268, 24, bold, accent);
  const issued = new Date(content.issuedAt).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  centred(`Issued ${issued}`, 225, 14);
  // The scenarios the path holds, each with the holder's best score.
  scenarioLines(content.scenarios).forEach((line, index) => centred(line, 195 - index * 14, 10));
  centred('Verify this certificate at', 100, 11);
  centred(content.verifyUrl, 82, 12, bold, accent);
  if (content.revoked) centred('REVOKED: this certificate is no longer valid', 50, 14, bold, rgb(0.7, 0.1, 0.1));
  return Buffer.from(await pdf.save());
}
