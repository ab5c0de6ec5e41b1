import type { DatabaseOrTransaction } from "../transaction";
import { deliveryCalendarSettings, deliveryCapacityDefaults } from "../schema";
import { SEED_CAPACITY_PER_WINDOW, SEED_CUTOFF_TIME } from "./delivery-calendar-data";

const WINDOWS = ["manana", "tarde"] as const;

/**
 * The delivery calendar's first data (issue 10): cut-off and shop-wide capacity (Peru's national
 * holidays are worked out for every year, core/peru-holidays.ts, decision 0070). Runs on
 * every seeded start, also for a database seeded before the calendar existed; the settings row
 * marks it done, so it never puts back a figure staff changed.
 */
export async function seedDeliveryCalendar(db: DatabaseOrTransaction): Promise<{ seeded: boolean }> {
  const inserted = await db
    .insert(deliveryCalendarSettings)
    .values({ id: 1, cutoffTime: SEED_CUTOFF_TIME })
    .onConflictDoNothing()
    .returning({ id: deliveryCalendarSettings.id });
  if (inserted.length === 0) return { seeded: false };
  await db
    .insert(deliveryCapacityDefaults)
    .values([1, 2, 3, 4, 5, 6, 7].flatMap((dayNumber) => WINDOWS.map((deliveryWindow) => ({ dayNumber, deliveryWindow, capacity: SEED_CAPACITY_PER_WINDOW }))))
    .onConflictDoNothing();
  return { seeded: true };
}
