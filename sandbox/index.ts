// Local implementation of the whole content generation API, for tests, the demo and benchmarks.
import { createHash, randomBytes } from 'crypto';

import { Clock } from './clock';
import { PERMISSIONS, PLANS, PLATFORMS, SCOPES } from './constants';
import { Faults } from './faults';
import { Network } from './network';
import { Rng } from './prng';
import {
	assertArticleStatus,
	assertSocialStatus,
	newArticle,
	newSocial,
	seedWorld,
	TOPICS,
} from './seed';
import { loadAccount } from './account';
import { World, type WireRequest } from './server';
import { formatCredits, Store, toHundredths } from './store';
import type { Sandbox, SandboxControl, SandboxOptions } from './types';
import { UsageBook } from './usage';
import type { WireAnswer } from './wire';

export type { WireAnswer } from './wire';
export type { WireRequest } from './server';

export type {
	AccountRecords,
	FaultConfig,
	LedgerEntry,
	Plan,
	RequestLogEntry,
	Sandbox,
	SandboxControl,
	SandboxOptions,
	SocialListOrder,
} from './types';

export const SANDBOX_KEY = /^svc_[0-9a-f]{64}$/;

/** The default key of a seeded sandbox: the same on every start, so a saved credential keeps working. */
export function seededKey(seed: number): string {
	return (
		'svc_' +
		createHash('sha256')
			.update(`contentgen-sandbox-key:${seed >>> 0}`)
			.digest('hex')
	);
}

/**
 * A sandbox that answers in this process, without a socket: the same routes, records and
 * control as a started one (a test's interceptor hands it the requests it catches).
 */
export interface InProcessSandbox extends Omit<Sandbox, 'url' | 'close'> {
	/** The answer to one request; null when a fault drops the connection. */
	handle(request: WireRequest): Promise<WireAnswer | null>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const { world, apiKey, sessionCookie, control } = createWorld(options);
	const url = await world.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	return { url, apiKey, sessionCookie, control, close: () => world.close() };
}

export function createSandbox(options: SandboxOptions = {}): InProcessSandbox {
	const { world, apiKey, sessionCookie, control } = createWorld(options);
	return { apiKey, sessionCookie, control, handle: (request) => world.handle(request) };
}

