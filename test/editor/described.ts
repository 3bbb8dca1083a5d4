/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test helper: reads the repository's markdown */
/// <reference lib="dom" />
// What the editor is expected to show, read from the node descriptions n8n serves to its editor
// (so the expectations follow the nodes) and from the repository's documentation.
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import type { Page } from 'puppeteer-core';

import { ACTION, TRIGGER } from './browser';

interface Option {
	name: string;
	value: string;
	action?: string;
	description?: string;
}
export interface Property {
	name: string;
	displayName: string;
	type: string;
	default?: unknown;
	options?: Array<Option & Partial<Property>>;
	displayOptions?: { show?: Record<string, unknown[]> };
}
export interface NodeDescription {
	name: string;
	displayName: string;
	description: string;
	properties: Property[];
}

export interface Served {
	types: NodeDescription[];
	action: NodeDescription;
	trigger: NodeDescription;
	/** Resource label -> the actions the picker lists for it ("Generate article", ...). */
	actionsByResource: Record<string, string[]>;
	/** Every operation: resource and operation values with the picker's action. */
	operations: Array<{
		resource: string;
		operation: string;
		resourceName: string;
		operationName: string;
		action: string;
	}>;
	events: Option[];
}

// n8n adds a "Custom API Call" entry (it points to the HTTP Request node); it is no action of ours.
const ours = (o: { value: string }) => o.value !== '__CUSTOM_API_CALL__';

export async function served(page: Page): Promise<Served> {
	const types = (await page.evaluate(
		async () => (await (await fetch('/types/nodes.json')).json()) as unknown[],
	)) as NodeDescription[];
	const action = types.find((t) => t.name === ACTION);
	const trigger = types.find((t) => t.name === TRIGGER);
	if (!action || !trigger) throw new Error(`n8n does not serve ${ACTION} and ${TRIGGER}`);
	const resources = (action.properties.find((p) => p.name === 'resource')?.options ?? []).filter(
		ours,
	);
	const operations = resources.flatMap((resource) =>
		(
			action.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value),
			)?.options ?? []
		)
			.filter(ours)
			.map((o) => ({
				resource: resource.value,
				operation: o.value,
				resourceName: resource.name,
				operationName: o.name,
				action: o.action ?? o.name,
			})),
	);
	const actionsByResource: Record<string, string[]> = {};
	for (const o of operations) (actionsByResource[o.resourceName] ??= []).push(o.action);
	const events = trigger.properties.find((p) => p.name === 'events')?.options ?? [];
	return { types, action, trigger, actionsByResource, operations, events };
}

/** GitHub's anchors of a markdown file's headings ("## Trigger" -> "trigger"). */
function anchors(markdown: string): Set<string> {
	const found = new Set<string>();
	for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		found.add(
			heading
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.trim()
				.replace(/\s/g, '-'),
		);
	}
	return found;
}

/**
 * Why a docs link of the editor would not open the section it names, or undefined when it does:
 * the link is the repository's page (README.md) or a file in it (`/blob/<branch>/<path>`), and its
 * fragment, if any, is a heading there.
 */
export function docsLinkProblem(href: string | null): string | undefined {
	if (!href) return 'no docs link';
	const url = new URL(href);
	const file = /\/blob\/[^/]+\/(.+)$/.exec(url.pathname)?.[1] ?? 'README.md';
	const path = join(__dirname, '..', '..', decodeURIComponent(file));
	if (!existsSync(path)) return `${href} points at ${file}, which the repository does not have`;
	const fragment = decodeURIComponent(url.hash.slice(1));
	if (fragment && !anchors(readFileSync(path, 'utf8')).has(fragment)) {
		return `"#${fragment}" is not a heading of ${file}, so ${href} opens at its top`;
	}
	return undefined;
}

export const sameSet = (a: string[], b: string[]) =>
	JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
