import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import type { Method } from '../../nodes/shared/routes';
import { collect } from '../../nodes/shared/transport/pages';
import { connect, request } from '../../nodes/shared/transport/request';
import type { WorkflowJson } from './engine';
import { PACKAGE, TestNodeTypes } from './engine';

/** A test-only node with the ContentGen credential and one parameter. */
export function testNodeDescription(
	name: string,
	description: string,
	parameter: { displayName: string; name: string; type: string; default: string },
): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description,
		defaults: { name: 'Probe' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'contentGenApi', required: true }],
		properties: [parameter],
	} as unknown as INodeTypeDescription;
}

/**
 * A test-only node that calls the shared transport with the parameters it is given, so the
 * transport runs inside n8n's engine with its real request helpers and credential handling.
 */
class TransportProbe implements INodeType {
	description = testNodeDescription('transportProbe', 'Calls the transport', {
		displayName: 'Call',
		name: 'call',
		type: 'json',
		default: '{}',
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const call = JSON.parse(this.getNodeParameter('call', 0) as string) as IDataObject;
		const connection = await connect(this);
		if (call.all) {
			const { records } = await collect<IDataObject>(
				connection,
				call.endpoint as string,
				(call.qs as IDataObject) ?? {},
				call.limit as number | undefined,
			);
			return [records.map((json) => ({ json }))];
		}
		const response = await request<IDataObject>(
			connection,
			call.method as Method,
			call.endpoint as string,
			{
				qs: call.qs as IDataObject | undefined,
				body: call.body as IDataObject | undefined,
				maxRateLimitWaitMs: call.maxRateLimitWaitMs as number | undefined,
				timeoutMs: call.timeoutMs as number | undefined,
			},
		);
		return [
			[
				{
					json: {
						data: response.data as IDataObject,
						pagination: (response.pagination ?? null) as unknown as IDataObject,
					},
				},
			],
		];
	}
}

export const probeNodeTypes = () =>
	new TestNodeTypes({ [`${PACKAGE}.transportProbe`]: new TransportProbe() });

export function probeWorkflow(call: IDataObject): WorkflowJson {
	return {
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'p',
				name: 'Probe',
				type: `${PACKAGE}.transportProbe`,
				typeVersion: 1,
				position: [200, 0],
				parameters: { call: JSON.stringify(call) },
				credentials: { contentGenApi: { id: 'c', name: 'ContentGen account' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } },
	};
}
