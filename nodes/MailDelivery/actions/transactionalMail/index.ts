import { resource } from '../resource';
import * as getStats from './getStats.operation';
import * as send from './send.operation';

// Send first: the node creator lists actions in this order.
export const transactionalMail = resource('transactionalMail', { send, getStats }, 'send');
