/**
 * A resource made from its operation modules: its Operation field (the modules' entries, in the order given,
 * which is the node creator's order), every module's fields shown for it, and each one's Description for AI
 * agents. Adding an operation is its module and one line in the resource's list.
 */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { CheckedModules, OperationModule } from '../run/operation';

interface Resource<O extends Record<string, OperationModule>> {
	operations: O;
	description: INodeProperties[];
}

export function resource<O extends Record<string, OperationModule>>(
	name: string,
	/** Each module checked with its own plan type (CheckedModules). */
	operations: O & CheckedModules<O>,
	/** The operation a new node starts with. */
	defaultOperation: keyof O & string,
): Resource<O> {
	const entries = Object.entries(operations);
	const operationField: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options: entries.map(([value, module]) => ({ ...module.option, value })),
		default: defaultOperation,
	};
	const fields = entries.flatMap(([value, module]) =>
		updateDisplayOptions({ show: { resource: [name], operation: [value] } }, module.properties),
	);
	// The tool version's Description, shown only there ('@tool'). A node whose properties hold a
	// toolDescription keeps it: n8n then adds neither its own field nor its "Set Automatically" mode,
	// whose text would be the bare action ("Send transactional mail in Mail Delivery").
	const toolDescriptions = entries.map(([value, { toolDescription }]): INodeProperties => ({
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: toolDescription,
		description: 'What the AI model is told this tool does; say when to use it and what it returns',
		displayOptions: { show: { '@tool': [true], resource: [name], operation: [value] } },
	}));
	return { operations, description: [operationField, ...fields, ...toolDescriptions] };
}
