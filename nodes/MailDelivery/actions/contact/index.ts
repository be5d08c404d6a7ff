import { resource } from '../resource';
import * as deleteContact from './delete.operation';
import * as get from './get.operation';
import * as importContacts from './import.operation';
import * as upsert from './upsert.operation';

export const contact = resource(
	'contact',
	{ upsert, delete: deleteContact, get, import: importContacts },
	'upsert',
);
