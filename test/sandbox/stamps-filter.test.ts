/**
 * The sandbox playing services that keep the spec and differ from its defaults: stamps in whole
 * seconds (`stamps: 's'`) and a social list whose `status` filter lets other records through
 * (`looseStatusFilter`).
 */
import { startSandbox, type Sandbox } from '../../sandbox';
import { api } from './helpers';

const FRACTION = /\.\d+(Z|[+-]\d{2}:?\d{2})$/;
const STAMP = /_at$|timestamp|_end$/;

/** Every stamp-like field of a JSON body, by path. */
function stamps(
	value: unknown,
	path = '',
	out: Record<string, string> = {},
): Record<string, string> {
	if (Array.isArray(value)) value.forEach((v, i) => stamps(v, `${path}[${i}]`, out));
	else if (value !== null && typeof value === 'object') {
		for (const [key, field] of Object.entries(value)) {
			if (typeof field === 'string' && STAMP.test(key)) out[`${path}.${key}`] = field;
			else stamps(field, `${path}.${key}`, out);
		}
	}
	return out;
}

describe("stamps: 's'", () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox({ seed: 43, speed: 1000, stamps: 's' });
	});
	afterAll(async () => await sb.close());

	it('shows every created_at, updated_at and scheduled stamp in whole seconds', async () => {
		const [id] = sb.control.seedSocial(1, { status: 'completed', platforms: ['linkedin'] });
		const at = new Date(sb.control.now().getTime() + 86_400_123).toISOString();
		const published = await api(sb).post('/social/publish', { content_id: id, scheduled_at: at });
		expect(published.status).toBe(200);
		expect(published.data.data.scheduled_at).toBe(at.replace(/\.\d+Z$/, 'Z'));
		const answers = await Promise.all(
			[
				'/social/content?status=scheduled&limit=100',
				`/social/content/${id}`,
				'/articles',
				'/projects',
				'/user/credits',
			].map(async (path) => (await api(sb).get(path)).data),
		);
		const seen = Object.assign({}, ...answers.map((body, n) => stamps(body, `${n}`))) as Record<
			string,
			string
		>;
		expect(Object.keys(seen).filter((k) => /scheduled_publish_at$/.test(k)).length).toBeGreaterThan(
			0,
		);
		expect(Object.keys(seen).filter((k) => /updated_at$/.test(k)).length).toBeGreaterThan(10);
		expect(Object.entries(seen).filter(([, v]) => FRACTION.test(v))).toEqual([]);
		const record = answers[1].data as { scheduled_publish_at: string; updated_at: string };
		expect(record.scheduled_publish_at).toBe(at.replace(/\.\d+Z$/, 'Z'));
		expect(record.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
	});

	it("keeps milliseconds by default ('ms')", async () => {
		const plain = await startSandbox({ seed: 43, speed: 1000 });
		try {
			const body = (await api(plain).get('/social/content?limit=100')).data;
			expect(Object.values(stamps(body)).filter((v) => FRACTION.test(v)).length).toBeGreaterThan(0);
		} finally {
			await plain.close();
		}
	});
});

describe('looseStatusFilter', () => {
	it('lets some records of other statuses past ?status=, the same ones on every request, counted', async () => {
		const sb = await startSandbox({ seed: 44, speed: 1000, looseStatusFilter: true });
		const strict = await startSandbox({ seed: 44, speed: 1000 });
		try {
			for (const s of [sb, strict]) {
				s.control.seedSocial(40, { status: 'completed' });
				s.control.seedSocial(10, { status: 'scheduled' });
			}
			const read = async (s: Sandbox) => {
				const body = (await api(s).get('/social/content?status=scheduled&limit=100')).data;
				return {
					total: body.pagination.total as number,
					ids: (body.data as Array<{ id: string; status: string }>)
						.map((r) => `${r.id} ${r.status}`)
						.sort(),
				};
			};
			const strictRead = await read(strict);
			expect(strictRead.ids.every((r) => r.endsWith(' scheduled'))).toBe(true);
			const first = await read(sb);
			const others = first.ids.filter((r) => !r.endsWith(' scheduled'));
			expect(others.length).toBeGreaterThan(0);
			expect(first.ids.filter((r) => r.endsWith(' scheduled'))).toHaveLength(strictRead.ids.length);
			expect(first.total).toBe(first.ids.length);
			expect((await read(sb)).ids).toEqual(first.ids);
		} finally {
			await sb.close();
			await strict.close();
		}
	});
});
