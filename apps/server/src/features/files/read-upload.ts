import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { closeAfterAnswer } from '../../plugins/lingering-close';

/**
 * The bytes of an uploaded file, or null as soon as it passes the multipart size limit. The plugin's
 * toBuffer() only reports the limit once the whole request has arrived (a 1 GB upload is read to its end
 * first); this stops at the limit, and the answer closes the connection so the client stops sending.
 */
export function readUploadWithinLimit(
  part: MultipartFile,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Buffer | null> {
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
