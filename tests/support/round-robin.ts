/**
 * A tiny HTTP load balancer for tests: each request goes to the next backend in turn. The WhatsApp
 * two-process test uses it; the two-process reliability test runs the documented nginx (nginx.ts).
 */
import { createServer, request as forward } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobin {
  baseURL: string;
  /** Which backend (index) answered each request, in order. */
  served: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(backends: string[]): Promise<RoundRobin> {
  let next = 0;
  const served: number[] = [];
  const server = createServer((incoming, outgoing) => {
    const index = next;
    next = (next + 1) % backends.length;
    served.push(index);
    const target = new URL(incoming.url ?? "/", backends[index]);
    // The Host header stays the proxy's, as behind a real balancer: the apps see one origin.
    const upstream = forward(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
