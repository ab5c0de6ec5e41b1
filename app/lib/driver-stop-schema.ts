import { z } from "@core/zod";
import { bidonCountMessage, bidonLimitMessage, MAX_BIDONES_PER_STOP, RECEIVER_NAME_MISSING } from "@core/driver-stop-rules";
import { freeText, isUuid, lineText } from "@core/input-schemas";
import { deliveryFailureReasons, type DeliveryFailureReason } from "@core/delivery-labels";

const bidones = (label: string) =>
  z
    .string()
    .trim()
    .transform((value) => (value === "" ? "0" : value))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, bidonCountMessage(label))
        .transform(Number)
        .pipe(z.number().max(MAX_BIDONES_PER_STOP, bidonLimitMessage(label))),
    );

const deliveryId = z.string().refine(isUuid, "Parada no encontrada");

/** The driver's three forms (issue 10); each posts `intent` and the stop's `deliveryId`. */
export const driverStopSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("en_camino"), deliveryId }),
  z.object({
    intent: z.literal("entregado"),
    deliveryId,
    receiverName: lineText(120).trim().min(1, RECEIVER_NAME_MISSING),
    fullBidonesLeft: bidones("Bidones llenos dejados"),
    emptyBidonesCollected: bidones("Bidones vacíos recogidos"),
    /** Only asked at a door with an unpaid code; the server decides whether it was needed. */
    collected: z
      .enum(["", "cash", "yape"], { message: "Elige cómo cobraste" })
      .optional()
      .transform((value) => (value ? value : null)),
  }),
  z.object({
    intent: z.literal("no_entregado"),
    deliveryId,
    reason: z.enum(deliveryFailureReasons.map((reason) => reason.value) as [DeliveryFailureReason, ...DeliveryFailureReason[]], { message: "Elige el motivo" }),
    note: freeText(500)
      .trim()
      .optional()
      .transform((value) => value || null),
  }),
]);
