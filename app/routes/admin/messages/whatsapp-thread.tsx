import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/whatsapp-thread";
import {
  isWhatsappSender,
  markWhatsappMessageAttended,
  readWhatsappThread,
  replyOnWhatsappByStaff,
  whatsappEnabled,
  type WhatsappThreadEntry,
} from "@server/whatsapp/index.server";
import { FormAlert } from "~/components/account/auth-shell";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { StaffFormError, staffInputClass, staffPrimaryButtonClass } from "~/components/admin/staff-form";
import { dbContext } from "~/server/db-context.server";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor } from "~/server/staff.server";
import { formatLimaInstant } from "@core/lima-dates";
import { isUuid } from "@core/input-schemas";
import { formatWhatsappNumber, OPTED_OUT_MESSAGE, STAFF_REPLY_MAX, WINDOW_CLOSED_MESSAGE } from "@core/whatsapp";

/** Issue 38: one customer's WhatsApp conversation, for those who answer Mensajes (operaciones; admin always may). */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/mensajes")];

function senderParam(value: string | undefined): string {
  if (!value || !isWhatsappSender(value)) throw data("Conversación no encontrada", { status: 404 });
  return value;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const phone = senderParam(params.phone);
  if (!whatsappEnabled()) return { enabled: false as const, phone };
  const thread = await readWhatsappThread(context.get(dbContext), phone, new Date());
  const notice = new URL(request.url).searchParams.get("aviso");
  // One key per form shown: a double submit of the same form sends one message (issue 38).
  return { enabled: true as const, phone, thread, requestKey: crypto.randomUUID(), justReplied: notice === "respondido" };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const phone = senderParam(params.phone);
  const form = Object.fromEntries(await readFormData(request));
  const db = context.get(dbContext);
  if (form.intent === "attend_whatsapp") {
    const messageId = typeof form.messageId === "string" ? form.messageId : "";
    const result = isUuid(messageId) ? await markWhatsappMessageAttended(db, staffActor(context, request), messageId, new Date()) : null;
    if (!result?.ok) return data({ ok: false, message: "No encontramos ese mensaje.", text: "" }, { status: 404 });
    return { ok: true, message: result.changed ? "Mensaje marcado como atendido." : "Ese mensaje ya estaba atendido.", text: "" };
  }
  if (form.intent !== "reply") return data({ ok: false, message: "Acción desconocida", text: "" }, { status: 400 });
  const text = typeof form.texto === "string" ? form.texto : "";
  const requestKey = typeof form.requestKey === "string" && isUuid(form.requestKey) ? form.requestKey : null;
  if (!requestKey) return data({ ok: false, message: "Recarga la página e inténtalo de nuevo.", text }, { status: 400 });
  const result = await replyOnWhatsappByStaff(db, staffActor(context, request), { phone, text, requestKey }, new Date());
  if (!result.ok) return data({ ok: false, message: result.message, text }, { status: result.reason === "invalid" ? 400 : 409 });
  return redirect(`/admin/mensajes/whatsapp/${phone}?aviso=respondido`, { status: 303 });
}

export const meta: Route.MetaFunction = () => [{ title: "Conversación de WhatsApp · Back office" }, { name: "robots", content: "noindex,nofollow" }];

/** The 9 digits the staff's new-order page takes, for a Peruvian mobile; null otherwise. */
function localMobile(phone: string): string | null {
  return /^519\d{8}$/.test(phone) ? phone.slice(2) : null;
}

