import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused request's connection keeps swallowing what the client still sends before it is closed. */
const LINGER_MS = 2000;

/**
 * Answers with `Connection: close` for a request whose body is refused while the client is still sending it
 * (too large). Node would reset the connection right after the answer, and a reset can throw the answer away
 * before the client reads it; instead the server stops writing, swallows what still arrives for a moment (a
 * lingering close), then closes.
 */
export function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('connection', 'close');
  const socket = request.raw.socket;
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
