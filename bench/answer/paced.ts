import http from 'node:http';
import { processCpuMs, quantile, round } from '../lib/env';
import { newCounters, TraineePlayer, type PlayRequest } from '../lib/play';
import type { Trainee } from '../lib/trainees';
import type { LoadResult } from './load';

/** The figures of the closed loop's result that mean the same here, with the pace and the failures. */
export type PacedResult = Pick<
  LoadResult,
  | 'trainees'
  | 'seconds'
  | 'requests'
  | 'requestsPerSecond'
  | 'p50'
  | 'p99'
  | 'max'
  | 'counters'
  | 'serverCpuMsPerRequest'
> & {
  /** Mean pause between an answer arriving and the trainee's next request, ms. */
  thinkMs: number;
  /** Requests that failed at the socket or took longer than the timeout. */
  connectionErrors: number;
};

export interface PacedOptions {
  url: string;
  trainees: Trainee[];
  seconds: number;
  warmupSeconds: number;
  /** Mean pause before each next request (drawn uniformly from half to one and a half times it), ms. */
  thinkMs: number;
  serverPid?: number;
  timeoutMs?: number;
}

/**
 * Trainees playing at a pace: each sends a request, waits for its answer, pauses (reading the feedback, choosing
 * the next answer), and sends the next. Unlike the closed loop of load.ts, the offered load does not grow when
 * the server is fast, so the latency measured is what a trainee waits while the others play, not the length of a
 * queue that the load generator keeps full. Each trainee has its own keep-alive connection.
 */
export async function runPacedLoad({
  url,
  trainees,
  seconds,
  warmupSeconds,
  thinkMs,
  serverPid,
  timeoutMs = 10_000,
}: PacedOptions): Promise<PacedResult> {
  const target = new URL(url);
  const counters = newCounters();
  const warmup = newCounters();
  const latencies: number[] = [];
  let connectionErrors = 0;
  const started = performance.now();
  const windowStart = started + warmupSeconds * 1000;
  const end = windowStart + seconds * 1000;
  // The server's CPU time when the window opens and closes.
  const cpu: { before: number | null; after: number | null } = { before: null, after: null };
  const windowTimers = [
    setTimeout(() => (cpu.before = serverPid ? processCpuMs(serverPid) : null), warmupSeconds * 1000),
    setTimeout(() => (cpu.after = serverPid ? processCpuMs(serverPid) : null), (warmupSeconds + seconds) * 1000),
  ];

  const send = (agent: http.Agent, cookie: string, request: PlayRequest) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const outgoing = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.path,
          headers: {
            cookie,
            origin: url,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(request.body),
          },
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('request timed out')));
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });

  const play = async (trainee: Trainee, offset: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const view = { current: warmup };
    const player = new TraineePlayer(
      trainee,
      new Proxy(counters, { get: (_target, key) => Reflect.get(view.current, key) }),
    );
    // Trainees start spread over one pause, as people arriving, not all in the same millisecond.
    await pause(offset);
    try {
      while (performance.now() < end) {
        const request = player.nextRequest();
        const sentAt = performance.now();
        try {
          const { status, body } = await send(agent, trainee.cookie, request);
          const inWindow = sentAt >= windowStart && sentAt < end;
          view.current = inWindow ? counters : warmup;
          if (inWindow) latencies.push(performance.now() - sentAt);
          player.onResponse(request, status, body);
        } catch {
          connectionErrors += 1;
          player.onResponse(request, 0, '');
        }
        await pause(thinkMs * (0.5 + Math.random()));
      }
    } finally {
      agent.destroy();
    }
  };

  await Promise.all(trainees.map((trainee) => play(trainee, Math.random() * thinkMs)));
  windowTimers.forEach(clearTimeout);
  latencies.sort((a, b) => a - b);
  const served = counters.start + counters.answer + counters.next;
  return {
    trainees: trainees.length,
    thinkMs,
    seconds,
    requests: latencies.length,
    requestsPerSecond: round(latencies.length / seconds, 0),
    p50: round(quantile(latencies, 0.5), 2),
    p99: round(quantile(latencies, 0.99), 2),
    max: round(latencies.at(-1) ?? Number.NaN, 1),
    counters,
    serverCpuMsPerRequest:
      cpu.before !== null && cpu.after !== null && served > 0 ? round((cpu.after - cpu.before) / served, 3) : null,
    connectionErrors,
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
