/* eslint-disable @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- dev-only loader fix for running TypeScript sources under tsx */
/**
 * Under tsx, `require('./ContentGen.node')` finds the codex file `ContentGen.node.json` before the
 * TypeScript source (Node tries .json before tsx's .ts). Prefer the source when both exist.
 */
import { existsSync } from 'fs';

const Module = require('module') as {
	_resolveFilename: (request: string, ...rest: unknown[]) => string;
};
const original = Module._resolveFilename;
Module._resolveFilename = function (request: string, ...rest: unknown[]): string {
	const resolved = original.call(this, request, ...rest);
	if (resolved.endsWith('.node.json') && !request.endsWith('.json')) {
		const source = resolved.replace(/\.json$/, '.ts');
		if (existsSync(source)) return source;
	}
	return resolved;
};
