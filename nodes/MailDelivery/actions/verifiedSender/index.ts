import { resource } from '../resource';
import * as add from './add.operation';
import * as deleteSender from './delete.operation';
import * as getMany from './getMany.operation';
import * as verify from './verify.operation';

export const verifiedSender = resource(
	'verifiedSender',
	{ add, delete: deleteSender, getMany, verify },
	'getMany',
);
