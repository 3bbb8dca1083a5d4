import type { IDataObject } from 'n8n-workflow';

import { pick } from '../../helpers/lists';

const SIMPLE_FIELDS = [
	'id',
	'business_name',
	'business_website',
	'business_language',
	'status',
] as const;

export function shapeProjectOutput(record: IDataObject, simplify: boolean): IDataObject {
	return simplify ? pick(record, SIMPLE_FIELDS) : record;
}
