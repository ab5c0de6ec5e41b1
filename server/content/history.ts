import { asc, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { cachedRead } from "../db/read-cache";
import { historyEntries } from "../db/schema";

export interface HistorySlide {
  id: string;
  title: string;
  description: string;
  image: string | null;
}

/** Built-in slides of spec §3, shown when the history read fails or finds nothing. */
export const fallbackHistorySlides: HistorySlide[] = [
  {
    id: "fallback-1",
    title: "Marzo 2025",
    description: "Lanzamos nuestra primera presentación personal: la botella sport de 1 litro.",
    image: "/images/history/botella-sport.svg",
  },
  {
    id: "fallback-2",
    title: "Junio 2025",
    description: "Abrimos nuevos puntos de distribución.",
    image: "/images/history/puntos-distribucion.svg",
  },
  {
    id: "fallback-3",
    title: "Octubre 2025",
    description: "Incorporamos materiales reciclables en toda la cadena de valor.",
    image: "/images/history/materiales-reciclables.svg",
  },
];

/** Spec §7: ordered by `orden` ascending (nulls last), then created_at ascending. */
const readHistoryEntries = cachedRead((db: Database) =>
  db
    .select({
      id: historyEntries.id,
      title: historyEntries.title,
      description: historyEntries.description,
      image: historyEntries.image,
    })
    .from(historyEntries)
    .orderBy(sql`${historyEntries.sortOrder} asc nulls last`, asc(historyEntries.createdAt), asc(historyEntries.id)),
);

export async function listHistorySlides(db: Database): Promise<HistorySlide[]> {
  try {
    const rows = await readHistoryEntries(db);
    if (rows.length === 0) return fallbackHistorySlides;
    return rows.map((row) => ({ ...row, id: String(row.id) }));
  } catch (error) {
    console.error("Could not read history entries", error);
    return fallbackHistorySlides;
  }
}
