// Judges a run of the AI-agent example (examples/ai-agent-tool.json) against the scripted model of
// openai-double.ts, from three witnesses: what the model double received and answered, what the
// sandbox received and charged, and what n8n returned.
import type { Sandbox } from '../../../sandbox';
import { extractRun, type Verdict } from './judge';
import type { RecordedRequest } from './openai-double';

interface Task {
	data?: Record<string, Array<Array<{ json: Record<string, unknown> }> | null>>;
}

/** The first output item of a node, whatever connection type it outputs on (main or ai_tool). */
function firstItem(tasks: Task[] | undefined): Record<string, unknown> | undefined {
	for (const task of tasks ?? []) {
		for (const branches of Object.values(task.data ?? {})) {
			for (const branch of branches) if (branch?.[0]) return branch[0].json;
		}
	}
	return undefined;
}

export async function judgeAgent(options: {
	/** stdout of `n8n execute --rawOutput` */
	stdout: string;
	recordUrl: string;
	sandbox: Sandbox;
	userId: string;
	/** when the run started: the sandbox's requests and charges since then are the agent's */
	since: number;
}): Promise<Verdict> {
	const { sandbox, userId, since } = options;
	const failures: string[] = [];
	const notes: string[] = [];
	const check = (ok: boolean, good: string, bad: string) =>
		ok ? notes.push(good) : failures.push(bad);

	const run = extractRun(options.stdout) as
		| { data?: { resultData?: { runData?: Record<string, Task[]> } } }
		| undefined;
	const runData = run?.data?.resultData?.runData ?? {};
	const response = await fetch(options.recordUrl);
	const record = (await response.json()) as RecordedRequest[];
	const requests = sandbox.control
		.requests()
		.filter((r) => r.userId === userId && Date.parse(r.at) >= since);
	const ledger = sandbox.control
		.ledger()
		.filter((e) => e.userId === userId && Date.parse(e.at) >= since);

	// 1. The conversation the model double played: three tool calls, then the answer.
	const chats = record.filter((r) => r.path.endsWith('/chat/completions'));
	const calls = chats.filter((r) => r.answer?.tool).map((r) => r.answer!);
	const unserved = record.filter((r) => !r.path.endsWith('/chat/completions'));
	check(
		unserved.length === 0,
		'the chat model node called only /chat/completions',
		`the model double was asked for ${unserved.map((r) => `${r.method} ${r.path}`).join(', ')}`,
	);
	const lastChat = chats[chats.length - 1];
	const final = lastChat?.answer?.text;
	check(
		calls.length === 3 && final !== undefined,
		`the model called ${calls.map((c) => c.tool).join(', ')} and answered`,
		`the model double saw ${chats.length} chat requests: ${JSON.stringify(chats.map((c) => c.answer))}`,
	);
	const [projectsCall, generateCall, creditsCall] = calls;
	const toolNode = (tool?: string) => (tool ?? '').replace(/_/g, ' ');

	// 2. Each tool ran in n8n with the model's arguments, as the sandbox saw them.
	const projectReads = requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/projects');
	check(
		projectReads.length >= 1 &&
			projectReads.every((r) => r.query.limit === String(projectsCall?.arguments?.limit)),
		`"${toolNode(projectsCall?.tool)}" read the projects with limit=${String(projectsCall?.arguments?.limit)}, as the model asked`,
		`project reads ${JSON.stringify(projectReads.map((r) => r.query))} do not carry the model's limit ${String(projectsCall?.arguments?.limit)}`,
	);
	const generates = requests.filter(
		(r) => r.method === 'POST' && r.path === '/api/v1/articles/generate',
	);
	const args = generateCall?.arguments ?? {};
	const body = (generates[0]?.body ?? {}) as Record<string, unknown>;
	check(
		generates.length === 1 &&
			body.topic === args.topic &&
			body.project_id === args.projectId &&
			body.tone === args.tone,
		`"${toolNode(generateCall?.tool)}" sent one generate with the model's topic, projectId and tone`,
		`generate requests ${JSON.stringify(generates.map((g) => g.body))} vs the model's arguments ${JSON.stringify(args)}`,
	);
	const creditReads = requests.filter(
		(r) => r.method === 'GET' && r.path === '/api/v1/user/credits',
	);
	check(
		creditReads.length >= 1 && creditsCall !== undefined,
		`"${toolNode(creditsCall?.tool)}" read the balance`,
		'the credits tool did not read the balance',
	);

	// 3. Charged exactly once, for the article the tool returned.
	const article = firstItem(runData[toolNode(generateCall?.tool)]);
	const charges = ledger.filter((e) => e.kind === 'article');
	check(
		charges.length === 1 && charges[0].recordId === article?.id && charges[0].credits === 1.5,
		`article ${String(article?.id)} (${String(article?.status)}) charged once: ${charges[0]?.credits} credits`,
		`article charges ${JSON.stringify(charges)} for the tool's article ${String(article?.id)}`,
	);

	// 4. The tools' results went back to the model, and its final message came back out of n8n.
	const balance = firstItem(runData[toolNode(creditsCall?.tool)]);
	const toolResults = (
		(lastChat?.body as { messages?: Array<{ role: string; content?: unknown }> } | undefined)
			?.messages ?? []
	)
		.filter((m) => m.role === 'tool')
		.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
		.join('\n');
	check(
		toolResults.includes(String(article?.id)) &&
			toolResults.includes(`"available_credits":${String(balance?.available_credits)}`),
		'the model received the article and the balance as tool results',
		`the tool results did not reach the model: ${toolResults.slice(0, 300)}`,
	);
	const output = firstItem(runData['AI Agent'])?.output;
	check(
		typeof final === 'string' &&
			output === final &&
			final.includes(String(article?.title)) &&
			final.includes(String(balance?.available_credits)),
		`final message: ${String(output)}`,
		`the agent's output ${JSON.stringify(output)} is not the model's final message ${JSON.stringify(final)}`,
	);
	return { failures, notes };
}
