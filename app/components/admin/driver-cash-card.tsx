import { Form, Link } from "react-router";
import type { CashHandover, DriverCashBox } from "@server/payments/index.server";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { FieldError } from "~/components/ui/form-field";
import { doorMethodLabel, handoverBalance, handoverBalanceLabel } from "@core/cash-box";
import { formatLimaInstant } from "@core/lima-dates";
import { formatSoles } from "@core/money";

/** What a refused "Registrar rendición" answers: shown on the card of the driver it was for, with what was typed. */
export interface HandoverFeedback {
  driverId: string;
  formError: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

const TIME: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };

/** One driver's day in /admin/caja (decision 0060): collections, totals per method, rendición and its history, and the form. */
export function DriverCashCard({
  driver,
  index,
  date,
  canRecord,
  feedback,
}: {
  driver: DriverCashBox;
  index: number;
  date: string;
  canRecord: boolean;
  feedback: HandoverFeedback | null;
}) {
  const [current, ...earlier] = driver.handovers;
  const headingId = `caja-titulo-${index}`;
  return (
    <section
      id={driver.driverId ? `caja-${driver.driverId}` : undefined}
      aria-labelledby={headingId}
      data-testid="driver-cash-box"
      className="min-w-0 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-5"
    >
      <h2 id={headingId} className="text-lg font-bold break-words text-slate-900">
        {driver.driverName}
      </h2>
      <p className="mb-3 text-sm break-words text-slate-600">{driver.driverEmail}</p>
      {driver.collections.length > 0 ? (
        <ul aria-label={`Cobros de ${driver.driverName}`} className="mb-4 divide-y divide-slate-100">
          {driver.collections.map((collection) => (
            <li key={collection.paymentId} data-testid="door-collection" className="flex flex-wrap justify-between gap-x-3 py-2">
              <span className="min-w-0 break-words">
                <Link to={`/admin/pedidos/${collection.orderId}`} className="font-semibold text-brand-800 underline">
                  {collection.orderNumber}
                </Link>{" "}
                · {collection.customerName}
              </span>
              <span className="text-slate-800">
                <strong className="text-slate-900">{formatSoles(collection.amountCents)}</strong> · {doorMethodLabel(collection.method)} ·{" "}
                {formatLimaInstant(collection.collectedAt, TIME)}
              </span>
              {collection.phoneTime && (
                // Decision 0089: the phone's time was not believed; the time above is when the server received the tap.
                <span className="basis-full text-sm font-semibold text-amber-800" data-testid="door-collection-phone-time">
                  Hora del teléfono: {formatLimaInstant(collection.phoneTime)} (ajustada)
                </span>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mb-4 text-slate-700">Sin cobros en la puerta este día.</p>
      )}
      <dl className="mb-4 grid gap-1 rounded-xl bg-slate-50 p-3">
        <div className="flex flex-wrap justify-between gap-x-3">
          <dt className="text-slate-700">Efectivo cobrado</dt>
          <dd className="font-semibold text-slate-900">{formatSoles(driver.cashCents)}</dd>
        </div>
        <div className="flex flex-wrap justify-between gap-x-3">
          <dt className="text-slate-700">Yape (a la cuenta de la tienda)</dt>
          <dd className="font-semibold text-slate-900" data-testid="yape-total">
            {formatSoles(driver.yapeCents)}
          </dd>
        </div>
        <div className="flex flex-wrap justify-between gap-x-3 border-t border-slate-200 pt-1">
          <dt className="font-semibold text-slate-900">Efectivo a entregar</dt>
          <dd className="font-bold text-slate-900" data-testid="cash-due">
            {formatSoles(driver.cashCents)}
          </dd>
        </div>
      </dl>
      {current ? <HandoverStatus handover={current} dueCents={driver.cashCents} /> : <p className="mb-4 text-slate-700">Sin rendición registrada.</p>}
      {earlier.length > 0 && (
        <details className="mb-4">
          <summary className="cursor-pointer font-semibold text-brand-800">Historial de la rendición ({earlier.length})</summary>
          <ol className="mt-2 space-y-2 text-sm text-slate-700" aria-label={`Rendiciones anteriores de ${driver.driverName}`}>
            {earlier.map((handover) => (
              <li key={handover.id} className="break-words">
                {formatSoles(handover.countedCents)} contados (se esperaban {formatSoles(handover.expectedCents)}) · {handover.recordedByEmail} ·{" "}
                {formatLimaInstant(handover.recordedAt)}
                {handover.note ? ` · ${handover.note}` : ""}
              </li>
            ))}
          </ol>
        </details>
      )}
      {driver.driverId && canRecord && (
        <HandoverForm key={current?.revision ?? 0} driverId={driver.driverId} index={index} date={date} current={current ?? null} feedback={feedback} />
      )}
    </section>
  );
}

function HandoverStatus({ handover, dueCents }: { handover: CashHandover; dueCents: number }) {
  const balance = handoverBalance(handover.countedCents, dueCents);
  return (
    <div className="mb-4">
      <p
        data-testid="handover-status"
        className={`rounded-xl p-3 font-semibold ${balance.kind === "cuadra" ? "bg-green-50 text-green-900" : "bg-amber-50 text-amber-900"}`}
      >
        Rendición: {formatSoles(handover.countedCents)} · {handoverBalanceLabel(balance)}
      </p>
      <p className="mt-1 text-sm break-words text-slate-600">
        Registrada por {handover.recordedByEmail}, {formatLimaInstant(handover.recordedAt)}
        {handover.note ? ` · ${handover.note}` : ""}
      </p>
    </div>
  );
}

function HandoverForm({
  driverId,
  index,
  date,
  current,
  feedback,
}: {
  driverId: string;
  index: number;
  date: string;
  current: CashHandover | null;
  feedback: HandoverFeedback | null;
}) {
  const values = feedback?.values ?? {};
  const errors = feedback?.fieldErrors ?? {};
  const amountId = `monto-${index}`;
  const noteId = `nota-${index}`;
  return (
    <Form method="post" className="space-y-3 border-t border-slate-100 pt-4">
      <h3 className="font-bold text-slate-900">{current ? "Corregir rendición" : "Registrar rendición"}</h3>
      <StaffFormError message={feedback?.formError} />
      <input type="hidden" name="driverId" value={driverId} />
      <input type="hidden" name="fecha" value={date} />
      {/* The revision this form was made on: a post that finds a newer one is refused, not applied on top. */}
      <input type="hidden" name="corrige" value={current?.revision ?? 0} />
      <div>
        <label htmlFor={amountId} className="mb-1 block font-semibold text-slate-800">
          Efectivo contado (S/)
        </label>
        <input
          id={amountId}
          name="monto"
          inputMode="decimal"
          autoComplete="off"
          required
          placeholder="150.50"
          defaultValue={values.monto ?? ""}
          aria-invalid={errors.monto ? true : undefined}
          aria-describedby={errors.monto ? `${amountId}-error` : undefined}
          className={staffInputClass}
        />
        <FieldError id={`${amountId}-error`} message={errors.monto} />
      </div>
      <div>
        <label htmlFor={noteId} className="mb-1 block font-semibold text-slate-800">
          {current ? "Motivo de la corrección" : "Nota (opcional)"}
        </label>
        <textarea
          id={noteId}
          name="nota"
          rows={2}
          maxLength={500}
          required={current !== null}
          defaultValue={values.nota ?? ""}
          aria-invalid={errors.nota ? true : undefined}
          aria-describedby={errors.nota ? `${noteId}-error` : undefined}
          className={staffInputClass}
        />
        <FieldError id={`${noteId}-error`} message={errors.nota} />
      </div>
      <button type="submit" name="intent" value="rendir" className={staffPrimaryButtonClass}>
        {current ? "Registrar corrección" : "Registrar rendición"}
      </button>
    </Form>
  );
}
