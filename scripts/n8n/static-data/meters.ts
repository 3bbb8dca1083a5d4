/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a benchmark's meters: /proc, n8n's own database drivers */
/**
 * What the static-data benchmark reads besides n8n's answers: a process's bytes written to storage
 * and resident memory (/proc), and n8n's database, through the drivers n8n itself installed (`pg`,
 * `sqlite3` from the pinned n8n's folder): the stored static data's size and poll counter, the
 * executions' times, the column's type, and for Postgres the write-ahead log's position.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { createRequire } from 'module';
import { join } from 'path';

/** Bytes the process has caused to be written to storage (`write_bytes` of /proc/<pid>/io). */
export function writeBytes(pid: number): number {
	try {
		const io = readFileSync(`/proc/${pid}/io`, 'utf8');
		return Number(/^write_bytes:\s+(\d+)/m.exec(io)?.[1] ?? 0);
	} catch {
		return 0;
	}
}

/** Resident memory now and at its peak, in bytes (VmRSS, VmHWM of /proc/<pid>/status). */
export function memory(pid: number): { rss: number; peak: number } {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
		return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
	} catch {
		return { rss: NaN, peak: NaN };
	}
}

/** The process ids below `root` (its children, theirs, ...). */
export function descendants(root: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// the name in parentheses may hold spaces: the parent id is the second field after it
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// gone meanwhile
		}
	}
	const found: number[] = [];
	const walk = (pid: number) => {
		for (const child of children.get(pid) ?? []) {
			found.push(child);
			walk(child);
		}
	};
	walk(root);
	return found;
}

export interface StoredState {
	/** bytes of the stored JSON */
	bytes: number;
	/** the probe's poll counter as stored */
	polls: number | null;
	/** records in it, as stored */
	records: number;
}

export interface ExecutionTimes {
	startedAt: number;
	stoppedAt: number;
	status: string;
}

export interface Database {
	kind: 'postgres' | 'sqlite';
	state(workflowId: string, key: string): Promise<StoredState>;
	executions(workflowId: string): Promise<ExecutionTimes[]>;
	/** the staticData column's declared type */
	columnType(): Promise<string>;
	/** Postgres: the write-ahead log's position in bytes; SQLite: the database and WAL files' bytes */
	position(): Promise<number>;
	close(): Promise<void>;
}

type Row = Record<string, unknown>;
interface PgClient {
	connect(): Promise<void>;
	query(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
	end(): Promise<void>;
}
interface SqliteDb {
	all(sql: string, params: unknown[], done: (error: Error | null, rows: Row[]) => void): void;
	close(done: (error: Error | null) => void): void;
}
interface SqliteModule {
	OPEN_READONLY: number;
	Database: new (file: string, mode: number, done: (error: Error | null) => void) => SqliteDb;
}

const fromN8n = (n8nDir: string) =>
	createRequire(join(n8nDir, 'node_modules', 'n8n', 'package.json'));

const time = (value: unknown) =>
	value instanceof Date ? value.getTime() : Date.parse(`${String(value).replace(' ', 'T')}Z`);
const executionTimes = (r: Row): ExecutionTimes => ({
	startedAt: time(r.startedAt),
	stoppedAt: time(r.stoppedAt),
	status: String(r.status),
});

export async function postgres(
	n8nDir: string,
	c: { host: string; port: number; user: string; password: string; database: string },
): Promise<Database> {
	const { Client } = fromN8n(n8nDir)('pg') as { Client: new (config: object) => PgClient };
	const client = new Client(c);
	await client.connect();
	const one = async (sql: string, params: unknown[] = []) =>
		(await client.query(sql, params)).rows[0] ?? {};
	return {
		kind: 'postgres',
		async state(workflowId, key) {
			const row = await one(
				`SELECT octet_length("staticData"::text) AS bytes, "staticData"->($2::text)->>'polls' AS polls,
				 "staticData"->($2::text)->>'recordCount' AS records FROM workflow_entity WHERE id = $1`,
				[workflowId, key],
			);
			return {
				bytes: Number(row.bytes ?? 0),
				polls: row.polls == null ? null : Number(row.polls),
				records: Number(row.records ?? 0),
			};
		},
		async executions(workflowId) {
			const { rows } = await client.query(
				`SELECT "startedAt", "stoppedAt", status FROM execution_entity WHERE "workflowId" = $1`,
				[workflowId],
			);
			return rows.map(executionTimes);
		},
		async columnType() {
			const row = await one(
				`SELECT data_type FROM information_schema.columns
				 WHERE table_name = 'workflow_entity' AND column_name = 'staticData'`,
			);
			return String(row.data_type);
		},
		async position() {
			return Number((await one(`SELECT pg_current_wal_lsn() - '0/0' AS b`)).b);
		},
		close: () => client.end(),
	};
}

export function sqlite(n8nDir: string, file: string): Database {
	const driver = fromN8n(n8nDir)('sqlite3') as SqliteModule;
	// a connection per read: n8n checkpoints its WAL freely between them
	const all = (sql: string, params: unknown[] = []) =>
		new Promise<Row[]>((resolve, reject) => {
			const db = new driver.Database(file, driver.OPEN_READONLY, (error) => {
				if (error) return reject(error);
				db.all(sql, params, (failed, rows) => {
					db.close(() => (failed ? reject(failed) : resolve(rows)));
				});
			});
		});
	const size = (path: string) => {
		try {
			return statSync(path).size;
		} catch {
			return 0;
		}
	};
	return {
		kind: 'sqlite',
		async state(workflowId, key) {
			const [row] = await all(
				`SELECT length(CAST(staticData AS BLOB)) AS bytes,
				 json_extract(staticData, '$."' || ? || '".polls') AS polls,
				 json_extract(staticData, '$."' || ? || '".recordCount') AS records
				 FROM workflow_entity WHERE id = ?`,
				[key, key, workflowId],
			);
			return {
				bytes: Number(row?.bytes ?? 0),
				polls: row?.polls == null ? null : Number(row.polls),
				records: Number(row?.records ?? 0),
			};
		},
		async executions(workflowId) {
			const rows = await all(
				`SELECT startedAt, stoppedAt, status FROM execution_entity WHERE workflowId = ?`,
				[workflowId],
			);
			return rows.map(executionTimes);
		},
		async columnType() {
			const [row] = await all(
				`SELECT type FROM pragma_table_info('workflow_entity') WHERE name = 'staticData'`,
			);
			return String(row?.type);
		},
		async position() {
			return size(file) + size(`${file}-wal`);
		},
		close: async () => undefined,
	};
}
