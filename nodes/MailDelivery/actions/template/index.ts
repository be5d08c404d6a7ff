import { resource } from '../resource';
import * as create from './create.operation';
import * as deleteTemplate from './delete.operation';
import * as getMany from './getMany.operation';

export const template = resource('template', { create, delete: deleteTemplate, getMany }, 'create');
