/** Small HTTP helpers shared by the server, auth, network and control modules. */
import type http from 'node:http';

/** A message in the language the emulator answers in: (Chinese, English) → one of them. */
export type Text = (zh: string, en: string) => string;

export function send(
	res: http.ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
) {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

export function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}
