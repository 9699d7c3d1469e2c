import { describe, expect, it } from 'vitest';
import { parseDnsRecords, parseStix, parseWhois } from './intel-formats';

describe('parseDnsRecords', () => {
  it('reads a header line and rows separated by runs of spaces', () => {
    const table = parseDnsRecords(
      'rrname                     rrtype  rdata          first_seen  last_seen\nlogin.voice-msgcenter.example  A   203.0.113.77   2025-03-10  2025-03-11\n',
    );
    expect(table).toEqual({
      columns: ['rrname', 'rrtype', 'rdata', 'first_seen', 'last_seen'],
      rows: [['login.voice-msgcenter.example', 'A', '203.0.113.77', '2025-03-10', '2025-03-11']],
    });
  });

  it('reads JSON lines of records, every key a column', () => {
    const table = parseDnsRecords(
      '{"rrname":"a.example","rrtype":"A","rdata":"192.0.2.1"}\n{"rrname":"a.example","rrtype":"NS","rdata":"ns1.example","count":4}',
    );
    expect(table?.columns).toEqual(['rrname', 'rrtype', 'rdata', 'count']);
    expect(table?.rows[0]).toEqual(['a.example', 'A', '192.0.2.1', '']);
  });

  it('reads rows without a header when the second column is a record type', () => {
    expect(parseDnsRecords('evil[.]example.com A 192.0.2.1\nevil[.]example.com NS ns1.example')).toEqual({
      columns: ['Name', 'Type', 'Data'],
      rows: [
        ['evil[.]example.com', 'A', '192.0.2.1'],
        ['evil[.]example.com', 'NS', 'ns1.example'],
      ],
    });
  });

  it('gives up on rows that do not match the header, so the text is shown as written', () => {
    expect(parseDnsRecords('name  type  data\nonly-one-cell')).toBeNull();
    expect(parseDnsRecords('[1, 2]')).toBeNull();
  });
});

describe('parseWhois', () => {
  it('reads name and value pairs and keeps other lines as remarks, without comments', () => {
    expect(
      parseWhois(
        '% IANA WHOIS\nDomain Name: VOICE-MSGCENTER.EXAMPLE\nCreation Date: 2025-03-09T22:14:00Z\n\n>>> Last update <<<',
      ),
    ).toEqual([
      { name: 'Domain Name', value: 'VOICE-MSGCENTER.EXAMPLE' },
      { name: 'Creation Date', value: '2025-03-09T22:14:00Z' },
      { name: null, value: '>>> Last update <<<' },
    ]);
  });
});

describe('parseStix', () => {
  const bundle = JSON.stringify({
    type: 'bundle',
    id: 'bundle--1',
    objects: [
      {
        type: 'indicator',
        id: 'indicator--1',
        name: 'Relay host',
        pattern: "[domain-name:value = 'login.example']",
        valid_from: '2025-03-10T00:00:00Z',
        indicator_types: ['malicious-activity'],
      },
      { type: 'threat-actor', id: 'threat-actor--1', name: 'Ledger Fox', aliases: ['LF'] },
      {
        type: 'relationship',
        id: 'relationship--1',
        relationship_type: 'indicates',
        source_ref: 'indicator--1',
        target_ref: 'threat-actor--1',
      },
    ],
  });

  it('groups a bundle by type, with key fields and relationships named by their objects', () => {
    const view = parseStix(bundle)!;
    expect(view.bundleId).toBe('bundle--1');
    expect(view.groups.map((group) => group.type)).toEqual(['indicator', 'threat-actor', 'relationship']);
    expect(view.groups[0]!.objects[0]!.fields).toContainEqual({
      name: 'pattern',
      value: "[domain-name:value = 'login.example']",
    });
    expect(view.groups[2]!.objects[0]!.title).toBe('Relay host indicates Ledger Fox');
  });

  it('reads one object on its own, and refuses text that is not STIX JSON', () => {
    expect(
      parseStix('{"type":"malware","id":"malware--1","name":"Qakbot","is_family":true}')!.groups[0]!.objects[0]!.fields,
    ).toEqual([{ name: 'is_family', value: 'true' }]);
    expect(parseStix('not json')).toBeNull();
    expect(parseStix('{"name":"no type"}')).toBeNull();
  });
});
