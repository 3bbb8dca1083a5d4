import type { IDataObject } from 'n8n-workflow';

import { applyOutput, type Output } from '../../helpers/output';
import { pick } from '../../helpers/pick';

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

/**
 * Simplified: the fields of the service's list, location and business context included (at most
 * 10); a project read by id drops what only it carries (language code, brand and offer texts).
 */
export function shapeProjectOutput(record: IDataObject, output: Output): IDataObject {
	return applyOutput(record, output, (full) => pick(full, PROJECT_FIELDS));
}
