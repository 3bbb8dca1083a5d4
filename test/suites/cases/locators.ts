/** How the suites write record ids into parameters: resource locators and the UUID shape. */
import type { IDataObject } from 'n8n-workflow';

/** A project picked "from list" (n8n validates only the ID mode's pattern itself). */
export function fromList(value: unknown): IDataObject {
	return { __rl: true, mode: 'list', value } as IDataObject;
}

export function byId(value: unknown): IDataObject {
	return { __rl: true, mode: 'id', value } as IDataObject;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
