/**
 * The fields of a Custom Form, named as n8n's Form node and its send-and-wait nodes name them (`defineForm`,
 * `jsonOutput`, `formFields.values` with `fieldLabel`, `fieldType`, `fieldOptions.values[].option`…), so that a
 * form defined for n8n's own nodes, or written by n8n's AI builder, works here unchanged.
 */
import type { INodeProperties } from 'n8n-workflow';

const showFor = (...fieldType: string[]) => ({ show: { fieldType } });

/** Choices of a dropdown, checkboxes or radio buttons: `fieldOptions.values[].option`. */
const choices = (displayName: string, fieldType: string, label: string): INodeProperties => ({
	displayName,
	name: 'fieldOptions',
	placeholder: `Add ${label}`,
	type: 'fixedCollection',
	default: { values: [{ option: '' }] },
	required: true,
	typeOptions: { multipleValues: true, sortable: true },
	displayOptions: showFor(fieldType),
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [{ displayName: label, name: 'option', type: 'string', default: '' }],
		},
	],
});

const FIELD_TYPES = [
	{ name: 'Checkboxes', value: 'checkbox' },
	{ name: 'Custom HTML', value: 'html' },
	{ name: 'Date', value: 'date' },
	{ name: 'Dropdown', value: 'dropdown' },
	{ name: 'Email', value: 'email' },
	{ name: 'File', value: 'file' },
	{ name: 'Hidden Field', value: 'hiddenField' },
	{ name: 'Number', value: 'number' },
	{ name: 'Password', value: 'password' },
	{ name: 'Radio Buttons', value: 'radio' },
	{ name: 'Text Input', value: 'text' },
	{ name: 'Textarea', value: 'textarea' },
];

/** The field types a form takes, for errors naming them. */
export const FORM_FIELD_TYPES = FIELD_TYPES.map((type) => type.value);

const fieldValues: INodeProperties[] = [
	{
		displayName: 'Label',
		name: 'fieldLabel',
		type: 'string',
		default: '',
		placeholder: 'e.g. What is your name?',
		description: 'Label shown above the field; the output names the answer by it',
		required: true,
		displayOptions: { hide: { fieldType: ['hiddenField', 'html'] } },
	},
	{
		displayName: 'Element Type',
		name: 'fieldType',
		type: 'options',
		default: 'text',
		description: 'The type of field to add to the form',
		options: FIELD_TYPES,
		required: true,
	},
	{
		displayName: 'Field Name',
		name: 'fieldName',
		type: 'string',
		default: '',
		description: 'Name of the hidden field: the output names its value by it',
		displayOptions: showFor('hiddenField'),
	},
	{
		displayName: 'Field Value',
		name: 'fieldValue',
		type: 'string',
		default: '',
		description: 'Value the form sends back in this hidden field',
		displayOptions: showFor('hiddenField'),
	},
	{
		displayName: 'Element Name',
		name: 'elementName',
		type: 'string',
		default: '',
		placeholder: 'e.g. content-section',
		description: 'Optional: a name under which the output repeats this HTML',
		displayOptions: showFor('html'),
	},
	{
		displayName: 'HTML',
		name: 'html',
		type: 'string',
		typeOptions: { editor: 'htmlEditor' },
		default: '',
		description:
			'HTML shown on the form page. Scripts, styles, inputs and event attributes are removed.',
		displayOptions: showFor('html'),
	},
	{
		displayName: 'Placeholder',
		name: 'placeholder',
		type: 'string',
		default: '',
		description: 'Sample text to display inside the field',
		displayOptions: showFor('text', 'textarea', 'email', 'number', 'password'),
	},
	{
		displayName: 'Default Value',
		name: 'defaultValue',
		type: 'string',
		default: '',
		description:
			'Value filled in when the form opens (for checkboxes, option labels separated by commas)',
		displayOptions: showFor('text', 'textarea', 'email', 'number', 'dropdown', 'radio', 'checkbox'),
	},
	choices('Field Options', 'dropdown', 'Option'),
	{
		displayName: 'Multiple Choice',
		name: 'multiselect',
		type: 'boolean',
		default: false,
		description: 'Whether to allow the user to select multiple options from the dropdown list',
		displayOptions: showFor('dropdown'),
	},
	choices('Checkboxes', 'checkbox', 'Checkbox Label'),
	choices('Radio Buttons', 'radio', 'Radio Button Label'),
	{
		displayName: 'Limit Selection',
		name: 'limitSelection',
		type: 'options',
		default: 'unlimited',
		options: [
			{ name: 'Exact Number', value: 'exact' },
			{ name: 'Range', value: 'range' },
			{ name: 'Unlimited', value: 'unlimited' },
		],
		displayOptions: showFor('checkbox'),
	},
	{
		displayName: 'Number of Selections',
		name: 'numberOfSelections',
		type: 'number',
		default: 1,
		typeOptions: { numberPrecision: 0, minValue: 1 },
		displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['exact'] } },
	},
	{
		displayName: 'Minimum Selections',
		name: 'minSelections',
		type: 'number',
		default: 0,
		typeOptions: { numberPrecision: 0, minValue: 0 },
		displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['range'] } },
	},
	{
		displayName: 'Maximum Selections',
		name: 'maxSelections',
		type: 'number',
		default: 1,
		typeOptions: { numberPrecision: 0, minValue: 1 },
		displayOptions: { show: { fieldType: ['checkbox'], limitSelection: ['range'] } },
	},
	{
		displayName: 'Multiple Files',
		name: 'multipleFiles',
		type: 'boolean',
		default: true,
		description:
			'Whether to allow the user to select multiple files from the file input or just one',
		displayOptions: showFor('file'),
	},
	{
		displayName: 'Accepted File Types',
		name: 'acceptFileTypes',
		type: 'string',
		default: '',
		placeholder: 'e.g. .jpg, .png',
		description: 'Comma-separated list of allowed file extensions; empty allows all',
		displayOptions: showFor('file'),
	},
	{
		displayName: 'Required Field',
		name: 'requiredField',
		type: 'boolean',
		default: false,
		description:
			'Whether to require the user to enter a value for this field before submitting the form',
		displayOptions: { hide: { fieldType: ['html', 'hiddenField'] } },
	},
];

/** Define Form, and the form as JSON or as fields (shown for Response Type: Custom Form by the caller). */
export const formFieldsProperties: INodeProperties[] = [
	{
		displayName: 'Define Form',
		name: 'defineForm',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
	},
	{
		displayName: 'Form Fields',
		name: 'jsonOutput',
		type: 'json',
		typeOptions: { rows: 5 },
		default:
			'[\n  {\n    "fieldLabel": "Comment",\n    "fieldType": "textarea",\n    "requiredField": true\n  },\n  {\n    "fieldLabel": "Decision",\n    "fieldType": "radio",\n    "fieldOptions": { "values": [{ "option": "Yes" }, { "option": "No" }] }\n  }\n]\n',
		description:
			"A JSON array of fields as n8n's Form node takes them: fieldLabel, fieldType (text, textarea, email, number, password, date, dropdown, checkbox, radio, file, html, hiddenField), requiredField, placeholder, fieldOptions",
		displayOptions: { show: { defineForm: ['json'] } },
	},
	{
		displayName: 'Form Elements',
		name: 'formFields',
		placeholder: 'Add Form Element',
		type: 'fixedCollection',
		default: {},
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { defineForm: ['fields'] } },
		options: [{ displayName: 'Values', name: 'values', values: fieldValues }],
	},
];
