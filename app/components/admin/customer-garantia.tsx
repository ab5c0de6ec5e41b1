import { useState } from "react";
import { Form } from "react-router";
import type { GarantiaReturnState, GarantiaSummary } from "@server/garantias/index.server";
import type { BidonBalance } from "@server/deliveries/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { StaffMessage, actionButtonClass } from "~/components/admin/customer-sections";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";
import { garantiaReturnLabels } from "@core/garantia";

const STATE_LABELS: Record<GarantiaReturnState, string> = {
  en_proceso: "Devolución en proceso",
  devuelta: "Devuelta",
  credito: "Crédito para su próximo pedido",
  retenida: "Retenida (bidón dañado)",
  requiere_atencion: "Requiere atención",
  por_devolver_a_mano: "Por devolver a mano (pago en efectivo o código)",
  devuelta_a_mano: "Devuelta a mano",
};

/** The answer of "Marcar como devuelta a mano", shown beside its row; the note typed stays on a refusal. */
export interface GarantiaSettleAnswer {
  releaseId: string;
  ok: boolean;
  message: string;
  note: string;
}

/** The action's answer when it is that of "Marcar como devuelta a mano" (the page's actions answer in several shapes). */
export function settleAnswerOf(answer: unknown): GarantiaSettleAnswer | null {
  if (typeof answer !== "object" || answer === null || !("releaseId" in answer)) return null;
  const { releaseId, ok, message, note } = answer as Record<string, unknown>;
  return { releaseId: String(releaseId), ok: ok === true, message: String(message ?? ""), note: typeof note === "string" ? note : "" };
}

/**
 * Decision 0075: the customer's bidón garantía as staff see it, the form to record bidones the
 * customer brought back outside a delivery (their garantía goes back as the customer prefers, or is
 * kept for a broken bidón), and, on each return that requires attention, the form to record that
 * staff gave it back by hand (shown only where `canSettle`).
 */
export function CustomerGarantia({
  garantia,
  bidones,
  canRecordReturn,
  result,
  canSettle = false,
  settleResult = null,
}: {
  garantia: GarantiaSummary;
  bidones: BidonBalance;
  canRecordReturn: boolean;
  result?: { ok: boolean; message: string } | null;
  canSettle?: boolean;
  settleResult?: GarantiaSettleAnswer | null;
}) {
  // A new key per form shown: a double click posts the same key and is recorded once.
  const [requestKey] = useState(() => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : ""));
  const withoutGarantia = Math.max(0, bidones.balance - garantia.heldUnits - garantia.onTheirWayUnits);
  return (
    <AccountSection title="Garantía de bidones">
      <FactList
        testId="customer-garantia"
        facts={[
          ["Garantía en depósito", `${formatSoles(garantia.heldCents)} (${garantia.heldUnits} ${garantia.heldUnits === 1 ? "bidón" : "bidones"})`],
          ["Cobrada, por entregar", `${garantia.onTheirWayUnits} ${garantia.onTheirWayUnits === 1 ? "bidón" : "bidones"}`],
          ["Bidones sin garantía", String(withoutGarantia)],
          ["Crédito disponible", formatSoles(garantia.creditCents)],
          ["Al devolver bidones", garantiaReturnLabels[garantia.preference]],
        ]}
      />
      {garantia.returns.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 text-sm" aria-label="Devoluciones de garantía">
          {garantia.returns.map((row) => (
            <li key={row.id} className="py-2">
              <p className="text-slate-900">
                {formatSoles(row.amountCents)} · {row.units} {row.units === 1 ? "bidón" : "bidones"} · pedido {row.orderNumber} ·{" "}
                <span className={row.state === "requiere_atencion" ? "font-semibold text-red-800" : ""}>{STATE_LABELS[row.state]}</span>
              </p>
              <p className="text-xs text-slate-600">
                {formatLimaInstant(row.createdAt)}
                {row.state === "requiere_atencion" && row.lastError ? ` · ${row.lastError}` : ""}
                {row.state === "devuelta_a_mano" && row.settledNote ? ` · ${row.settledNote}${row.settledBy ? ` (${row.settledBy})` : ""}` : ""}
              </p>
              {canSettle && row.state === "requiere_atencion" && row.outcome === "refund" && (
                <Form method="post" className="mt-2 space-y-2" aria-label={`Marcar como devuelta a mano la garantía del pedido ${row.orderNumber}`}>
                  <input type="hidden" name="intent" value="garantia_settle" />
                  <input type="hidden" name="releaseId" value={row.id} />
                  <label className="block text-xs font-semibold text-slate-800">
                    Cómo se devolvió (transferencia, efectivo en oficina…)
                    <input
                      type="text"
                      name="note"
                      required
                      maxLength={300}
                      defaultValue={settleResult?.releaseId === row.id && !settleResult.ok ? settleResult.note : ""}
                      className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
                    />
                  </label>
                  <button type="submit" className={`${actionButtonClass} border-red-300 text-red-800 hover:bg-red-50`}>
                    Marcar como devuelta a mano
                  </button>
                </Form>
              )}
              {settleResult?.releaseId === row.id && <StaffMessage ok={settleResult.ok} message={settleResult.message} />}
            </li>
          ))}
        </ul>
      )}
      {canRecordReturn && bidones.balance > 0 && (
        <Form method="post" className="mt-4 space-y-3 border-t border-slate-100 pt-4" aria-label="Registrar bidones devueltos">
          <input type="hidden" name="intent" value="bidon_return" />
          <input type="hidden" name="requestKey" value={requestKey} />
          <div className="flex flex-wrap items-end gap-3">
            <label className="text-sm font-semibold text-slate-800">
              Bidones devueltos
              <input
                type="number"
                name="quantity"
                min={1}
                max={bidones.balance}
                defaultValue={1}
                required
                className="mt-1 block w-24 rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="goodCondition" value="si" defaultChecked className="h-5 w-5" />
              En buen estado (se devuelve la garantía)
            </label>
          </div>
          <label className="block text-sm font-semibold text-slate-800">
            Nota (opcional)
            <input type="text" name="note" maxLength={200} className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2" />
          </label>
          <button type="submit" className={`${actionButtonClass} border-brand-700 text-brand-800 hover:bg-brand-50`}>
            Registrar devolución
          </button>
        </Form>
      )}
      {result && <StaffMessage ok={result.ok} message={result.message} />}
    </AccountSection>
  );
}
