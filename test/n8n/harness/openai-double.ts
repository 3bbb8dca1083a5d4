/* eslint-disable no-console, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- dev-only process host: prints to stdout, reads argv, serves loopback HTTP */
// A scripted stand-in for an OpenAI-compatible chat-completions server, so the AI-agent example runs in
// a real n8n without a model. It plays one conversation, deciding each turn from what the agent sent:
// list projects (limit 3) -> generate an article for the first project id the tool returned ->
// check credits -> a final answer quoting the article's title and status and the balance, taken from
// the tool results. Tools are recognised by name/description, so renaming a node does not break it.
// Everything received is recorded and served at GET /record (the agent's messages and tool schemas).
//
//   tsx test/n8n/harness/openai-double.ts [--port 0]
// Prints one JSON line once it listens: {"url": "http://127.0.0.1:<port>/v1", "recordUrl": "..."}
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

export const SCRIPT = {
	projectsLimit: 3,
	topic: 'How to price a website redesign for a small business',
	tone: 'conversational',
};

interface ToolCall {
	id: string;
	type: 'function';
	function: { name: string; arguments: string };
}
interface Message {
	role: string;
	content?: unknown;
	tool_calls?: ToolCall[];
	tool_call_id?: string;
}
interface Tool {
	type: string;
	function?: { name: string; description?: string; parameters?: unknown };
}
interface ChatRequest {
	model?: string;
	messages?: Message[];
	tools?: Tool[];
	stream?: boolean;
}
export interface RecordedRequest {
	method: string;
	path: string;
	at: string;
	body?: unknown;
	/** what the double answered: a tool call (name + arguments) or the final text */
	answer?: { tool?: string; arguments?: Record<string, unknown>; text?: string };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function text(content: unknown): string {
	if (typeof content === 'string') return content;
	if (Array.isArray(content)) {
		return content
			.map((part) => (typeof part === 'string' ? part : ((part as { text?: string }).text ?? '')))
			.join('');
	}
	return content === undefined || content === null ? '' : JSON.stringify(content);
}

/** The first value of `field` in a tool result, which n8n sends as JSON text of the node's items. */
function field(result: string, name: string): string | undefined {
	const match = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*"|-?[0-9.]+)`).exec(result);
	return match ? String(JSON.parse(match[1])) : undefined;
}

function findTool(tools: Tool[], pattern: RegExp, not?: RegExp): string | undefined {
	return tools
		.map((t) => t.function)
		.find(
			(f) => f && pattern.test(`${f.name} ${f.description ?? ''}`) && !(not && not.test(f.name)),
		)?.name;
}

/** The next turn of the scripted conversation. */
export function nextTurn(request: ChatRequest): {
	tool?: string;
	arguments?: Record<string, unknown>;
	text?: string;
} {
	const messages = request.messages ?? [];
	const tools = request.tools ?? [];
	const called = new Map<string, string>(); // tool name -> its result text
	for (const message of messages) {
		for (const call of message.tool_calls ?? []) called.set(call.function.name, '');
	}
	for (const message of messages) {
		if (message.role !== 'tool') continue;
		const call = messages
			.flatMap((m) => m.tool_calls ?? [])
			.find((c) => c.id === message.tool_call_id);
		if (call) called.set(call.function.name, text(message.content));
	}
	const projects = findTool(tools, /project/i, /generate|article/i);
	const generate = findTool(tools, /generate|article/i, /project|credit/i);
	const credits = findTool(tools, /credit/i, /generate/i);
	if (!projects || !generate || !credits) {
		return { text: `Missing tools: got ${tools.map((t) => t.function?.name).join(', ')}` };
	}
	if (!called.has(projects)) {
		return { tool: projects, arguments: { limit: SCRIPT.projectsLimit, search: '' } };
	}
	if (!called.has(generate)) {
		const projectId = UUID.exec(called.get(projects) ?? '')?.[0];
		if (!projectId) return { text: 'I could not find a project id in the project list.' };
		return {
			tool: generate,
			arguments: { topic: SCRIPT.topic, projectId, tone: SCRIPT.tone },
		};
	}
	if (!called.has(credits)) return { tool: credits, arguments: {} };
	const article = called.get(generate) ?? '';
	const balance = called.get(credits) ?? '';
	return {
		text: `Done: your article "${field(article, 'title')}" is ${field(article, 'status')}. You have ${field(balance, 'available_credits')} credits left.`,
	};
}

function completion(request: ChatRequest, turn: ReturnType<typeof nextTurn>, n: number) {
	const message = turn.tool
		? {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: `call_${n}`,
						type: 'function',
						function: { name: turn.tool, arguments: JSON.stringify(turn.arguments ?? {}) },
					},
				],
			}
		: { role: 'assistant', content: turn.text ?? '' };
	return {
		id: `chatcmpl-double-${n}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model ?? 'double',
		choices: [{ index: 0, message, finish_reason: turn.tool ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** The same answer as server-sent events, for clients that ask for a stream. */
function streamChunks(body: ReturnType<typeof completion>): string[] {
	const { message, finish_reason } = body.choices[0];
	const base = {
		id: body.id,
		object: 'chat.completion.chunk',
		created: body.created,
		model: body.model,
	};
	const delta =
		'tool_calls' in message && message.tool_calls
			? {
					role: 'assistant',
					content: null,
					tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })),
				}
			: { role: 'assistant', content: message.content };
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason }], usage: body.usage },
	].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const raw = Buffer.concat(chunks).toString('utf8');
	try {
		return raw ? JSON.parse(raw) : undefined;
	} catch {
		return raw;
	}
}

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

async function main(): Promise<void> {
	const record: RecordedRequest[] = [];
	const server = createServer((req, res) => {
		void (async () => {
			const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
			if (req.method === 'GET' && path === '/record') return send(res, 200, record);
			const entry: RecordedRequest = {
				method: req.method ?? '',
				path,
				at: new Date().toISOString(),
				body: await readJson(req),
			};
			record.push(entry);
			if (req.method === 'GET' && /\/models$/.test(path)) {
				return send(res, 200, {
					object: 'list',
					data: [{ id: 'gpt-5-mini', object: 'model', created: 0, owned_by: 'double' }],
				});
			}
			if (req.method === 'POST' && /\/chat\/completions$/.test(path)) {
				const request = (entry.body ?? {}) as ChatRequest;
				const turn = nextTurn(request);
				entry.answer = turn;
				const body = completion(request, turn, record.length);
				if (request.stream) {
					res.writeHead(200, { 'Content-Type': 'text/event-stream' });
					for (const chunk of streamChunks(body)) res.write(chunk);
					res.end('data: [DONE]\n\n');
					return;
				}
				return send(res, 200, body);
			}
			send(res, 404, {
				error: {
					message: `the double does not serve ${req.method} ${path}`,
					type: 'invalid_request_error',
				},
			});
		})().catch((error: unknown) => send(res, 500, { error: { message: String(error) } }));
	});
	const port = Number(process.argv[process.argv.indexOf('--port') + 1] ?? 0) || 0;
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
	const { port: bound } = server.address() as AddressInfo;
	console.log(
		JSON.stringify({
			url: `http://127.0.0.1:${bound}/v1`,
			recordUrl: `http://127.0.0.1:${bound}/record`,
		}),
	);
	const shutdown = () => server.close(() => process.exit(0));
	process.on('SIGTERM', shutdown);
	process.on('SIGINT', shutdown);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
