import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors';
import { closeAfterAnswer } from '../../plugins/lingering-close';

/** What a client hears when the multipart parser cannot read its body. */
export const UPLOAD_UNREADABLE = 'The upload could not be read. Send the file as multipart/form-data.';

/**
 * The multipart parser's own failures (a body cut off, a malformed part header, no boundary) are the client's
 * fault: a 400, logged at info. Only they: an error with a status of its own keeps it, and anything that fails
 * after the file is read (the checker, the database) is not passed through here, so it stays a 500 logged at
 * error instead of hiding as "could not be read".
 */
function parserFailure(error: unknown, request: FastifyRequest): unknown {
  if (error instanceof AppError || typeof (error as { statusCode?: unknown }).statusCode === 'number') return error;
  request.log.info({ err: error }, 'malformed multipart body');
  return new AppError(400, UPLOAD_UNREADABLE);
}

/** The first file part of a multipart request, or undefined when there is none; a parser failure is a 400. */
export async function filePart(
  request: FastifyRequest,
  options?: Parameters<FastifyRequest['file']>[0],
): Promise<MultipartFile | undefined> {
  try {
    return await request.file(options);
  } catch (error) {
    throw parserFailure(error, request);
  }
}

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
    part.file.once('error', (error) => reject(parserFailure(error, request)));
  });
}