function createWorld(options: SandboxOptions) {
	const speed = options.speed ?? 1;
	// Infinity is allowed: every job is done by the next request
	if (!(speed > 0)) throw new Error('speed must be a positive number');
	const plan = options.plan ?? 'Business';
	if (!PLANS.includes(plan)) throw new Error(`unknown plan ${plan}`);
	const seed = options.seed ?? randomBytes(4).readUInt32LE(0);
	if (options.apiKey !== undefined && !SANDBOX_KEY.test(options.apiKey))
		throw new Error('apiKey must be svc_ followed by 64 hexadecimal characters');
	const defaultKey = options.apiKey ?? (options.seed === undefined ? undefined : seededKey(seed));

	const clock = new Clock();
	if (options.ids !== undefined && options.ids !== 'v4' && options.ids !== 'v7')
		throw new Error("ids must be 'v4' or 'v7'");
	// independent streams: fault rolls and list order must not shift generated data
	const rng = new Rng(seed);
	const v7 = options.ids === 'v7' ? () => rng.uuidv7(clock.nowMs()) : undefined;
	const store = new Store(clock, rng, speed, options.recordIds ?? v7);
	const rateWindowMs = options.rateWindowMs ?? 60_000;
	if (!Number.isInteger(rateWindowMs) || rateWindowMs < 1000)
		throw new Error('rateWindowMs must be a whole number of milliseconds, at least 1000');
	store.rateWindowMs = rateWindowMs;
	const faults = new Faults(new Rng(seed ^ 0x5bd1e995));
	const listRng = new Rng(seed ^ 0x27d4eb2f);
	const network = new Network(new Rng(seed ^ 0x1b873593));
	network.set(options.latencyMs ?? 0, options.jitterMs ?? 0);
	const usage = new UsageBook();
	const now = clock.nowMs();
	const { defaultUser, otherUser, noProjectUser } = seedWorld(store, usage, {
		plan,
		credits: options.credits ?? { subscription: 100, purchased: 25 },
		socialProfiles: options.socialProfiles ?? 3,
		now,
		demo: !options.account,
	});
	if (options.account) loadAccount(store, usage, defaultUser, options.account, now);
	const world = new World(store, usage, faults, clock, listRng, network, {
		authFailureStatus: options.authFailureStatus ?? 401,
		socialListOrder: options.socialListOrder ?? 'shuffled',
		// the library is silent unless asked; the CLI turns the request log on
		quiet: options.quiet ?? true,
		mediaUrl: options.mediaUrl,
		videos: options.videos ?? true,
	});
	const sessionCookie = world.addSession(defaultUser);
	world.addSession(otherUser);

	const { key: apiKey } = store.createKey(
		defaultUser.id,
		{
			name: 'Sandbox default key',
			permissions: [...PERMISSIONS],
			scopes: [...SCOPES],
			key: defaultKey,
		},
		now,
	);
	store.createKey(
		otherUser.id,
		{ name: 'Other user key', permissions: [...PERMISSIONS], scopes: [...SCOPES] },
		now,
	);

	const userOf = (userId?: string) => store.user(userId ?? defaultUser.id);
	const projectFor = (userId: string, projectId?: string) => {
		if (projectId) {
			const p = store.ownedProject(userId, projectId);
			if (!p) throw new Error(`project ${projectId} does not belong to user ${userId}`);
			return p;
		}
		const p = store.activeProject(userId);
		if (!p) throw new Error(`user ${userId} has no project`);
		return p;
	};

	const control: SandboxControl = {
		defaultUserId: defaultUser.id,
		otherUserId: otherUser.id,
		noProjectUserId: noProjectUser.id,
		requests: () => world.log.map((e) => ({ ...e, query: { ...e.query } })),
		resetRequests: () => {
			world.log.length = 0;
		},
		ledger: () => store.ledgerEntries.map((e) => ({ ...e })),
		setFaults: (f) => faults.set(f),
		clearFaults: () => faults.clear(),
		advance: (ms) => clock.advance(ms),
		now: () => clock.now(),
		forceOutcome: (kind, outcome, count = 1) => {
			if (kind === 'article') {
				if (outcome !== 'cms' && outcome !== 'needs_editing' && outcome !== 'failed') {
					throw new Error(`article outcome must be cms, needs_editing or failed, not ${outcome}`);
				}
				for (let i = 0; i < count; i++) store.forced.article.push(outcome);
			} else {
				if (outcome !== 'completed' && outcome !== 'ready' && outcome !== 'failed') {
					throw new Error(`social outcome must be completed, ready or failed, not ${outcome}`);
				}
				for (let i = 0; i < count; i++) store.forced.social.push(outcome);
			}
		},
		setSocialProfiles: (n, userId) => {
			if (!Number.isInteger(n) || n < 0) throw new Error('social profiles must be an integer >= 0');
			userOf(userId).socialProfiles = n;
		},
		setCredits: (c, userId) => {
			const u = userOf(userId);
			u.subscriptionH = toHundredths(c.subscription);
			u.purchasedH = toHundredths(c.purchased);
		},
		credits: (userId) => {
			const u = userOf(userId);
			return {
				available: formatCredits(u.subscriptionH + u.purchasedH),
				subscription: formatCredits(u.subscriptionH),
				purchased: formatCredits(u.purchasedH),
				usedThisMonth: formatCredits(u.usedThisMonthH),
			};
		},
		setRateLimit: (l, userId) => {
			if (!Number.isInteger(l.perMinute) || l.perMinute < 0)
				throw new Error('perMinute must be an integer >= 0');
			if (!Number.isInteger(l.perDay) || l.perDay < -1)
				throw new Error('perDay must be an integer >= -1');
			userOf(userId).rateLimit = { perMinute: l.perMinute, perDay: l.perDay };
		},
		setLatency: (latencyMs, jitterMs = 0) => network.set(latencyMs, jitterMs),
		createKey: (o) => {
			const u = userOf(o.userId);
			for (const p of o.permissions ?? []) {
				if (!(PERMISSIONS as readonly string[]).includes(p))
					throw new Error(`unknown permission ${p}`);
			}
			for (const s of o.scopes ?? []) {
				if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`unknown scope ${s}`);
			}
			return store.createKey(
				u.id,
				{
					name: o.name ?? 'Test key',
					permissions: o.permissions ?? [...PERMISSIONS],
					scopes: o.scopes ?? [...SCOPES],
					expiresInDays: o.expiresInDays,
				},
				clock.nowMs(),
			).key;
		},
		seedArticles: (n, o = {}) => {
			const u = userOf(o.userId);
			const status = o.status ?? 'cms';
			assertArticleStatus(status);
			const project = projectFor(u.id, o.projectId);
			const t = clock.nowMs();
			const ids: string[] = [];
			const spacing = o.spacingMs ?? 1000;
			for (let i = 0; i < n; i++) {
				// spaced one second apart (by default), the newest last, so every order is well defined
				const created = t - (n - i) * spacing;
				const a = newArticle(store, {
					userId: u.id,
					project,
					topic: `${TOPICS[i % TOPICS.length]} (part ${i + 1})`,
					status,
					createdAt: created,
				});
				store.addArticle(a);
				ids.push(a.id);
			}
			return ids;
		},
		seedSocial: (n, o = {}) => {
			const u = userOf(o.userId);
			const status = o.status ?? 'completed';
			assertSocialStatus(status);
			const platforms = o.platforms ?? ['instagram', 'linkedin'];
			for (const p of platforms) {
				if (!(PLATFORMS as readonly string[]).includes(p)) throw new Error(`unknown platform ${p}`);
			}
			const project = projectFor(u.id, o.projectId);
			const articlesOfUser = store.articlesOf(u.id);
			const t = clock.nowMs();
			const ids: string[] = [];
			const spacing = o.spacingMs ?? 1000;
			for (let i = 0; i < n; i++) {
				const created = t - (n - i) * spacing;
				const source = articlesOfUser[i % Math.max(1, articlesOfUser.length)];
				const s = newSocial(store, {
					userId: u.id,
					project,
					articleId: source ? source.id : store.rng.uuid(),
					title: `${TOPICS[i % TOPICS.length]} (post ${i + 1})`,
					sourceUrl: `${project.business_website}/blog/post-${i + 1}`,
					platforms,
					status,
					createdAt: created,
				});
				store.addSocial(s);
				if (status === 'scheduled') {
					store.startPublish(s, o.scheduledAt ? o.scheduledAt(i) : t + 86_400_000, created);
				}
				ids.push(s.id);
			}
			return ids;
		},
		setArticleStatus: (id, status) => store.setArticleStatus(id, status, clock.nowMs()),
		setSocialStatus: (id, status, scheduledAt) =>
			store.setSocialStatus(id, status, clock.nowMs(), scheduledAt),
		projects: (userId) =>
			store
				.projectsOf(userOf(userId).id)
				.map((p) => ({ id: p.id, business_name: p.business_name })),
	};

	return { world, apiKey, sessionCookie, control };
}
