/**
 * A real SMTP server in the test process (issue 27): `smtp-server` from npm on 127.0.0.1. A plain
 * one offers neither STARTTLS nor AUTH; a `secure` one offers STARTTLS (smtp-server's own
 * self-signed certificate, so the client must be told not to verify it) and AUTH PLAIN/LOGIN.
 * Each message's answer is chosen by `answer`: accept it, refuse it with a 4xx or 5xx reply, or
 * drop the connection after reading it and before answering.
 *
 * Why two kinds: nodemailer upgrades to TLS whenever the server offers STARTTLS, verifying the
 * certificate, so a server that offers it with a self-signed certificate refuses every client that
 * did not ask for an unverified channel.
 */
import type { AddressInfo, Socket } from "node:net";
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from "smtp-server";

export type SmtpAnswer = "accept" | { code: number; message: string } | "drop";

export interface ReceivedEmail {
  raw: string;
  /** Whether the session had switched to TLS (STARTTLS) when the message came. */
  secure: boolean;
  /** The user the client authenticated as, if it did. */
  user: string | undefined;
}

export interface SmtpStandIn {
  port: number;
  received: ReceivedEmail[];
  /** AUTH attempts, with the credentials given. */
  logins: { method: string; username: string | undefined; password: string | null | undefined }[];
  answer: SmtpAnswer;
  close(): Promise<void>;
}

export const STAND_IN_CREDENTIALS = { username: "tienda", password: "clave-smtp" };

export async function startSmtpStandIn({ secure }: { secure: boolean }): Promise<SmtpStandIn> {
  const credentials = STAND_IN_CREDENTIALS;
  const sockets = new Set<Socket>();
  const standIn: SmtpStandIn = { port: 0, received: [], logins: [], answer: "accept", close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: !secure,
    authMethods: ["PLAIN", "LOGIN"],
    disableReverseLookup: true,
    logger: false,
    onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, callback) {
      standIn.logins.push({ method: auth.method, username: auth.username, password: auth.password });
      if (auth.username === credentials.username && auth.password === credentials.password) return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const answer = standIn.answer;
        standIn.received.push({ raw: Buffer.concat(chunks).toString("utf8"), secure: session.secure, user: session.user as string | undefined });
        if (answer === "accept") return callback(null, "Queued");
        if (answer === "drop") {
          // The message was read whole; the connection goes before the server says whether it took it.
          for (const socket of sockets) socket.destroy();
          return;
        }
        callback(Object.assign(new Error(answer.message), { responseCode: answer.code }));
      });
    },
  });
  server.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  standIn.port = (server.server.address() as AddressInfo).port;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return standIn;
}
