// Images made by hand for tests and benchmarks (server API tests, e2e, bench), so none of them needs an image
// library. Never imported by application code: nothing here reaches a production bundle.
import { deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 that PNG chunks and ZIP entries carry. */
export function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** 8-bit greyscale (one byte a pixel) or 8-bit RGB (three). */
type Pixel = { kind: 'grey'; value: number } | { kind: 'rgb'; value: [number, number, number] };

function png(width: number, height: number, pixel: Pixel, rows: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = pixel.kind === 'grey' ? 0 : 2; // colour type: greyscale or truecolour
  const pixelBytes = pixel.kind === 'grey' ? [pixel.value] : pixel.value;
  const row = Buffer.alloc(1 + width * pixelBytes.length); // filter byte 0, then the pixels
  for (let x = 0; x < width; x += 1) row.set(pixelBytes, 1 + x * pixelBytes.length);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: rows }, () => row)), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG of one colour, `width` × `height` RGB pixels. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  return png(width, height, { kind: 'rgb', value: rgb }, height);
}

/**
 * A greyscale PNG declaring width × height whose image data is `rows` rows of zeros: with rows equal to height
 * it is a real image that inflates to width × height bytes; with fewer it is a tiny file declaring a huge canvas
 * (a decompression bomb's header).
 */
export function zeroPng(width: number, height: number, rows = height): Buffer {
  return png(width, height, { kind: 'grey', value: 0 }, rows);
}
