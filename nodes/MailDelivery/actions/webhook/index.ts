import { resource } from '../resource';
import * as get from './get.operation';
import * as save from './save.operation';

export const webhook = resource('webhook', { get, save }, 'get');
