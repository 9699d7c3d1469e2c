import { describe, expect, it } from 'vitest';
import { contentLines, parseChatLine, parseEmail } from './artifact-text';

describe('parseEmail', () => {
  it('reads the leading header lines and keeps the body after the blank line', () => {
    const email = parseEmail(
      'From: Voice Service <noreply@voice.example>\nto: dana@corp.example\nSubject: [Voicemail] 1 new\n  message\nDate: Tue, 11 Mar 2025\n\nYou received a message.\n\nAttachment: VM.html\n',
    );
    expect(email.headers).toEqual([
      { name: 'From', value: 'Voice Service <noreply@voice.example>' },
      { name: 'To', value: 'dana@corp.example' },
      { name: 'Subject', value: '[Voicemail] 1 new message' },
      { name: 'Date', value: 'Tue, 11 Mar 2025' },
    ]);
    expect(email.body).toBe('You received a message.\n\nAttachment: VM.html');
  });

  it('treats content without headers as body only', () => {
    expect(parseEmail('Note: this is a summary.\nSecond line')).toEqual({
      headers: [],
      body: 'Note: this is a summary.\nSecond line',
    });
  });
});

describe('parseChatLine', () => {
  it('reads time, speaker and message', () => {
    expect(parseChatLine('[09:22] lead.mira: Dana is confirmed bad: plan?')).toEqual({
      time: '09:22',
      speaker: 'lead.mira',
      text: 'Dana is confirmed bad: plan?',
    });
    expect(parseChatLine('helpdesk.tom: on it')).toEqual({ time: null, speaker: 'helpdesk.tom', text: 'on it' });
    expect(parseChatLine('[07:58] Site down since 07:40')).toEqual({
      time: '07:58',
      speaker: null,
      text: 'Site down since 07:40',
    });
    expect(parseChatLine('(screenshot attached)')).toEqual({
      time: null,
      speaker: null,
      text: '(screenshot attached)',
    });
  });
});

describe('contentLines', () => {
  it('drops the trailing newline of a block', () => {
    expect(contentLines('a\nb\n')).toEqual(['a', 'b']);
  });
});
