import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Explain } from '../../shared/transport/refusals';
import { connect, request } from '../../shared/transport/request';
import type { ApiResponse, Credits } from '../../shared/types';
import { toNodeError } from './items';
import { callOptions } from './parameters';

/** Credits as whole hundredths, so sums and differences stay exact (0.6 x 3 is 1.8, not 1.7999999999999998). */
export function toHundredths(credits: number): number {
	return Math.round(credits * 100);
}

export function fromHundredths(hundredths: number): number {
	return hundredths / 100;
}

/** A credit figure from the service, rid of binary floating-point noise. */
export function normaliseCredits<T>(value: T): T | number {
	return typeof value === 'number' && Number.isFinite(value)
		? fromHundredths(toHundredths(value))
		: value;
}

function credits(hundredths: number): string {
	const value = fromHundredths(hundredths);
	return `${value} credit${value === 1 ? '' : 's'}`;
}

export const minimumBalanceOption: INodeProperties = {
	displayName: 'Minimum Balance to Keep',
	name: 'minimumBalance',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 2 },
	default: 0,
	description:
		'Refuse to generate when this would take the credit balance below this many credits. Reads the balance once per run (free) and counts earlier items of the same run. 0, the default, turns the check off.',
};

/**
 * The "Minimum Balance to Keep" guard for one execution: reads the balance at most once and
 * counts what earlier items of the same run will spend, so N items cannot overdraw the floor.
 */
export class BalanceFloor {
	private balance?: number;
	private readFailure?: { message: string; description: string };
	private committed = 0;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly noun: string,
	) {}

	/** Throws before anything is sent when this item would break the floor; otherwise books its cost. */
	async reserve(itemIndex: number, costHundredths: number, floorCredits: number): Promise<void> {
		if (floorCredits > 0) {
			const balance = await this.readBalance(itemIndex);
			const floor = toHundredths(floorCredits);
			const before = balance - this.committed;
			const after = before - costHundredths;
			if (after < floor) {
				const earlier =
					this.committed > 0
						? ` The balance read at the start of this run was ${credits(balance)}; earlier items of this run will spend ${credits(this.committed)} of it.`
						: '';
				throw new NodeOperationError(
					this.context.getNode(),
					`'Minimum Balance to Keep': this ${this.noun} costs ${credits(costHundredths)}, the balance is ${credits(before)} and the floor is ${credits(floor)}`,
					{
						itemIndex,
						description: `Generating would leave ${credits(after)}, below the 'Minimum Balance to Keep' option.${earlier} Nothing was sent for this item and no credits were spent on it. Top up credits or lower the option.`,
					},
				);
			}
		}
		this.committed += costHundredths;
	}

	/** A fresh error per item, so each failed item carries its own index. */
	private failure(itemIndex: number): NodeOperationError {
		const { message, description } = this.readFailure ?? {
			message: "'Minimum Balance to Keep': the credit balance could not be read",
			description: '',
		};
		return new NodeOperationError(this.context.getNode(), message, { itemIndex, description });
	}

	private async readBalance(itemIndex: number): Promise<number> {
		if (this.balance !== undefined) return this.balance;
		if (this.readFailure) throw this.failure(itemIndex);
		let response: ApiResponse<Credits>;
		try {
			response = await request<Credits>(
				await connect(this.context),
				'GET',
				'/user/credits',
				callOptions(this.context, itemIndex),
			);
		} catch (error) {
			if (this.context.getExecutionCancelSignal()?.aborted)
				throw toNodeError(this.context, error, itemIndex);
			this.readFailure = {
				message: `'Minimum Balance to Keep': could not read the credit balance (${(error as Error).message})`,
				description: `The check needs GET /user/credits (the "read" permission and the "user" scope). Nothing was generated. Give the key that scope, or set 'Minimum Balance to Keep' to 0.`,
			};
			throw this.failure(itemIndex);
		}
		const available = response.data?.available_credits;
		if (typeof available !== 'number' || !Number.isFinite(available)) {
			this.readFailure = {
				message: "'Minimum Balance to Keep': the service did not report a credit balance",
				description: "Nothing was generated. Set 'Minimum Balance to Keep' to 0 to skip the check.",
			};
			throw this.failure(itemIndex);
		}
		this.balance = toHundredths(available);
		return this.balance;
	}
}

/** The wording of a generate's 402: what this request costs, then the service's own figures. */
export function insufficientCredits(costHundredths: number): Explain {
	return (answer) =>
		answer.statusCode === 402 || answer.code === 'INSUFFICIENT_CREDITS'
			? {
					message: `Not enough credits: this generation costs ${credits(costHundredths)}`,
					hint: 'Nothing was charged. Top up credits or wait for the plan to renew, then run again (Account → Get Credits shows the balance).',
				}
			: undefined;
}
