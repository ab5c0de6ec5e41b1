import { useState, type FormEvent } from "react";
import { FieldError } from "~/components/ui/form-field";
import { Form, useNavigation } from "react-router";
import type { DriverRouteStop } from "@server/deliveries/index.server";
import { collectMethodNote } from "@core/door-payment";
import { DeliveryStatusBadge } from "~/components/deliveries/delivery-status";
import { deliveryFailureReasonLabel, deliveryFailureReasons } from "@core/delivery-labels";
import { deliveryWindowLabel } from "@core/delivery-schedule";
import { callHref, customerWhatsappHref, directionsHref, pinLabel, wazeHref } from "~/lib/driver-stop-links";
import { driverStopFormProblems, MAX_BIDONES_PER_STOP } from "@core/driver-stop-rules";
import { formatSoles } from "@core/money";
import type { QueuedTap } from "~/lib/driver-app/store";
import { DONE_STATUSES, stopOnPhone } from "~/lib/driver-app/stop-on-phone";
import { compressPhoto } from "~/lib/driver-app/compress-photo";

/** What the action answers a form it could not apply: shown on that stop, with what was typed. */
export interface StopFormFeedback {
  deliveryId: string;
  intent: string;
  formError: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

const ON_THE_ROAD = ["shipped", "in_transit"];
const CAN_GO_OUT = ["pending", "preparing", "scheduled", "rescheduled"];

const bigButton = "block w-full min-h-12 rounded-xl px-4 py-3 text-center text-base font-semibold disabled:opacity-60";
const linkButton =
  "flex min-h-12 items-center justify-center rounded-xl bg-white px-3 py-2 text-base font-semibold text-brand-900 ring-1 ring-brand-200 hover:bg-brand-50";
const input = "mt-1 block w-full min-h-12 rounded-xl border border-slate-300 px-3 py-2 text-base";

/** On the street the error is read at arm's length in daylight: the kit's, heavier. */
function StopFieldError({ id, message }: { id: string; message?: string }) {
  return <FieldError id={id} message={message} className="mt-1 text-sm font-semibold text-red-800" />;
}

/** What the driver app does with a tap (issue 26): kept on the phone and sent; absent, the forms post. */
export interface StopTaps {
  /** This stop's taps on the phone, oldest first: pending ones shape the stop, refused ones say why. */
  taps: QueuedTap[];
  offline: boolean;
  record(intent: QueuedTap["intent"], fields: Record<string, string>): Promise<void>;
  dismiss(key: string): Promise<void>;
  /** Keeps the photo of the bidones on the phone, to be sent before the tap; answers its key. */
  addPhoto(photo: Blob): Promise<string>;
}

/** A tap the server refused: on its stop, in Spanish, until the driver has read it (never dropped silently). */
export function RefusedTap({ tap, onDismiss }: { tap: QueuedTap; onDismiss: (key: string) => Promise<void> }) {
  return (
    <div role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-red-900" data-testid="refused-tap">
      <p className="font-semibold">
        No se registró «{TAP_LABELS[tap.intent]}»: {tap.message}
      </p>
      <button
        type="button"
        onClick={() => void onDismiss(tap.key)}
        className="mt-2 min-h-12 rounded-xl bg-white px-4 font-semibold text-red-900 ring-1 ring-red-200"
      >
        Entendido
      </button>
    </div>
  );
}

const TAP_LABELS: Record<QueuedTap["intent"], string> = { en_camino: "En camino", entregado: "Entregado", no_entregado: "No se pudo entregar" };

/** One stop of the driver's route: who, where, what, how much, and the three buttons (issue 10). */
export function DriverStopCard({
  stop: served,
  number,
  feedback,
  app,
  shopYape = null,
}: {
  stop: DriverRouteStop;
  number: number;
  /** The shop's Yape/Plin number a contra-entrega customer pays to. */
  shopYape?: { number: string } | null;
  feedback: StopFormFeedback | null;
  app?: StopTaps;
}) {
  const navigation = useNavigation();
  const [phoneErrors, setPhoneErrors] = useState<{ intent: string; errors: Record<string, string> } | null>(null);
  // Issue 40: the photo of the bidones, compressed as soon as it is taken, kept with the tap.
  const [photo, setPhoto] = useState<{ blob: Blob } | { problem: string } | { busy: true } | null>(null);
  const onPhoto = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (!file) return setPhoto(null);
    setPhoto({ busy: true });
    compressPhoto(file).then(
      (blob) => setPhoto({ blob }),
      () => setPhoto({ problem: "No pudimos leer la foto. Tómala de nuevo." }),
    );
  };
  const taps = app?.taps ?? [];
  const onPhone = stopOnPhone(served, taps);
  const stop = { ...served, ...onPhone };
  const pending = taps.filter((tap) => tap.state === "pending");
  const busy = navigation.state === "submitting" && navigation.formData?.get("deliveryId") === stop.id;
  const values = (intent: string) => (feedback?.intent === intent ? feedback.values : {});
  const errors = (intent: string) => (phoneErrors?.intent === intent ? phoneErrors.errors : feedback?.intent === intent ? feedback.fieldErrors : {});
  // With the driver app, a tap is kept on the phone and sent from there; the form posts only without JavaScript.
  const onSubmit = app
    ? (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const fields = Object.fromEntries([...new FormData(event.currentTarget)].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
        const problems = driverStopFormProblems(fields);
        const intent = fields.intent as QueuedTap["intent"];
        setPhoneErrors(Object.keys(problems).length > 0 ? { intent, errors: problems } : null);
        if (Object.keys(problems).length > 0) return;
        const taken = intent === "entregado" && photo && "blob" in photo ? photo.blob : null;
        void (async () => {
          if (taken) fields.photoKey = await app.addPhoto(taken);
          await app.record(intent, fields);
        })();
      }
    : undefined;
  const open = !DONE_STATUSES.includes(stop.status);
  // The forms post to the route on screen, which the page already knows (`discover="none"` on each
  // spares the phone React Router's request for it as the page starts).
  const headingId = `parada-${stop.id}-titulo`;
  const firstName = stop.recipientName.split(" ")[0] ?? stop.recipientName;
  return (
    <li id={`parada-${stop.id}`} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" aria-labelledby={headingId} data-testid="driver-stop">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold text-slate-900">
          {number}. {stop.address}
        </h2>
        <DeliveryStatusBadge status={stop.status} />
      </div>
      <p className="text-slate-700">
        {stop.districtName} · {deliveryWindowLabel(stop.deliveryWindow)}
      </p>
      {stop.arrival && (
        // Issue 40: the same window the customer's tracking shows, from the same estimate.
        <p className="font-semibold text-slate-900" data-testid="driver-stop-arrival">
          Llegada estimada: {stop.arrival.from}–{stop.arrival.to}
          {stop.arrival.late && (
            <span className="ml-2 inline-block rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-900" title={stop.arrival.late}>
              Con retraso
            </span>
          )}
        </p>
      )}
      {stop.reference && <p className="mt-1 text-slate-700">Referencia: {stop.reference}</p>}
      {stop.orderNotes && stop.orderNotes !== stop.reference && <p className="mt-1 text-slate-700">Notas: {stop.orderNotes}</p>}
      {stop.districtNotes && <p className="mt-1 break-words whitespace-pre-line text-slate-700">Nota del distrito: {stop.districtNotes}</p>}
      <p className="mt-2 text-slate-900">
        Recibe: <span className="font-semibold">{stop.recipientName}</span> · {stop.phone}
      </p>
      <p className="text-sm text-slate-600">
        Envío {stop.deliveryNumber} · Pedido {stop.orderNumber}
      </p>

      {open && (
        <>
          <div className="mt-3 grid grid-cols-2 gap-2">
            <a href={directionsHref(stop.pin, stop.address, stop.districtName)} className={linkButton} target="_blank" rel="noreferrer">
              Cómo llegar
            </a>
            <a href={wazeHref(stop.pin, stop.address, stop.districtName)} className={linkButton} target="_blank" rel="noreferrer">
              Waze
            </a>
            <a href={callHref(stop.phone)} className={linkButton}>
              Llamar
            </a>
            <a href={customerWhatsappHref(stop.phone, firstName)} className={linkButton} target="_blank" rel="noreferrer">
              WhatsApp
            </a>
          </div>
          <p className="mt-1 text-sm text-slate-600" data-testid="stop-pin">
            {stop.pin ? `Ubicación marcada: ${pinLabel(stop.pin)}` : "Sin ubicación marcada: «Cómo llegar» busca la dirección escrita."}
          </p>
        </>
      )}

      {open && (
        <ul className="mt-3 space-y-1 text-slate-900" aria-label={`Productos del envío ${stop.deliveryNumber}`}>
          {stop.items.map((item, index) => (
            <li key={index}>
              <span className="font-semibold">{item.quantity} ×</span> {item.title}
              {item.variantTitle && <span className="text-slate-600"> ({item.variantTitle})</span>}
            </li>
          ))}
        </ul>
      )}
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
        <div className={`rounded-xl p-3 ${stop.amountToCollectCents > 0 ? "bg-amber-50 text-amber-950" : "bg-slate-50 text-slate-800"}`}>
          <dt>Cobrar</dt>
          <dd className="text-lg font-bold" data-testid="amount-to-collect">
            {stop.amountToCollectCents > 0 ? formatSoles(stop.amountToCollectCents) : stop.collectedUnsent ? "Cobrado" : "Pagado"}
          </dd>
          {stop.collectedUnsent && (
            <dd className="mt-1 text-sm font-semibold" data-testid="collected-unsent">
              {formatSoles(stop.collectedUnsent.cents)} {stop.collectedUnsent.method === "cash" ? "en efectivo" : "con Yape"} · por enviar
            </dd>
          )}
          {stop.amountToCollectCents > 0 && stop.collectMethod && (
            <dd className="mt-1 text-sm font-semibold" data-testid="collect-line">
              {collectMethodNote(stop.amountToCollectCents, stop.collectMethod, stop.paysWithCents)}
            </dd>
          )}
        </div>
        <div className="rounded-xl bg-slate-50 p-3 text-slate-800">
          <dt>Bidones en poder del cliente</dt>
          <dd className="text-lg font-bold" data-testid="bidon-balance">
            {stop.bidonBalance}
          </dd>
          {stop.unsent && stop.proof?.outcome === "delivered" && <dd className="text-sm font-semibold text-amber-900">por enviar</dd>}
        </div>
      </dl>

      {stop.amountToCollectCents > 0 && stop.collectMethod === "yape" && open && shopYape && (
        <div className="mt-3 flex items-center gap-3 rounded-xl bg-violet-50 p-3 text-violet-950" data-testid="shop-yape">
          <p className="text-sm">
            Yape / Plin de la tienda: <strong className="text-base">{shopYape.number}</strong>
            <br />
            Que el cliente pague a este número, nunca a uno personal.
          </p>
        </div>
      )}

      {stop.proof && !open && (
        <p className="mt-3 rounded-xl bg-slate-50 p-3 text-slate-800" data-testid="stop-proof">
          {stop.proof.outcome === "delivered"
            ? `Recibió ${stop.proof.receiverName}. Llenos dejados: ${stop.proof.fullBidonesLeft ?? 0}, vacíos recogidos: ${stop.proof.emptyBidonesCollected ?? 0}.`
            : `No se pudo entregar: ${deliveryFailureReasonLabel(stop.proof.failureReason ?? "otro")}${stop.proof.note ? ` (${stop.proof.note})` : ""}.`}
        </p>
      )}

      {pending.length > 0 && (
        <p role="status" className="mt-3 rounded-xl bg-amber-50 p-3 font-semibold text-amber-950" data-testid="stop-pending">
          {app?.offline ? "Guardado en el teléfono: se enviará cuando vuelva la señal." : "Guardado en el teléfono: enviando…"}
          {pending.some((tap) => tap.fields.photoKey) && <span className="block text-sm font-normal">Con la foto de los bidones.</span>}
        </p>
      )}
      {app && taps.filter((tap) => tap.state === "refused").map((tap) => <RefusedTap key={tap.key} tap={tap} onDismiss={app.dismiss} />)}

      {feedback?.formError && (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 font-semibold text-red-800">
          {feedback.formError}
        </p>
      )}

      {open && (
        <div className="mt-4 space-y-3">
          {CAN_GO_OUT.includes(stop.status) && (
            <Form discover="none" method="post" onSubmit={onSubmit}>
              <input type="hidden" name="intent" value="en_camino" />
              <input type="hidden" name="deliveryId" value={stop.id} />
              <button type="submit" disabled={busy} className={`${bigButton} bg-sky-700 text-white hover:bg-sky-800`}>
                Marcar en camino
              </button>
            </Form>
          )}
          {(ON_THE_ROAD.includes(stop.status) || CAN_GO_OUT.includes(stop.status)) && (
            <details className="rounded-xl ring-1 ring-slate-200" open={feedback?.intent === "entregado" || ON_THE_ROAD.includes(stop.status) || undefined}>
              <summary className="min-h-12 cursor-pointer rounded-xl px-4 py-3 text-base font-semibold text-green-900">Marcar entregado</summary>
              <Form discover="none" method="post" className="space-y-3 px-4 pb-4" onSubmit={onSubmit}>
                <input type="hidden" name="intent" value="entregado" />
                <input type="hidden" name="deliveryId" value={stop.id} />
                <div>
                  <label htmlFor={`receptor-${stop.id}`} className="font-semibold text-slate-900">
                    Nombre de quien recibe
                  </label>
                  <input
                    id={`receptor-${stop.id}`}
                    name="receiverName"
                    required
                    maxLength={120}
                    autoComplete="off"
                    defaultValue={values("entregado").receiverName ?? ""}
                    aria-invalid={errors("entregado").receiverName ? true : undefined}
                    aria-describedby={errors("entregado").receiverName ? `receptor-${stop.id}-error` : undefined}
                    className={input}
                  />
                  <StopFieldError id={`receptor-${stop.id}-error`} message={errors("entregado").receiverName} />
                </div>
                <div className="grid grid-cols-2 gap-3">
                  {(
                    [
                      ["fullBidonesLeft", "Bidones llenos dejados", "llenos"],
                      ["emptyBidonesCollected", "Bidones vacíos recogidos", "vacios"],
                    ] as const
                  ).map(([name, label, slug]) => (
                    <div key={name}>
                      <label htmlFor={`${slug}-${stop.id}`} className="font-semibold text-slate-900">
                        {label}
                      </label>
                      <input
                        id={`${slug}-${stop.id}`}
                        name={name}
                        type="number"
                        inputMode="numeric"
                        min={0}
                        max={MAX_BIDONES_PER_STOP}
                        step={1}
                        required
                        defaultValue={
                          values("entregado")[name] ?? (name === "fullBidonesLeft" ? String(Math.min(stop.fullBidonesOrdered, MAX_BIDONES_PER_STOP)) : "0")
                        }
                        aria-invalid={errors("entregado")[name] ? true : undefined}
                        aria-describedby={errors("entregado")[name] ? `${slug}-${stop.id}-error` : undefined}
                        className={input}
                      />
                      <StopFieldError id={`${slug}-${stop.id}-error`} message={errors("entregado")[name]} />
                    </div>
                  ))}
                </div>
                {stop.amountToCollectCents > 0 && (
                  <fieldset aria-describedby={errors("entregado").collected ? `cobro-${stop.id}-error` : undefined}>
                    <legend className="font-semibold text-slate-900">Cobro de {formatSoles(stop.amountToCollectCents)}</legend>
                    <div className="mt-1 space-y-1">
                      {(
                        [
                          ["cash", "Cobré en efectivo"],
                          ["yape", "Cobré con Yape"],
                        ] as const
                      ).map(([value, label]) => (
                        <label key={value} className="flex min-h-12 items-center gap-3 rounded-xl px-2 text-base text-slate-900 hover:bg-slate-50">
                          <input
                            type="radio"
                            name="collected"
                            value={value}
                            required
                            defaultChecked={values("entregado").collected === value}
                            className="h-5 w-5"
                          />
                          {label}
                        </label>
                      ))}
                    </div>
                    <StopFieldError id={`cobro-${stop.id}-error`} message={errors("entregado").collected} />
                  </fieldset>
                )}
                {app && (
                  <div>
                    <label htmlFor={`foto-${stop.id}`} className="font-semibold text-slate-900">
                      Foto de los bidones en la puerta (sin personas)
                    </label>
                    <input
                      id={`foto-${stop.id}`}
                      type="file"
                      accept="image/*"
                      capture="environment"
                      onChange={onPhoto}
                      className="mt-1 block w-full text-base text-slate-900 file:mr-3 file:min-h-12 file:rounded-xl file:border-0 file:bg-slate-100 file:px-4 file:font-semibold"
                    />
                    <p className="mt-1 text-sm text-slate-700" data-testid="photo-state">
                      {photo === null
                        ? "Opcional. Se guarda en el teléfono y se envía con la entrega."
                        : "busy" in photo
                          ? "Preparando la foto…"
                          : "problem" in photo
                            ? photo.problem
                            : `Foto lista (${Math.ceil(photo.blob.size / 1024)} KB).`}
                    </p>
                  </div>
                )}
                <button type="submit" disabled={busy} className={`${bigButton} bg-green-700 text-white hover:bg-green-800`}>
                  Confirmar entrega
                </button>
              </Form>
            </details>
          )}
          {ON_THE_ROAD.includes(stop.status) && (
            <details className="rounded-xl ring-1 ring-slate-200" open={feedback?.intent === "no_entregado" || undefined}>
              <summary className="min-h-12 cursor-pointer rounded-xl px-4 py-3 text-base font-semibold text-red-800">No se pudo entregar</summary>
              <Form discover="none" method="post" className="space-y-3 px-4 pb-4" onSubmit={onSubmit}>
                <input type="hidden" name="intent" value="no_entregado" />
                <input type="hidden" name="deliveryId" value={stop.id} />
                <fieldset>
                  <legend className="font-semibold text-slate-900">Motivo</legend>
                  <div className="mt-1 space-y-1">
                    {deliveryFailureReasons.map((reason) => (
                      <label key={reason.value} className="flex min-h-12 items-center gap-3 rounded-xl px-2 text-base text-slate-900 hover:bg-slate-50">
                        <input
                          type="radio"
                          name="reason"
                          value={reason.value}
                          required
                          defaultChecked={values("no_entregado").reason === reason.value}
                          className="h-5 w-5"
                        />
                        {reason.label}
                      </label>
                    ))}
                  </div>
                  <StopFieldError id={`motivo-${stop.id}-error`} message={errors("no_entregado").reason} />
                </fieldset>
                <div>
                  <label htmlFor={`nota-${stop.id}`} className="font-semibold text-slate-900">
                    Nota (opcional)
                  </label>
                  <textarea id={`nota-${stop.id}`} name="note" rows={2} maxLength={500} defaultValue={values("no_entregado").note ?? ""} className={input} />
                  <StopFieldError id={`nota-${stop.id}-error`} message={errors("no_entregado").note} />
                </div>
                <button type="submit" disabled={busy} className={`${bigButton} bg-red-700 text-white hover:bg-red-800`}>
                  Registrar no entregado
                </button>
              </Form>
            </details>
          )}
        </div>
      )}
    </li>
  );
}
