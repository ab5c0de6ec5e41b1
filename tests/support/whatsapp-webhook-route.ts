import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RouterContextProvider } from "react-router";
import type { Database } from "@server/db/client";
import { dbContext } from "~/server/db-context.server";
import * as webhookRoute from "~/routes/api/whatsapp-webhook";

/**
 * The shop's /webhooks/whatsapp route module behind a real HTTP server on this database, so the
 * Cloud API stand-in posts the very bytes it signed (the signature is over them). Two of these on
 * one database are two processes receiving Meta's deliveries (issue 38's redelivery race).
 */
export async function serveWhatsappWebhook(db: Database): Promise<{ url: string; close(): Promise<void> }> {
  const context = new RouterContextProvider();
  context.set(dbContext, db);
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = new Request(`http://shop.test${incoming.url}`, {
        method: incoming.method,
        headers: Object.entries(incoming.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value] as [string, string]] : [])),
        body: incoming.method === "POST" ? Buffer.concat(chunks) : undefined,
      });
      const args = { request, params: {}, context } as never;
      void (async () => {
        const response = await (incoming.method === "POST" ? webhookRoute.action(args) : Promise.resolve(webhookRoute.loader(args))).catch((error: unknown) => {
          if (error instanceof Response) return error;
          console.error(error);
          return new Response(null, { status: 500 });
        });
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
