// A minimal zip reader (stored and deflated entries, no zip64) — enough to unpack a .vsix, so the
// harness needs no `unzip` binary. Guards against entries escaping the destination.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

function entries(buf, file) {
  const min = Math.max(0, buf.length - 65_557);
  let eocd = -1;
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file}: not a zip file (no end-of-central-directory record)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: corrupt central directory at ${at}`);
    const method = buf.readUInt16LE(at + 10);
    const compSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    out.push({ name, method, compSize, size, local });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

function data(buf, e, file) {
  if (buf.readUInt32LE(e.local) !== 0x04034b50) throw new Error(`${file}: bad local header for ${e.name}`);
  const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
  const raw = buf.subarray(start, start + e.compSize);
  if (e.method === 0) return raw;
  if (e.method === 8) return inflateRawSync(raw);
  throw new Error(`${file}: ${e.name} uses unsupported compression method ${e.method}`);
}

/** Lists entry names. */
export function listZip(file) {
  return entries(readFileSync(file), file).map((e) => e.name);
}

/** Reads one entry as a Buffer (undefined when absent). */
export function readZipEntry(file, name) {
  const buf = readFileSync(file);
  const e = entries(buf, file).find((x) => x.name === name);
  return e && data(buf, e, file);
}

/** Extracts the entries under `prefix` (e.g. 'extension/') into destDir, stripping the prefix. */
export function extractZip(file, destDir, prefix = '') {
  const buf = readFileSync(file);
  const root = resolve(destDir);
  let n = 0;
  for (const e of entries(buf, file)) {
    if (!e.name.startsWith(prefix) || e.name.endsWith('/')) continue;
    const target = resolve(root, e.name.slice(prefix.length));
    if (target !== root && !target.startsWith(root + sep))
      throw new Error(`${file}: entry ${e.name} escapes the destination`);
    mkdirSync(dirname(target), { recursive: true });
    const bytes = data(buf, e, file);
    if (bytes.length !== e.size)
      throw new Error(`${file}: ${e.name} unpacked to ${bytes.length} bytes, expected ${e.size}`);
    writeFileSync(target, bytes);
    n++;
  }
  if (n === 0) throw new Error(`${file}: no entries under "${prefix}"`);
  return join(root);
}
