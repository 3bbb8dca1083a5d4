import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

/** One operation: how the Operation selector offers it, its parameters, and what it does. */
export interface OperationModule {
	/** Its entry in the Operation selector; the value is its key in the resource's map. */
	option: Omit<INodePropertyOptions, 'value'> & { action: string };
	/** Its parameters, without display rules: the node shows them for this operation only. */
	properties: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

export interface ResourceModule {
	/** Its name in the Resource selector. */
	name: string;
	defaultOperation: string;
	operations: Record<string, OperationModule>;
}
