/** One poll as the tracker's parts share it: settings, reads of the service, what it has to say. */
import {
	isOutOfTime,
	keyOf,
	PAGE_SIZE,
	type ListResult,
	type Reader,
	type TrackedRecord,
	type TrackerReply,
	type TrackerRequest,
} from './reader';

/**
 * What a poll says in n8n's log when it is behind or cannot do something (each line once a poll,
 * in the order it happened): the node logs them as "ContentGen Trigger is behind: ...".
 */
export class Notes {
	readonly said: string[] = [];

	add(note: string): void {
		if (!this.said.includes(note)) this.said.push(note);
	}
}

export interface PollSettings {
	/** Host time when the poll started (Infinity when unknown): durations are measured on it. */
	startedAt: number;
	lookBackMs: number;
	articlePageSize: number;
	maxArticlePages: number;
	/** Optional reads (the search's pages and records) this poll may make. */
	budget: number;
}

/**
 * One poll as the tracker's parts share it: its settings, its reads of the service (each answer
 * that tells the service's clock sets `now`), the requests it may still spend on optional reads,
 * and what it has to say.
 */
export class PollRun {
	private clock: number;
	readonly startedAt: number;
	readonly lookBackMs: number;
	readonly articlePageSize: number;
	readonly maxArticlePages: number;
	readonly notes = new Notes();
	private budget: number;

	constructor(
		private readonly reader: Reader,
		settings: PollSettings,
	) {
		this.clock = settings.startedAt;
		this.startedAt = settings.startedAt;
		this.lookBackMs = settings.lookBackMs;
		this.articlePageSize = settings.articlePageSize;
		this.maxArticlePages = settings.maxArticlePages;
		this.budget = settings.budget;
	}

	/**
	 * The service's clock as last seen, else the n8n host's (epoch ms; Infinity when unknown):
	 * stamps ahead of it do not move a cursor.
	 */
	get now(): number {
		return this.clock;
	}

	/** Optional reads left in this poll. */
	get budgetLeft(): number {
		return this.budget;
	}

	private async ask(request: TrackerRequest): Promise<TrackerReply> {
		const reply = await this.reader(request);
		const serviceTime = (reply as ListResult | null)?.serviceTime;
		if (typeof serviceTime === 'number') this.clock = serviceTime;
		return reply;
	}

	/**
	 * A page of the article list, newest change first (or of one status's list); `met` keeps every
	 * article the whole list showed (repeats take their records there).
	 */
	async articles(
		page: number,
		limit: number,
		options: { status?: string; met?: Map<string, TrackedRecord> } = {},
	): Promise<ListResult> {
		const { status, met } = options;
		const request: TrackerRequest = {
			kind: 'articleList',
			page,
			limit,
			...(status ? { status } : {}),
		};
		const list = (await this.ask(request)) as ListResult;
		if (met && !status) {
			for (const record of list.items ?? []) {
				const key = keyOf(record.id);
				if (key) met.set(key, record);
			}
		}
		return list;
	}

	/** A page of the social list (or of one status's list) that the poll needs. */
	async social(page: number, status?: string): Promise<ListResult> {
		const request: TrackerRequest = {
			kind: 'socialList',
			page,
			limit: PAGE_SIZE,
			...(status ? { status } : {}),
		};
		return (await this.ask(request)) as ListResult;
	}

	/** A page of one status's social list while the poll has time; undefined once it has not. */
	async socialIfTime(page: number, status: string): Promise<ListResult | undefined> {
		const reply = await this.ask({
			kind: 'socialList',
			page,
			limit: PAGE_SIZE,
			status,
			optional: true,
		});
		return isOutOfTime(reply) ? undefined : (reply as ListResult);
	}

	/** One social record while the poll has time (null when gone); undefined once it has not. */
	async recordIfTime(id: string): Promise<TrackedRecord | null | undefined> {
		const reply = await this.ask({ kind: 'socialRecord', id, optional: true });
		return isOutOfTime(reply) ? undefined : (reply as TrackedRecord | null);
	}

	/** An optional read: spends the budget; undefined when it or the poll's time is gone. */
	private async spend(request: TrackerRequest): Promise<TrackerReply | undefined> {
		if (this.budget <= 0) return undefined;
		this.budget--;
		const reply = await this.ask(request);
		if (!isOutOfTime(reply)) return reply;
		this.budget = 0;
		return undefined;
	}

	/** A page of the whole social list, within the budget. */
	async searchPage(page: number): Promise<ListResult | undefined> {
		return (await this.spend({ kind: 'socialList', page, limit: PAGE_SIZE, optional: true })) as
			| ListResult
			| undefined;
	}

	/** One social record (null when gone), within the budget. */
	async searchRecord(id: string): Promise<TrackedRecord | null | undefined> {
		return (await this.spend({ kind: 'socialRecord', id, optional: true })) as
			| TrackedRecord
			| null
			| undefined;
	}
}
