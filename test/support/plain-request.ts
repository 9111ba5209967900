import { request } from 'node:http';

export interface PlainAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request with exactly these headers, its answer as text: `fetch` cannot set `Host`, adds headers
 * of its own, and hides some of a response's.
 */
export function plainRequest(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
