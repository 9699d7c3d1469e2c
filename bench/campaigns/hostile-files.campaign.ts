import net from 'node:net';
import sharp from 'sharp';
import { createBenchDatabase } from '../lib/database';
import { log, PORTS, round, sleep } from '../lib/env';
import { BOUNDARY, multipartBody, storedZip, zeroPng, type FilePart } from '../lib/files';
import { signInApi } from '../lib/http';
import { table, type Section, type Target } from '../lib/report';
import { BENCH_ADMIN, startServer, type RunningServer } from '../lib/server';

export interface HostileFilesOptions {
  quick: boolean;
}

type Expected = 'refused' | 'neutralised';

interface HostileCase {
  name: string;
  method: 'PUT' | 'POST' | 'PATCH';
  path: string;
  expected: Expected;
  /** Bounded time for the answer, ms. */
  withinMs: number;
  /** A whole body in memory... */
  body?: () => Promise<{ bytes: Buffer; contentType: string }>;
  /** ...or one generated while it is sent, never held whole: this many bytes in total. */
  streamBytes?: number;
  /** Declare the full length up front (otherwise chunked transfer encoding). */
  declareLength?: boolean;
  /** For a neutralised upload: what must be true of the stored result. */
  verify?: (context: VerifyContext, body: string) => Promise<string | null>;
}

interface VerifyContext {
  server: RunningServer;
  cookie: string;
  userId: string;
}

interface CaseResult {
  name: string;
  endpoint: string;
  expected: Expected;
  status: number | null;
  message: string;
  ms: number;
  /** For streamed bodies: how much had been sent when the answer came. */
  sentMiB: number | null;
  peakRssMiB: number;
  verdict: string;
  pass: boolean;
}

const PHOTO = '/api/profile/photo';
const UPLOAD = '/api/sim/upload-scenario';
const GiB = 1024 ** 3;

const multipart = (part: FilePart) => async () => ({
  bytes: multipartBody(part),
  contentType: `multipart/form-data; boundary=${BOUNDARY}`,
});

const VALID_SCENARIO = (id: string, extra = '') => `id: ${id}
name: Hostile file campaign ${id}
type: Phishing
difficulty: 1
description: A scenario the hostile file campaign uploads under a hostile file name.
${extra}steps:
  - id: first
    title: One step
    description: Pick the right answer.
    options:
      - Right
      - Wrong
    correct_option: 0
`;

/** The stored profile picture is a re-encoded WebP that carries none of the given bytes. */
const photoIsCleanWebp =
  (forbidden: string[]) =>
  async ({ server, cookie, userId }: VerifyContext) => {
    const response = await fetch(`${server.url}/api/users/${userId}/photo`, { headers: { cookie } });
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.headers.get('content-type') !== 'image/webp')
      return `stored as ${response.headers.get('content-type')}`;
    if (bytes.subarray(0, 4).toString('latin1') !== 'RIFF' || bytes.subarray(8, 12).toString('latin1') !== 'WEBP')
      return 'stored bytes are not WebP';
    const leaked = forbidden.filter((marker) => bytes.includes(Buffer.from(marker, 'latin1')));
    return leaked.length > 0 ? `stored picture still holds ${leaked.join(', ')}` : null;
  };

async function gifJsPolyglot(): Promise<Buffer> {
  const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#0af' } })
    .gif()
    .toBuffer();
  // GIF89a/*...*/=alert(...)// : the logical screen width bytes open a JS comment, the tail closes it.
  const polyglot = Buffer.from(gif);
  polyglot[6] = 0x2f; // '/'
  polyglot[7] = 0x2a; // '*'
  return Buffer.concat([polyglot, Buffer.from('*/=window.__pwned=1;alert("polyglot")//', 'latin1')]);
}

