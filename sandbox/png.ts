/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev-only sandbox: zlib builds the PNG data stream */
import { deflateSync } from 'zlib';

const CRC_TABLE: number[] = (() => {
	const table: number[] = [];
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table.push(c >>> 0);
	}
	return table;
})();

export function crc32(buf: Buffer): number {
	let c = 0xffffffff;
	for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length, 0);
	const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typeAndData), 0);
	return Buffer.concat([len, typeAndData, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A valid RGB PNG of size x size: a diagonal two-tone pattern in the colour derived from `seed`. */
export function makePng(seed: number, size = 8): Buffer {
	const r = seed & 0xff;
	const g = (seed >>> 8) & 0xff;
	const b = (seed >>> 16) & 0xff;
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(size, 0);
	ihdr.writeUInt32BE(size, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // colour type: truecolour
	ihdr[10] = 0;
	ihdr[11] = 0;
	ihdr[12] = 0;
	const raw = Buffer.alloc(size * (1 + size * 3));
	for (let y = 0; y < size; y++) {
		const row = y * (1 + size * 3);
		raw[row] = 0; // filter: none
		for (let x = 0; x < size; x++) {
			const light = (x + y) % 2 === 0;
			const p = row + 1 + x * 3;
			raw[p] = light ? r : 255 - r;
			raw[p + 1] = light ? g : 255 - g;
			raw[p + 2] = light ? b : 255 - b;
		}
	}
	return Buffer.concat([
		PNG_SIGNATURE,
		chunk('IHDR', ihdr),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/** Placeholder video: an ISO BMFF `ftyp` box only (right magic bytes, not playable). */
export function makeMp4Placeholder(): Buffer {
	const body = Buffer.concat([
		Buffer.from('isom', 'ascii'),
		Buffer.from([0, 0, 2, 0]),
		Buffer.from('isomiso2mp41', 'ascii'),
	]);
	const size = Buffer.alloc(4);
	size.writeUInt32BE(body.length + 8, 0);
	return Buffer.concat([size, Buffer.from('ftyp', 'ascii'), body]);
}
