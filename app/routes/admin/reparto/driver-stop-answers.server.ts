import type { DriverConfirmation, QueuedConfirmationAnswer } from "@server/deliveries/index.server";
import { deliveryStatusLabel } from "@core/delivery-labels";
import { formatSoles } from "@core/money";
import type { driverStopSchema } from "~/lib/driver-stop-schema";
import type { z } from "@core/zod";

/** The driver's form (or a queued tap of it) as the domain's confirmation. */
export function confirmationFromForm(input: z.output<typeof driverStopSchema>): DriverConfirmation {
  if (input.intent === "en_camino") return { kind: "on_the_way" };
  if (input.intent === "entregado")
    return {
      kind: "delivered",
      receiverName: input.receiverName,
      fullBidonesLeft: input.fullBidonesLeft,
      emptyBidonesCollected: input.emptyBidonesCollected,
      collected: input.collected,
    };
  return { kind: "failed", reason: input.reason, note: input.note };
}

type Refusal = Extract<QueuedConfirmationAnswer, { status: "refused" }>["refusal"];

/** What the driver reads on the stop when a confirmation is refused (the form and the queue say the same). */
export function driverRefusalMessage(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not_found":
      // The same words for a stop moved to another driver and one that never existed (no oracle).
      return "Esta parada ya no está en tu ruta: no se registró. Consulta con operaciones.";
    case "collection_required":
      return `Este pedido no está pagado: cobra ${formatSoles(refusal.amountCents)} y marca cómo cobraste, o marca «No se pudo entregar».`;
    case "already_paid":
      return "Este pedido ya está pagado: no cobres nada. Confirma la entrega sin cobro.";
    case "not_allowed":
      return `Esta parada está «${deliveryStatusLabel(refusal.status)}» y no se puede marcar así.`;
    case "too_old":
      return "Esta confirmación tiene más de 48 horas y no se registró: avisa a operaciones.";
    case "key_reused":
      // Decision 0089: the key was already applied to another tap; this one was not.
      return "Esta confirmación llegó con la clave de otra ya registrada y no se registró. Vuelve a marcar la parada.";
  }
}
