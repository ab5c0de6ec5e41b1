import type { OneTimeOrderPreview } from "@server/checkout/index.server";
import type { CallerPicture } from "@server/customers/index.server";
import type { OfferedDate } from "@server/deliveries/index.server";
import type { SellableLine } from "@server/catalog/index.server";
import type { StaffOrderValues } from "@core/staff-order-form";
import type { GeoPoint } from "@core/geo";

export type { CallerPicture, OfferedDate, OneTimeOrderPreview, SellableLine, StaffOrderValues };

export interface DeskDistrict {
  id: number;
  name: string;
  dayNumbers: number[];
  center: GeoPoint | null;
}

/** What the page's action answers: the live total, or the form again (as typed) with what to fix. */
export type NewOrderActionData =
  | { intent: "precio"; preview: OneTimeOrderPreview | null }
  | {
      intent: "revisar" | "lo_de_siempre" | "crear";
      values: StaffOrderValues;
      fieldErrors: Record<string, string>;
      message: string | null;
      preview: OneTimeOrderPreview | null;
      slotTaken?: boolean;
    }
  | { intent: "otro"; message: string };