export default function AdminWhatsappThread({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.enabled) {
    return (
      <>
        <AdminPageHeader title="Conversación de WhatsApp" />
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">WhatsApp no está activo en esta tienda.</p>
        <BackToMessages />
      </>
    );
  }
  const { thread, phone, requestKey, justReplied } = loaderData;
  const number = formatWhatsappNumber(phone);
  const mobile = localMobile(phone);
  const title = thread.customer?.name ?? thread.profileName ?? number;
  const canReply = /^\d+$/.test(phone) && thread.windowOpenUntil !== null && !thread.optedOut;
  return (
    <div className="max-w-3xl">
      <AdminPageHeader title={`WhatsApp: ${title}`}>
        {mobile && (
          <Link to={`/admin/pedidos/nuevo?telefono=${mobile}`} className={staffPrimaryButtonClass}>
            Crear pedido
          </Link>
        )}
      </AdminPageHeader>
      <div className="mb-4 space-y-1 text-sm text-slate-700" data-testid="whatsapp-correspondent">
        <p>
          Número: <strong className="whitespace-nowrap">{number}</strong>
        </p>
        {thread.customer ? (
          <p>
            Cliente con número confirmado:{" "}
            <Link to={`/admin/clientes/${thread.customer.userId}`} className="font-semibold text-brand-800 underline">
              {thread.customer.name}
            </Link>
          </p>
        ) : (
          <p>
            {thread.profileName ? (
              <>
                Nombre en WhatsApp: <strong>{thread.profileName}</strong> (sin verificar: cualquiera puede ponerse ese nombre).{" "}
              </>
            ) : null}
            El número no está confirmado como de ningún cliente.
          </p>
        )}
        <p>{thread.pending === 1 ? "1 mensaje por atender" : `${thread.pending} mensajes por atender`}</p>
      </div>
      {justReplied && !actionData && (
        <div className="mb-4">
          <FormAlert tone="success">Respuesta en cola: sale por WhatsApp en unos segundos.</FormAlert>
        </div>
      )}
      {actionData?.message && actionData.ok && (
        <div className="mb-4">
          <FormAlert tone="success">{actionData.message}</FormAlert>
        </div>
      )}
      {thread.entries.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-slate-700 shadow-sm ring-1 ring-slate-100">Aún no hay mensajes con este número.</p>
      ) : (
        <ol className="space-y-3" aria-label="Mensajes de la conversación">
          {thread.entries.map((entry) => (
            <ThreadEntry key={`${entry.direction}-${entry.id}`} entry={entry} number={number} />
          ))}
        </ol>
      )}
      <section aria-labelledby="responder" className="mt-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100">
        <h2 id="responder" className="mb-2 text-lg font-bold text-slate-900">
          Responder
        </h2>
        {canReply ? (
          <Form method="post" key={requestKey} className="space-y-3">
            <StaffFormError message={actionData && !actionData.ok ? actionData.message : undefined} />
            <input type="hidden" name="intent" value="reply" />
            <input type="hidden" name="requestKey" value={requestKey} />
            <label htmlFor="texto" className="block font-semibold text-slate-800">
              Tu respuesta
            </label>
            <textarea
              id="texto"
              name="texto"
              rows={4}
              required
              maxLength={STAFF_REPLY_MAX}
              defaultValue={actionData && !actionData.ok ? actionData.text : ""}
              aria-describedby="ventana"
              className={staffInputClass}
            />
            <p id="ventana" className="text-sm text-slate-700">
              Puedes escribirle texto libre hasta el {formatLimaInstant(thread.windowOpenUntil!)} (24 horas desde su último mensaje).
            </p>
            <button type="submit" className={staffPrimaryButtonClass}>
              Enviar respuesta
            </button>
          </Form>
        ) : (
          <>
            <StaffFormError message={actionData && !actionData.ok ? actionData.message : undefined} />
            <p className="text-slate-700" data-testid="reply-unavailable">
              {thread.optedOut
                ? OPTED_OUT_MESSAGE
                : /^\d+$/.test(phone)
                  ? WINDOW_CLOSED_MESSAGE
                  : "Este remitente no tiene número: no se le puede responder desde aquí."}
            </p>
          </>
        )}
      </section>
      <BackToMessages />
    </div>
  );
}

function BackToMessages() {
  return (
    <p className="mt-6">
      <Link to="/admin/mensajes" className="font-semibold text-brand-800 underline">
        Volver a Mensajes
      </Link>
    </p>
  );
}

function ThreadEntry({ entry, number }: { entry: WhatsappThreadEntry; number: string }) {
  if (entry.direction === "out") {
    return (
      <li data-testid="whatsapp-outbound" className="ml-6 min-w-0 rounded-2xl bg-brand-50 p-4 ring-1 ring-brand-100 sm:ml-12">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <p className="text-sm font-semibold text-slate-900">
            {entry.title}
            {entry.staffName ? ` · por ${entry.staffName}` : ""}
          </p>
          <span className="rounded-full bg-white px-3 py-0.5 text-xs font-semibold text-slate-800 ring-1 ring-slate-200">{entry.statusLabel}</span>
        </div>
        <p className="mt-1 text-xs text-slate-700">{formatLimaInstant(entry.at)}</p>
        <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-900">{entry.text}</p>
        {entry.reason && <p className="mt-2 text-xs text-red-800">{entry.reason}</p>}
      </li>
    );
  }
  return (
    <li data-testid="whatsapp-inbound" className="mr-6 min-w-0 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:mr-12">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="text-sm font-semibold text-slate-900">Cliente</p>
        {entry.handledNote ? (
          <span className="rounded-full bg-slate-100 px-3 py-0.5 text-xs font-semibold text-slate-800">{entry.handledNote}</span>
        ) : (
          <span
            className={`rounded-full px-3 py-0.5 text-xs font-semibold ${entry.pending ? "bg-amber-100 text-amber-900" : "bg-emerald-100 text-emerald-900"}`}
          >
            {entry.pending ? "Por atender" : "Atendido"}
          </span>
        )}
      </div>
      <p className="mt-1 text-xs text-slate-700">{formatLimaInstant(entry.at)}</p>
      <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-900">{entry.text}</p>
      {entry.answerFailed && <p className="mt-2 text-xs text-red-800">La tienda no pudo responderlo sola: respóndelo tú.</p>}
      {entry.pending ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="attend_whatsapp" />
          <input type="hidden" name="messageId" value={entry.id} />
          <button
            type="submit"
            className="rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            aria-label={`Marcar como atendido: WhatsApp de ${number} del ${formatLimaInstant(entry.at)}`}
          >
            Marcar como atendido
          </button>
        </Form>
      ) : entry.attendedAt ? (
        <p className="mt-2 text-xs text-slate-600">
          Atendido {entry.attendedByName ? `por ${entry.attendedByName} ` : ""}el {formatLimaInstant(entry.attendedAt)}
        </p>
      ) : null}
    </li>
  );
}
