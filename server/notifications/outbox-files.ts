import { readdir, unlink } from "node:fs/promises";
import path from "node:path";
import { env } from "../config/env";

/**
 * The local outbox folder (OUTBOX_DIR): without SMTP every e-mail is written there
 * (`folderTransport`), and the local WhatsApp stand-in writes its messages beside them.
 */
export function outboxDir(): string {
  return path.resolve(process.cwd(), env().OUTBOX_DIR);
}

/** What names one message's files in the outbox folder: when it was queued, its kind, its id. */
export interface OutboxFileName {
  id: string;
  createdAt: Date;
  /** The e-mail's kind, or `whatsapp-<template>` for a WhatsApp message. */
  label: string;
}

/**
 * The name every file of one message starts with, followed by a dot and what the file is (`.eml`,
 * `.html`, `.json`, `.txt`, or `.<attachment name>`). The writers and the eraser share it, so a
 * message's files are always found again.
 */
export function outboxFileBase(message: OutboxFileName): string {
  return `${message.createdAt.toISOString().replace(/[:.]/g, "-")}-${message.label}-${message.id.slice(0, 8)}`;
}

/** Some of the files could not be removed: named here (kind and id, never the person), the caller must not carry on as if they were. */
export class OutboxFilesNotErasedError extends Error {
  constructor(readonly files: string[]) {
    super(`Could not remove ${files.length} outbox file(s): ${files.join(", ")}`);
    this.name = "OutboxFilesNotErasedError";
  }
}

/**
 * Removes every file of these messages from the outbox folder (issue 39, finding 8: an
 * anonymisation erases the rows, and the copies on disk must go with them). A folder or a file
 * that is not there is fine (SMTP or the Cloud API configured, a developer who emptied the
 * folder, a second run). Any other failure is logged and thrown after trying every file, so the
 * caller's transaction rolls back and the request can be made again.
 */
export async function eraseOutboxFiles(messages: OutboxFileName[], dir: string = outboxDir()): Promise<number> {
  if (messages.length === 0) return 0;
  const bases = new Set(messages.map(outboxFileBase));
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    console.error(`[outbox] Could not read the outbox folder to erase ${messages.length} message(s): ${String(error)}`);
    throw error;
  }
  const failed: string[] = [];
  let removed = 0;
  for (const name of names) {
    const dot = name.indexOf(".");
    if (dot < 0 || !bases.has(name.slice(0, dot))) continue;
    try {
      await unlink(path.join(dir, name));
      removed += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") failed.push(`${name} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  }
  if (failed.length) {
    const error = new OutboxFilesNotErasedError(failed);
    console.error(`[outbox] ${error.message}`);
    throw error;
  }
  return removed;
}
