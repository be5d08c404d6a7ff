import { resource } from '../resource';
import * as create from './create.operation';
import * as deleteList from './delete.operation';
import * as getMany from './getMany.operation';

export const contactList = resource(
	'contactList',
	{ create, delete: deleteList, getMany },
	'create',
);
