// n8n-core writes its settings under N8N_USER_FOLDER; keep every test run in a throwaway folder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'mail-delivery-n8n-'));
process.env.N8N_LOG_LEVEL ??= 'silent';
