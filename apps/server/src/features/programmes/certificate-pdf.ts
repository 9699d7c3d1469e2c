import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

// The certificate of a completed learning path: one A4 landscape page drawn with pdf-lib (text, not a picture),
// so it prints sharply and its words can be searched and copied.

/**
 * The standard PDF fonts only encode WinAnsi (Latin-1 and a few more): accents are kept where Latin-1 has the
 * letter, other letters lose their accents, and anything else becomes "?". The verification page shows the
 * name exactly as stored.
 */
export function pdfSafeText(text: string): string {
  return [...text]
    .map((char) => {
      if (/[\u0020-\u007e\u00a0-\u00ff]/.test(char)) return char;
      const stripped = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      return /^[\u0020-\u007e\u00a0-\u00ff]+$/.test(stripped) ? stripped : '?';
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
}

export async function certificatePdf(content: CertificateContent): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(pdfSafeText(`Certificate: ${content.pathName}`));
  pdf.setAuthor('Tradecraft');
  pdf.setSubject(pdfSafeText(`${content.holderName} completed ${content.pathName}`));
  pdf.setCreationDate(new Date(content.issuedAt));
  const page = pdf.addPage([842, 595]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.11, 0.13, 0.18);
  const accent = rgb(0.13, 0.36, 0.66);
  const { width } = page.getSize();

  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: 547, borderColor: accent, borderWidth: 3 });
  const centred = (text: string, y: number, size: number, font = regular, color = ink) => {
    const safe = pdfSafeText(text);
    let fontSize = size;
    while (font.widthOfTextAtSize(safe, fontSize) > width - 120 && fontSize > 8) fontSize -= 1;
    page.drawText(safe, { x: (width - font.widthOfTextAtSize(safe, fontSize)) / 2, y, size: fontSize, font, color });
  };
  centred('TRADECRAFT', 500, 16, bold, accent);
  centred('Certificate of completion', 440, 34, bold);
  centred('This certifies that', 390, 14);
  centred(content.holderName, 345, 30, bold);
  centred('has completed the learning path', 305, 14);
  centred(content.pathName, 265, 24, bold, accent);
  const issued = new Date(content.issuedAt).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  centred(`Issued ${issued}`, 215, 14);
  if (content.revoked) centred('REVOKED: this certificate is no longer valid', 180, 14, bold, rgb(0.7, 0.1, 0.1));
  centred('Verify this certificate at', 110, 11);
  centred(content.verifyUrl, 90, 12, bold, accent);
  return Buffer.from(await pdf.save());
}
