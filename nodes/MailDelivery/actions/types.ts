import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

/** What every operation file exports; batch operations see all input items at once. */
export interface OperationModule {
	description: INodeProperties[];
	execute?: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>;
	executeBatch?: (
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	) => Promise<INodeExecutionData[]>;
}
