/**
 * The shapes of the case table (./operations): an entry per operation, its bad values per field and
 * its id cases. Apart from the table so that ./builders, which the table is built of, can use them
 * without importing the table.
 */
import type fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import type { Method } from '../../../nodes/shared/routes';
import type { Records } from '../helpers';

export interface Field {
	/** Dotted path of the parameter (collections: "additionalFields.tone"). */
	path: string;
	/** What the error message must name. */
	label: string;
	bad: fc.Arbitrary<unknown>;
	/** Parameters that make this field count (e.g. waitForCompletion for wait options). */
	with?: IDataObject;
	/** Values tried; the options every operation shares are read by one function, so fewer. */
	runs?: number;
}

/** A parameter that carries a record id into a request path or query. */
export interface IdCase {
	name: string;
	params(id: string): IDataObject;
	/** An id of a record that exists, for the run that must reach the service. */
	real(records: Records): string;
}

/** A route of the registry (nodes/shared/routes.ts), as "GET /articles/:id". */
export type RouteName = `${Method} /${string}`;

export interface OperationCase {
	/** POST may have been processed (and charged): never sent twice. GET is retried. */
	method: Method;
	/**
	 * Every route a run of it may send, its own first (the one that does its job; same method as
	 * `method`). Its runs are held to these; an id parameter needs path tricks (`ids`) when its own
	 * route is a read or names a record.
	 */
	routes: RouteName[];
	/** A successful run spends credits: one charge in the ledger. */
	charged?: boolean;
	/** Parameters of a run that succeeds against the seeded sandbox. */
	valid(records: Records): IDataObject;
	/** More successful runs worth checking: other options of the same operation. */
	variants?: Record<string, (records: Records) => IDataObject>;
	ids: IdCase[];
	/** Bad values per parameter (the options every operation shares are added by COMMON_FIELDS). */
	fields: Field[];
}
