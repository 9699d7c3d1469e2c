import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused upload's connection keeps swallowing what the client still sends before it is closed. */
const LINGER_MS = 2000;

/**
 * The bytes of an uploaded file, or null as soon as it passes the multipart size limit. The plugin's
 * toBuffer() only reports the limit once the whole request has arrived (a 1 GB upload is read to its end
 * first); this stops at the limit, and the answer closes the connection so the client stops sending.
 */
export function readUploadWithinLimit(part: MultipartFile, request: FastifyRequest, reply: FastifyReply): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const tooLarge = () => {
      chunks.length = 0;
      closeAfterAnswer(request, reply);
      part.file.destroy();
      resolve(null);
    };
    if (part.file.truncated) return tooLarge();
    part.file.on('data', (chunk: Buffer) => chunks.push(chunk));
    part.file.once('limit', tooLarge);
    part.file.once('end', () => (part.file.truncated ? tooLarge() : resolve(Buffer.concat(chunks))));
    part.file.once('error', reject);
  });
}

/**
 * Answers with `Connection: close`. Node would then reset the connection at once while the client is still
 * sending, and a reset can throw the answer away before the client reads it; instead the server stops
 * writing, swallows what still arrives for a moment (a lingering close), then closes.
 */
function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  void reply.header('connection', 'close');
  const socket = request.raw.socket;
  socket.destroySoon = () => {
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