function hostileCases(quick: boolean): HostileCase[] {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"><script>window.__pwned=1</script><rect width="9" height="9"/></svg>';
  const aliasBomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    .concat(
      Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    )
    .join('\n');
  const depth = 100_000;
  const streamBytes = quick ? GiB / 4 : GiB;
  return [
    // --- Profile picture -------------------------------------------------------------------------
    {
      name: 'HTML page named evil.png, sent as image/png',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({
        filename: 'evil.png',
        contentType: 'image/png',
        bytes: Buffer.from('<html><script>window.__pwned=1</script></html>'),
      }),
    },
    {
      name: 'PDF named photo.jpg, sent as image/jpeg',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({
        filename: 'photo.jpg',
        contentType: 'image/jpeg',
        bytes: Buffer.from('%PDF-1.7\n1 0 obj <</Type/Catalog>> endobj\n%%EOF'),
      }),
    },
    {
      name: 'SVG with script, sent as image/svg+xml',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({ filename: 'avatar.svg', contentType: 'image/svg+xml', bytes: Buffer.from(svg) }),
    },
    {
      name: 'SVG with script named avatar.png, sent as image/png',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({ filename: 'avatar.png', contentType: 'image/png', bytes: Buffer.from(svg) }),
    },
    {
      name: 'GIF/JavaScript polyglot (GIF89a/*...*/=alert()//)',
      method: 'PUT',
      path: PHOTO,
      expected: 'neutralised',
      withinMs: 3000,
      body: async () => multipart({ filename: 'poly.gif', contentType: 'image/gif', bytes: await gifJsPolyglot() })(),
      verify: photoIsCleanWebp(['alert', '__pwned']),
    },
    {
      name: 'PNG with a ZIP archive appended',
      method: 'PUT',
      path: PHOTO,
      expected: 'neutralised',
      withinMs: 3000,
      body: async () => {
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fa0' } })
          .png()
          .toBuffer();
        const zip = storedZip('payload.js', Buffer.from('window.__pwned = 1;'));
        return multipart({ filename: 'picture.png', contentType: 'image/png', bytes: Buffer.concat([png, zip]) })();
      },
      verify: photoIsCleanWebp(['PK\u0003\u0004', 'payload.js', '__pwned']),
    },
    {
      name: 'Decompression bomb: 84-byte PNG declaring 100,000 × 100,000 pixels',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({ filename: 'bomb.png', contentType: 'image/png', bytes: zeroPng(100_000, 100_000, 1) }),
    },
    {
      name: 'Deflate bomb under the pixel limit: 4,900 × 4,900 PNG of zeros (24 MP, ~25 kB file)',
      method: 'PUT',
      path: PHOTO,
      expected: 'neutralised',
      withinMs: 10_000,
      body: multipart({ filename: 'zeros.png', contentType: 'image/png', bytes: zeroPng(4900, 4900) }),
      verify: photoIsCleanWebp([]),
    },
    {
      name: 'Picture of 2 MB + 1 byte',
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({
        filename: 'big.jpg',
        contentType: 'image/jpeg',
        bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2 * 1024 * 1024 - 3)]),
      }),
    },
    {
      name: 'Valid PNG named ../../../etc/passwd.png',
      method: 'PUT',
      path: PHOTO,
      expected: 'neutralised',
      withinMs: 3000,
      body: async () =>
        multipart({
          filename: '../../../etc/passwd.png',
          contentType: 'image/png',
          bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
            .png()
            .toBuffer(),
        })(),
      verify: photoIsCleanWebp(['passwd']),
    },
    {
      name: `${streamBytes / GiB} GiB stream (chunked, generated while sent) as the picture`,
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 5000,
      streamBytes,
    },
    {
      name: `${streamBytes / GiB} GiB stream declaring Content-Length as the picture`,
      method: 'PUT',
      path: PHOTO,
      expected: 'refused',
      withinMs: 5000,
      streamBytes,
      declareLength: true,
    },
    // --- Scenario upload -------------------------------------------------------------------------
    {
      name: 'PNG named scenario.yaml, sent as application/yaml',
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 2000,
      body: async () =>
        multipart({
          filename: 'scenario.yaml',
          contentType: 'application/yaml',
          bytes: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
            .png()
            .toBuffer(),
        })(),
    },
    {
      name: 'SVG with script named scenario.yaml',
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({ filename: 'scenario.yaml', contentType: 'application/yaml', bytes: Buffer.from(svg) }),
    },
    {
      name: 'YAML alias bomb (billion laughs: 9 levels of 9 aliases)',
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({ filename: 'laughs.yaml', contentType: 'application/yaml', bytes: Buffer.from(aliasBomb) }),
    },
    {
      name: `Deeply nested JSON file: ${depth.toLocaleString('en')} levels of arrays`,
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 3000,
      body: multipart({
        filename: 'deep.json',
        contentType: 'application/json',
        bytes: Buffer.from('['.repeat(depth) + ']'.repeat(depth)),
      }),
    },
    {
      name: `Deeply nested YAML file: ${depth.toLocaleString('en')} levels of flow sequences`,
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 3000,
      body: multipart({
        filename: 'deep.yaml',
        contentType: 'application/yaml',
        bytes: Buffer.from('a: ' + '['.repeat(depth) + ']'.repeat(depth)),
      }),
    },
    {
      name: 'Scenario whose source URL is javascript:',
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({
        filename: 'js-source.yaml',
        contentType: 'application/yaml',
        bytes: Buffer.from(
          VALID_SCENARIO(
            'hostile-js-source',
            'sources:\n  - title: Click me\n    url: "javascript:window.__pwned=1"\n',
          ),
        ),
      }),
    },
    {
      name: 'Scenario file of 1 MB + 1 byte',
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 2000,
      body: multipart({
        filename: 'big.yaml',
        contentType: 'application/yaml',
        bytes: Buffer.from(`# ${'x'.repeat(1024 * 1024 - 1)}`),
      }),
    },
    {
      name: 'Valid scenario named ../../etc/cron.d/evil.yaml',
      method: 'POST',
      path: UPLOAD,
      expected: 'neutralised',
      withinMs: 3000,
      body: multipart({
        filename: '../../etc/cron.d/evil.yaml',
        contentType: 'application/yaml',
        bytes: Buffer.from(VALID_SCENARIO('hostile-name-unix')),
      }),
      verify: async (_context, body) => {
        const filename = (JSON.parse(body) as { filename?: string }).filename ?? '';
        return /[\\/]|\.\./.test(filename) ? `stored name keeps the path: ${filename}` : null;
      },
    },
    {
      name: 'Valid scenario named ..\\..\\Windows\\evil.yaml',
      method: 'POST',
      path: UPLOAD,
      expected: 'neutralised',
      withinMs: 3000,
      body: multipart({
        filename: '..\\..\\Windows\\evil.yaml',
        contentType: 'application/yaml',
        bytes: Buffer.from(VALID_SCENARIO('hostile-name-windows')),
      }),
      verify: async (_context, body) => {
        const filename = (JSON.parse(body) as { filename?: string }).filename ?? '';
        return /[\\/]|\.\./.test(filename) ? `stored name keeps the path: ${filename}` : null;
      },
    },
    {
      name: `${streamBytes / GiB} GiB stream (chunked) as the scenario file`,
      method: 'POST',
      path: UPLOAD,
      expected: 'refused',
      withinMs: 5000,
      streamBytes,
    },
    // --- A JSON body ----------------------------------------------------------------------------
    {
      name: 'Deeply nested JSON request body (PATCH /api/profile, 500,000 levels, 1 MB)',
      method: 'PATCH',
      path: '/api/profile',
      expected: 'refused',
      withinMs: 2000,
      body: async () => ({
        bytes: Buffer.from('['.repeat(500_000) + ']'.repeat(500_000)),
        contentType: 'application/json',
      }),
    },
    {
      name: `${streamBytes / GiB} GiB JSON request body (chunked) to PATCH /api/profile`,
      method: 'PATCH',
      path: '/api/profile',
      expected: 'refused',
      withinMs: 5000,
      streamBytes,
    },
  ];
}

