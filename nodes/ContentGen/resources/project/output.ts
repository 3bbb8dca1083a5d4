import type { IDataObject } from 'n8n-workflow';

import { applyOutput, type Output } from '../../helpers/output';
import { pick } from '../../helpers/pick';

const SIMPLE_FIELDS = [
	'id',
	'business_name',
	'business_website',
	'business_language',
	'status',
] as const;

/** Every field of a project: the choices of Output > Selected Fields (spec 2.5). */
export const PROJECT_FIELDS = [
	'id',
	'business_name',
	'business_website',
	'business_language',
	'location',
	'expert_in',
	'status',
	'created_at',
	'updated_at',
] as const;

export function shapeProjectOutput(record: IDataObject, output: Output): IDataObject {
	return applyOutput(record, output, (full) => pick(full, SIMPLE_FIELDS));
}
