/**
 * A local SMTP server for delivery tests: just enough of RFC 5321 for nodemailer (no TLS, no
 * auth, no pipelining), speaking on 127.0.0.1. It captures what it is sent, and can misbehave the
 * way real servers do: answer slowly, refuse a recipient, or take a message and never answer.
 */
import { once } from "node:events";
import net from "node:net";

export interface CapturedEmail {
  from: string;
  to: string[];
  subject: string;
  data: string;
}

export type SmtpBehaviour =
  | { kind: "accept"; replyDelayMs?: number }
  /** Replies to the end of DATA with this SMTP code (4xx: try later, 5xx: never). */
  | { kind: "refuse"; code: number }
  /** Reads the whole message and never answers: the sender cannot know whether it was accepted. */
  | { kind: "hang_after_data" };

export interface SmtpCapture {
  url: string;
  messages: CapturedEmail[];
  behaviour: SmtpBehaviour;
  /** Resolves when the server has read the next message's data (before answering it). */
  nextData(): Promise<CapturedEmail>;
  close(): Promise<void>;
}

export async function startSmtpCapture(behaviour: SmtpBehaviour = { kind: "accept" }): Promise<SmtpCapture> {
  const sockets = new Set<net.Socket>();
  const waiting: ((email: CapturedEmail) => void)[] = [];
  const capture: SmtpCapture = {
    url: "",
    messages: [],
    behaviour,
    nextData: () => new Promise((resolve) => waiting.push(resolve)),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.setEncoding("utf8");
    const reply = (line: string) => {
      if (!socket.destroyed) socket.write(`${line}\r\n`);
    };
    let buffer = "";
    let inData = false;
    let envelope: { from: string; to: string[] } = { from: "", to: [] };
    reply("220 localhost ESMTP captura");

    const onMessage = (data: string) => {
      const email: CapturedEmail = { ...envelope, subject: /^Subject: (.*)$/im.exec(data)?.[1]?.trim() ?? "", data };
      envelope = { from: "", to: [] };
      waiting.splice(0).forEach((resolve) => resolve(email));
      const current = capture.behaviour;
      if (current.kind === "hang_after_data") return;
      if (current.kind === "refuse") return reply(`${current.code} ${current.code >= 500 ? "5.1.1 Mailbox unavailable" : "4.3.0 Try again later"}`);
      capture.messages.push(email);
      if (current.replyDelayMs) setTimeout(() => reply("250 2.0.0 Queued"), current.replyDelayMs);
      else reply("250 2.0.0 Queued");
    };

    socket.on("data", (chunk: string) => {
      buffer += chunk;
      while (true) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          const data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          onMessage(data);
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 localhost");
        else if (verb === "MAIL") {
          envelope.from = /<(.*)>/.exec(line)?.[1] ?? "";
          reply("250 2.1.0 Ok");
        } else if (verb === "RCPT") {
          envelope.to.push(/<(.*)>/.exec(line)?.[1] ?? "");
          reply("250 2.1.5 Ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 2.0.0 Bye");
          socket.end();
          return;
        } else if (verb === "RSET" || verb === "NOOP") reply("250 2.0.0 Ok");
        else reply("502 5.5.2 Command not implemented");
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  capture.url = `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return capture;
}
