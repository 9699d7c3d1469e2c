import { crc32 } from '../../test-support/png';

export { zeroPng } from '../../test-support/png';

/** A ZIP archive holding one stored (uncompressed) file. */
export function storedZip(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralOffset = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}

export interface FilePart {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export const BOUNDARY = '----tradecraftbench7MA4YWxkTrZu0gW';

/** A multipart/form-data body with the file in the field `file`. */
export function multipartBody(part: FilePart): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${part.filename.replace(/"/g, '%22')}"\r\n` +
        `Content-Type: ${part.contentType}\r\n\r\n`,
    ),
    part.bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
