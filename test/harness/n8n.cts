/**
 * The one stand-in for n8n of the in-process tests: n8n-core's own engine, with what n8n around it keeps and does,
 * each part once (test/harness/n8n/):
 * - database.cts: n8n's database (JSON copies): the deduplication store, workflows' static data, executions' saved
 *   data and status, what a Retry starts from; no engine (the never-twice checker's model keeps its store with it);
 * - engine.cts: the node types and the credentials helper, the Workflow built from nodes and connections, the
 *   additional data, the data an execution starts from, a run through WorkflowExecute with its lifecycle hooks, the
 *   webhook context of a request; `runWorkflow` runs one execution;
 * and its facets, each built on those:
 * - instance.cts: n8n as an instance that keeps its executions (Save Execution Progress, Retry, kill -9, waits),
 *   for test/explorer;
 * - trigger.cts: the trigger node's webhook lifecycle and pushes, behind a loopback server, static data as n8n keeps it;
 * - waiting.cts: a waiting execution kept and resumed as n8n's WaitingWebhooks and WaitTracker do.
 * Tests import it from here.
 */
export * from './n8n/database.cts';
export * from './n8n/engine.cts';
export * from './n8n/instance.cts';
export * from './n8n/trigger.cts';
export * from './n8n/waiting.cts';
