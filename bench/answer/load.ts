import autocannon, { type AutocannonClient } from 'autocannon';
import { listenOverflows, processCpuMs, quantile, round } from '../lib/env';
import { newCounters, TraineePlayer, type AckedAnswer, type PlayCounters, type PlayKind } from '../lib/play';
import type { Trainee } from '../lib/trainees';

export interface LoadResult {
  trainees: number;
  /** The measured window (after the warm-up), in seconds. */
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Successful requests by kind in the measured window, and runs finished. */
  counters: PlayCounters;
  /** p50 / p99 per kind of request in the measured window (ms). */
  byKind: Record<PlayKind, { count: number; p50: number; p99: number }>;
  /** Server CPU time (user + system) per request in the measured window, in ms: robust to other load on the machine. */
  serverCpuMsPerRequest: number | null;
  /** The load generator's own CPU time per request, in ms. */
  clientCpuMsPerRequest: number;
  /** The mean length of a response body in the window, in characters (the JSON is nearly all ASCII, so about bytes). */
  meanBodyChars: number;
  /** Socket errors and timeouts seen by autocannon over the whole run (a crash shows up here). */
  connectionErrors: number;
  /** The same errors by their code (ECONNRESET, ETIMEDOUT...) or message ("request timed out"). */
  errorKinds: Record<string, number>;
  /** Connections the kernel dropped over the whole run because the server's listen queue was full. */
  listenOverflows: number;
  timeouts: number;
  /** The machine's 1-minute load average when the window ended (other processes compete for the CPUs). */
  loadAverage: number;
}

export interface LoadOptions {
  url: string;
  trainees: Trainee[];
  /** Measured window, after the warm-up. */
  seconds: number;
  /** Warm-up: the same trainees play on, nothing is recorded (JIT, caches, every trainee mid-run). */
  warmupSeconds?: number;
  onAck?: (ack: AckedAnswer) => void;
  /** Gives the caller a way to stop the load early (the crash campaign kills the server instead). */
  onStart?: (stop: () => void) => void;
  /** The server's pid, to measure its CPU time. */
  serverPid?: number;
  /** Seconds before a request without an answer counts as a timeout. */
  timeoutSeconds?: number;
}

/**
 * Every trainee is one autocannon connection with its own session cookie and its own player state, set up
 * per connection with setupClient/setRequests; each request is built from the server's previous answer.
 * One autocannon run covers the warm-up and the measured window, so the window starts with every trainee
 * mid-run (no burst of simultaneous starts); latency is timed per request by the client, in µs precision.
 */
export async function runTraineeLoad({
  url,
  trainees,
  seconds,
  warmupSeconds = 0,
  onAck,
  onStart,
  serverPid,
  timeoutSeconds = 10,
}: LoadOptions): Promise<LoadResult> {
  const counters = newCounters();
  const warmupCounters = newCounters();
  const latencies: number[] = [];
  let bodyChars = 0;
  const kindLatencies: Record<PlayKind, number[]> = { start: [], answer: [], next: [] };
  let measuring = false;
  let windowStarted = Number.POSITIVE_INFINITY;
  let nextTrainee = 0;

  const instance = autocannon({
    url,
    connections: trainees.length,
    duration: warmupSeconds + seconds,
    timeout: timeoutSeconds,
    pipelining: 1,
    requests: [{ method: 'GET', path: '/api/health' }],
    setupClient(client: AutocannonClient) {
      const trainee = trainees[nextTrainee++ % trainees.length]!;
      // The player counts into whichever counters are current, so the window's counts are its own.
      const view = { current: measuring ? counters : warmupCounters };
      const player = new TraineePlayer(
        trainee,
        new Proxy(counters, { get: (_target, key) => Reflect.get(view.current, key) }),
        onAck,
      );
      const headers = { cookie: trainee.cookie, 'content-type': 'application/json', origin: url };
      let sent = player.nextRequest();
      let sentAt = 0;
      client.setRequests([
        {
          setupRequest(request) {
            sent = player.nextRequest();
            sentAt = performance.now();
            return { ...request, method: sent.method, path: sent.path, body: sent.body, headers };
          },
          onResponse(status, body) {
            // Only requests sent inside the window count (the very first requests of a load queue up behind
            // one another while 500 connections open; they belong to the warm-up).
            const inWindow = measuring && sentAt >= windowStarted;
            view.current = inWindow ? counters : warmupCounters;
            if (inWindow) {
              const latency = performance.now() - sentAt;
              latencies.push(latency);
              bodyChars += body.length;
              kindLatencies[sent.kind].push(latency);
              if (process.env.BENCH_DEBUG_SLOW && latency > 500)
                console.log(`slow ${sent.kind} ${status} ${Math.round(latency)} ms, sent at ${Math.round(sentAt)}`);
            }
            player.onResponse(sent, status, body);
          },
        },
      ]);
    },
  });
  onStart?.(() => instance.stop());
  const errorKinds: Record<string, number> = {};
  instance.on('reqError', (error: Error & { code?: string }) => {
    const kind = error.code ?? error.message;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  });
  const overflowsBefore = listenOverflows();

  let serverCpuBefore: number | null = null;
  let clientCpuBefore = process.cpuUsage();
  const beginWindow = () => {
    measuring = true;
    serverCpuBefore = serverPid ? processCpuMs(serverPid) : null;
    clientCpuBefore = process.cpuUsage();
    windowStarted = performance.now();
  };
  if (warmupSeconds > 0) setTimeout(beginWindow, warmupSeconds * 1000).unref();
  else beginWindow();

  const result = await instance;
  const windowSeconds = (performance.now() - windowStarted) / 1000;
  const serverCpuAfter = serverPid ? processCpuMs(serverPid) : null;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  latencies.sort((a, b) => a - b);
  const served = counters.start + counters.answer + counters.next;
  const percentiles = (values: number[]) => {
    values.sort((a, b) => a - b);
    return { count: values.length, p50: round(quantile(values, 0.5), 2), p99: round(quantile(values, 0.99), 2) };
  };
  return {
    trainees: trainees.length,
    seconds: round(windowSeconds, 2),
    requests: latencies.length,
    requestsPerSecond: round(latencies.length / windowSeconds, 0),
    p50: round(quantile(latencies, 0.5), 2),
    p99: round(quantile(latencies, 0.99), 2),
    max: round(latencies.at(-1) ?? Number.NaN, 1),
    counters,
    byKind: {
      start: percentiles(kindLatencies.start),
      answer: percentiles(kindLatencies.answer),
      next: percentiles(kindLatencies.next),
    },
    serverCpuMsPerRequest:
      serverCpuBefore !== null && serverCpuAfter !== null && served > 0
        ? round((serverCpuAfter - serverCpuBefore) / served, 3)
        : null,
    clientCpuMsPerRequest: round((clientCpu.user + clientCpu.system) / 1000 / Math.max(1, latencies.length), 3),
    meanBodyChars: round(bodyChars / Math.max(1, latencies.length), 0),
    connectionErrors: result.errors,
    errorKinds,
    listenOverflows: listenOverflows() - overflowsBefore,
    timeouts: result.timeouts,
    loadAverage: round((await import('node:os')).loadavg()[0]!, 2),
  };
}
