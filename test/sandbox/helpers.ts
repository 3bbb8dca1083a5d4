/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test helper: waits between polls with a real timer */
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';

import type { Sandbox } from '../../sandbox';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Client for the Bearer routes; never throws on an HTTP status. */
export function api(sb: Sandbox, key: string | null = sb.apiKey): AxiosInstance {
	return axios.create({
		baseURL: `${sb.url}/api/v1`,
		validateStatus: () => true,
		headers: key === null ? {} : { Authorization: `Bearer ${key}` },
	});
}

/** Client for the session-only key routes. */
export function session(sb: Sandbox, cookie: string | null = sb.sessionCookie): AxiosInstance {
	return axios.create({
		baseURL: `${sb.url}/api/v1`,
		validateStatus: () => true,
		headers: cookie === null ? {} : { Cookie: cookie },
	});
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `get` until `done` holds (at most `tries` times); returns the last response. */
export async function pollUntil(
	get: () => Promise<AxiosResponse>,
	done: (r: AxiosResponse) => boolean,
	tries = 100,
	waitMs = 10,
): Promise<AxiosResponse> {
	let r = await get();
	for (let i = 0; i < tries && !done(r); i++) {
		await sleep(waitMs);
		r = await get();
	}
	return r;
}

export function expectError(
	r: AxiosResponse,
	status: number,
	code: string,
	messagePart?: RegExp,
): void {
	expect(r.status).toBe(status);
	expect(r.data).toEqual({
		success: false,
		error: { code, message: expect.any(String) },
		meta: { request_id: expect.stringMatching(/\S/), timestamp: expect.any(String) },
	});
	expect(r.headers['x-request-id']).toBe(r.data.meta.request_id);
	expect(Number.isNaN(Date.parse(r.data.meta.timestamp))).toBe(false);
	if (messagePart) expect(r.data.error.message).toMatch(messagePart);
}

/** Generates one social record and lets the clock settle it; returns its id. */
export async function finishedSocial(
	sb: Sandbox,
	platforms: string[],
	outcome: 'completed' | 'ready' = 'completed',
): Promise<string> {
	sb.control.forceOutcome('social', outcome);
	const g = await api(sb).post('/social/generate', {
		source_url: 'https://blog.example/posts/latte-art',
		platforms,
	});
	expect(g.status).toBe(202);
	sb.control.advance(41_000);
	return g.data.data.content_id as string;
}