interface Sent {
  status: number | null;
  body: string;
  ms: number;
  sentBytes: number;
}

/**
 * Sends a request whose body is a whole buffer or is generated chunk by chunk until the server answers. A raw
 * socket, so that the answer is read even when the server closes the connection while the body is still being
 * written (an HTTP client library gives up on the write error and drops the answer it already received).
 */
function send(
  server: RunningServer,
  cookie: string,
  hostile: HostileCase,
  whole: { bytes: Buffer; contentType: string } | null,
): Promise<Sent> {
  return new Promise((resolve) => {
    const started = performance.now();
    let sentBytes = 0;
    let answered = false;
    let writing = true;
    const received: Buffer[] = [];
    const isJson = hostile.path === '/api/profile';
    const contentType =
      whole?.contentType ?? (isJson ? 'application/json' : `multipart/form-data; boundary=${BOUNDARY}`);
    const length = whole ? whole.bytes.length : hostile.declareLength ? hostile.streamBytes! : null;
    const head =
      `${hostile.method} ${hostile.path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nCookie: ${cookie}\r\nOrigin: ${server.url}\r\n` +
      `Content-Type: ${contentType}\r\n${length !== null ? `Content-Length: ${length}` : 'Transfer-Encoding: chunked'}\r\nConnection: close\r\n\r\n`;
    const socket = net.connect(server.port, '127.0.0.1');
    const finish = () => {
      if (answered) return;
      answered = true;
      writing = false;
      const text = Buffer.concat(received).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const bodyStart = text.indexOf('\r\n\r\n');
      let body = bodyStart >= 0 ? text.slice(bodyStart + 4) : text;
      if (/transfer-encoding: chunked/i.test(text.slice(0, bodyStart)))
        body = body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '');
      resolve({
        status: status ? Number(status) : null,
        body: status ? body : `no answer: ${text.slice(0, 100) || 'connection closed'}`,
        ms: Math.round(performance.now() - started),
        sentBytes,
      });
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      writing = false; // the server has answered: stop sending
      const text = Buffer.concat(received).toString('latin1');
      const headerEnd = text.indexOf('\r\n\r\n');
      const declared = /content-length: (\d+)/i.exec(text.slice(0, headerEnd))?.[1];
      if (
        headerEnd >= 0 &&
        declared !== undefined &&
        Buffer.concat(received).length >= headerEnd + 4 + Number(declared)
      )
        finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', () => {
      writing = false; // a reset while writing: what was received is still read above
    });
    socket.setTimeout(60_000, finish);
    const chunked = length === null;
    const frame = (piece: Buffer) =>
      chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
    socket.write(head);
    if (whole) {
      sentBytes = whole.bytes.length;
      socket.write(whole.bytes);
      return;
    }
    // The generated stream: a multipart (or JSON) opening, then zeros, 64 kB at a time, until answered or done.
    const opening = isJson
      ? Buffer.from('{"firstName":"')
      : Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: image/png\r\n\r\n`,
        );
    const chunk = Buffer.alloc(64 * 1024, isJson ? 0x61 : 0);
    sentBytes += opening.length;
    socket.write(frame(opening));
    const pump = () => {
      while (writing && sentBytes < hostile.streamBytes!) {
        const piece = chunk.subarray(0, Math.min(chunk.length, hostile.streamBytes! - sentBytes));
        sentBytes += piece.length;
        if (!socket.write(frame(piece))) {
          socket.once('drain', pump);
          return;
        }
      }
      if (writing && chunked) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

export async function hostileFilesCampaign(options: HostileFilesOptions): Promise<Section> {
  const started = Date.now();
  const database = await createBenchDatabase('sqlite', 'hostile');
  const server = await startServer({ port: PORTS.hostileFiles, env: database.env });
  const results: CaseResult[] = [];
  let idleRss = 0;
  let peakHwm = Number.NaN;
  try {
    const { cookie, userId } = await signInApi(server.url, BENCH_ADMIN);
    await sleep(500);
    idleRss = server.memory()?.rssMiB ?? 0;
    for (const hostile of hostileCases(options.quick)) {
      const whole = hostile.body ? await hostile.body() : null;
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, server.memory()?.rssMiB ?? 0)), 5);
      const sent = await send(server, cookie, hostile, whole);
      clearInterval(sampler);
      peak = Math.max(peak, server.memory()?.rssMiB ?? 0);
      let message = '';
      try {
        const parsed = JSON.parse(sent.body) as { error?: string; problems?: string[] };
        message = [parsed.error, ...(parsed.problems ?? []).slice(0, 2)].filter(Boolean).join(' / ');
      } catch {
        message = sent.body.slice(0, 120);
      }
      const refused = sent.status !== null && sent.status >= 400 && sent.status < 500;
      const accepted = sent.status !== null && sent.status >= 200 && sent.status < 300;
      let verdict: string;
      let pass: boolean;
      if (hostile.expected === 'refused') {
        pass = refused && message.length > 0 && sent.ms <= hostile.withinMs;
        verdict = refused
          ? sent.ms <= hostile.withinMs
            ? 'refused'
            : `refused, but slowly (> ${hostile.withinMs} ms)`
          : `NOT refused (${sent.status})`;
      } else if (accepted && hostile.verify) {
        const problem = await hostile.verify({ server, cookie, userId }, sent.body);
        pass = problem === null && sent.ms <= hostile.withinMs;
        verdict = problem ?? 'accepted, stored neutralised';
      } else {
        pass = refused && message.length > 0;
        verdict = refused ? 'refused' : `answered ${sent.status}`;
      }
      if (!server.memory()) {
        pass = false;
        verdict = 'the server died';
      }
      results.push({
        name: hostile.name,
        endpoint: `${hostile.method} ${hostile.path}`,
        expected: hostile.expected,
        status: sent.status,
        message: message.slice(0, 160),
        ms: sent.ms,
        sentMiB: hostile.streamBytes ? round(sent.sentBytes / 1024 ** 2, 1) : null,
        peakRssMiB: round(peak, 0),
        verdict,
        pass,
      });
      log(
        `hostile-files: ${hostile.name}: ${sent.status} in ${sent.ms} ms, RSS peak ${round(peak, 0)} MiB: ${verdict}`,
      );
      if (!server.memory()) break;
    }
  } finally {
    peakHwm = server.memory()?.peakMiB ?? Number.NaN;
    await server.stop();
    await database.drop();
  }
  return hostileSection(results, { quick: options.quick, started, idleRss, peakHwm });
}

function hostileSection(
  results: CaseResult[],
  meta: { quick: boolean; started: number; idleRss: number; peakHwm: number },
): Section {
  const failed = results.filter((result) => !result.pass);
  const maxRss = Math.max(...results.map((result) => result.peakRssMiB));
  const targets: Target[] = [
    {
      name: 'hostile files: each refused quickly with a clear message (or stored neutralised)',
      target: `all ${results.length} cases`,
      measured: `${results.length - failed.length} of ${results.length}`,
      pass: failed.length === 0 && results.length > 0,
    },
    {
      name: 'hostile files: server peak RSS (VmHWM over the whole campaign)',
      target: 'bounded (< 512 MiB)',
      measured: `${round(meta.peakHwm, 0)} MiB (idle ${round(meta.idleRss, 0)} MiB)`,
      pass: meta.peakHwm < 512,
    },
  ];
  const markdown = [
    'Each file is sent to the real server (SQLite) as a signed-in admin, one at a time; "refused" needs a 4xx with a',
    'readable message within the time shown; "neutralised" means the upload is taken and what is stored is checked',
    '(a picture must come back as a re-encoded WebP holding none of the hostile bytes; a file name must lose its path).',
    'Streams are generated while sent and never stored; "sent" is how much had gone out when the answer came.',
    `Peak RSS per case is sampled from /proc/<pid>/status every 5 ms; the server idles at ${round(meta.idleRss, 0)} MiB and its`,
    `VmHWM after the whole campaign was ${round(meta.peakHwm, 0)} MiB (highest sampled: ${maxRss} MiB).`,
    '',
    table(
      ['file', 'endpoint', 'status', 'ms', 'sent MiB', 'peak RSS MiB', 'message', 'result'],
      results.map((result) => [
        result.name,
        result.endpoint,
        result.status ?? 'none',
        result.ms,
        result.sentMiB ?? '-',
        result.peakRssMiB,
        result.message || '-',
        `${result.pass ? 'PASS' : '**MISS**'}: ${result.verdict}`,
      ]),
    ),
  ].join('\n');
  return {
    id: 'hostile-files',
    title: 'Hostile files',
    date: new Date().toISOString(),
    quick: meta.quick,
    durationSeconds: (Date.now() - meta.started) / 1000,
    targets,
    markdown,
    data: results,
  };
}
