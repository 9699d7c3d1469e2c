export interface EmailHeader {
  name: string;
  value: string;
}

export interface ParsedEmail {
  headers: EmailHeader[];
  body: string;
}

const EMAIL_HEADER_NAMES = new Map(
  ['From', 'To', 'Cc', 'Bcc', 'Reply-To', 'Subject', 'Date', 'Sent', 'Return-Path', 'Message-ID'].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);

/**
 * Splits an email artifact into its leading header lines (From, To, Subject, Date...) and the body.
 * Headers end at the first blank line or the first line that is not a known header; folded header lines
 * (starting with white space) continue the header above. Content without headers is all body.
 */
export function parseEmail(content: string): ParsedEmail {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const headers: EmailHeader[] = [];
  let index = 0;
  for (; index < lines.length; index += 1) {
    const line = lines[index]!;
    const previous = headers.at(-1);
    if (previous && /^[ \t]+\S/.test(line)) {
      previous.value = `${previous.value} ${line.trim()}`;
      continue;
    }
    const match = /^([A-Za-z][A-Za-z-]*):[ \t]*(.*)$/.exec(line);
    const name = match ? EMAIL_HEADER_NAMES.get(match[1]!.toLowerCase()) : undefined;
    if (!match || !name) break;
    headers.push({ name, value: match[2]!.trim() });
  }
  if (headers.length > 0 && lines[index]?.trim() === '') index += 1;
  return { headers, body: lines.slice(index).join('\n').replace(/\s+$/, '') };
}

export interface ChatLine {
  time: string | null;
  speaker: string | null;
  text: string;
}

/** "[09:22] lead.mira: message", "lead.mira: message", or a plain line. */
export function parseChatLine(line: string): ChatLine {
  const timed = /^\[([^\]]{1,32})\]\s*(?:([^:]{1,60}):\s)?(.*)$/.exec(line);
  if (timed) return { time: timed[1]!, speaker: timed[2]?.trim() || null, text: timed[3]! };
  const handle = /^([\w.@-]{1,40}):\s(.*)$/.exec(line);
  if (handle) return { time: null, speaker: handle[1]!, text: handle[2]! };
  return { time: null, speaker: null, text: line };
}

/** The lines of a log or chat, without the trailing empty line a YAML block leaves. */
export function contentLines(content: string): string[] {
  const lines = content.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  return lines;
}
