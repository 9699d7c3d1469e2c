import { PROFILE_MESSAGES, PROFILE_PHOTO_MAX_SIDE, PROFILE_PHOTO_TYPES } from '@tradecraft/shared';
import { fileTypeFromBuffer } from 'file-type';
import { badRequest } from '../../errors';
import { lazyModule } from '../../plugins/lazy-module';

const sharpModule = lazyModule(() => import('sharp'));

/** 25 megapixels: any photo under 2 MB fits; a small file declaring a huge canvas (a decompression bomb) does not. */
export const PROFILE_PHOTO_MAX_PIXELS = 25_000_000;

// The types file-type names for the pictures we take; an animated PNG is still a PNG.
const ACCEPTED = new Set<string>([...PROFILE_PHOTO_TYPES, 'image/apng']);
const SHARP_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);

export const PROFILE_PHOTO_CONTENT_TYPE = 'image/webp';

// Pictures are re-encoded one at a time (see normalizeProfilePhoto).
let queue: Promise<unknown> = Promise.resolve();

/**
 * Tells the type from the bytes, then decodes and re-encodes the picture as a WebP of at most 512 px, turned
 * upright per its EXIF orientation. Re-encoding drops the metadata (location, camera) and anything hidden in
 * the file; only the pixels survive.
 */
export function normalizeProfilePhoto(bytes: Buffer): Promise<Buffer> {
  // One picture at a time: decoding a large one takes around 100 MB, so memory stays bounded under load.
  const result = queue.then(() => reencode(bytes));
  queue = result.catch(() => undefined);
  return result;
}

async function reencode(bytes: Buffer): Promise<Buffer> {
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !ACCEPTED.has(detected.mime)) throw badRequest(PROFILE_MESSAGES.photoType);

  // Only the first frame of an animation; the pixel limit is checked from the header, before decoding.
  const { default: sharp } = await sharpModule();
  const image = sharp(bytes, { limitInputPixels: PROFILE_PHOTO_MAX_PIXELS, failOn: 'error', animated: false });
  let format: string | undefined;
  let pixels = 0;
  try {
    const metadata = await image.metadata();
    format = metadata.format;
    pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  } catch (error) {
    throw badRequest(isPixelLimit(error) ? PROFILE_MESSAGES.photoTooManyPixels : PROFILE_MESSAGES.photoUnreadable);
  }
  if (!format || !SHARP_FORMATS.has(format)) throw badRequest(PROFILE_MESSAGES.photoType);
  if (pixels > PROFILE_PHOTO_MAX_PIXELS) throw badRequest(PROFILE_MESSAGES.photoTooManyPixels);

  try {
    return await image
      .autoOrient()
      .resize(PROFILE_PHOTO_MAX_SIDE, PROFILE_PHOTO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch (error) {
    throw badRequest(isPixelLimit(error) ? PROFILE_MESSAGES.photoTooManyPixels : PROFILE_MESSAGES.photoUnreadable);
  }
}

const isPixelLimit = (error: unknown) => error instanceof Error && /pixel limit/i.test(error.message);
